// Doctor tokens: who may read which hospitals' patients, until when; revoking ends access at once.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import type { StaffHospital } from '../../../sync/staff-session.ts';
import { inBackground } from '../../../sync/background.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { toast } from '../../lib/ui/toast-store.ts';
import { useNow } from '../../lib/use-now.ts';
import { staffReads, useStaffWrites } from '../../lib/staff-api.ts';
import { useStaffQuery } from '../../lib/use-staff-query.ts';
import { DoctorTokenCreate } from './doctor-token-create.tsx';
import { failureText, type DoctorToken } from './staff-api.ts';

export function DoctorTokens({ hospitals }: { hospitals: readonly StaffHospital[] }) {
  const { t, i18n } = useLingui();
  const staffWrites = useStaffWrites();
  const id = useId();
  const [attempt, setAttempt] = useState(0);
  const result = useStaffQuery(staffReads.doctorTokens(), undefined, attempt);
  const [actionError, setActionError] = useState<{ attempt: number; text: string } | undefined>();
  const [revoking, setRevoking] = useState<DoctorToken | undefined>();
  const reload = () => setAttempt((n) => n + 1);
  // The list stays while it reloads, and while a reload fails.
  const tokens = result.status === 'ready' ? result.data.tokens : result.last?.tokens;
  // A failed revoke is shown until the list is next fetched, as a failed fetch is.
  const error =
    result.status === 'error'
      ? failureText(result.error, t`The doctor tokens could not be loaded. Please try again.`)
      : actionError?.attempt === attempt
        ? actionError.text
        : undefined;

  async function revoke() {
    const token = revoking;
    setRevoking(undefined);
    if (!token) return;
    try {
      await staffWrites.revokeDoctorToken(token._id);
      toast({ type: 'success', text: t`Doctor token revoked` });
      reload();
    } catch (err) {
      setActionError({ attempt, text: failureText(err, t`The doctor token could not be revoked. Please try again.`) });
    }
  }

  const now = useNow();
  const when = (iso: string) => new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const names = (ids: readonly string[]) => ids.map((h) => hospitals.find((x) => x._id === h)?.name ?? t`Another hospital`).join(', ');
  const status = (tk: DoctorToken) =>
    tk.revokedAt
      ? t`Revoked ${{ revokedAt: when(tk.revokedAt) }}`
      : Date.parse(tk.expiresAt) <= now
        ? t`Expired`
        : t`Valid until ${{ expiresAt: when(tk.expiresAt) }}`;

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        <Trans>Doctor tokens</Trans>
      </h2>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {tokens && tokens.length === 0 && (
        <p className="empty-state">
          <Trans>No doctor tokens yet. Create one below to let a doctor review patients.</Trans>
        </p>
      )}
      {tokens && tokens.length > 0 && (
        <ul className="list sm-list">
          {tokens.map((tk) => (
            <li key={tk._id}>
              <div className="list-main">
                <strong>{tk.doctorName}</strong>
                <span className="muted">
                  {names(tk.hospitalIds)} · {status(tk)}
                </span>
              </div>
              {!tk.revokedAt && Date.parse(tk.expiresAt) > now && (
                <div className="row-actions">
                  <button
                    type="button"
                    className="button button--danger button--small"
                    aria-label={t`Revoke the token of ${{ doctor: tk.doctorName }}`}
                    onClick={() => setRevoking(tk)}
                  >
                    <Trans>Revoke</Trans>
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <DoctorTokenCreate hospitals={hospitals} onCreated={reload} />
      <ConfirmDialog
        open={revoking !== undefined}
        title={t`Revoke the token of ${{ doctor: revoking?.doctorName ?? '' }}?`}
        confirmLabel={t`Revoke`}
        danger
        onConfirm={() => inBackground(revoke(), 'Revoking the doctor token failed')}
        onCancel={() => setRevoking(undefined)}
      >
        <p>
          <Trans>The doctor loses access at once and cannot use this token again.</Trans>
        </p>
      </ConfirmDialog>
    </section>
  );
}
