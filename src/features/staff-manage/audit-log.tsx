// The audit log: which staff member viewed which patient, when and from where (newest first).
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { staffReads } from '../../lib/staff-api.ts';
import { useStaffQuery } from '../../lib/use-staff-query.ts';
import { failureText, HOSP_NO_PATTERN, type AuditEntry } from './staff-api.ts';

const PAGE = 50;

export function AuditLog() {
  const { t, i18n } = useLingui();
  const id = useId();
  const [filter, setFilter] = useState('');
  // Which entries are asked for: a patient's (or everyone's), from `before` on, after the pages shown.
  const [query, setQuery] = useState<{ hospNo: string; before: string | undefined; shown: AuditEntry[] }>({ hospNo: '', before: undefined, shown: [] });
  const [attempt, setAttempt] = useState(0);
  const [filterError, setFilterError] = useState<string | undefined>();
  const result = useStaffQuery(staffReads.audit({ hospNo: query.hospNo || undefined, before: query.before, limit: PAGE }), undefined, attempt);
  const applied = query.hospNo;
  const busy = result.status === 'loading';
  // While the next page loads, or when it failed, the pages before it stay; a new filter starts empty.
  const entries = result.status === 'ready' ? [...query.shown, ...result.data.entries] : query.before ? query.shown : undefined;
  // "Load older" stays while an older page loads (disabled) or after it failed (to try again).
  const more = result.status === 'ready' ? result.data.entries.length === PAGE : query.before !== undefined;
  const error = result.status === 'error' ? failureText(result.error, t`The audit log could not be loaded. Please try again.`) : undefined;

  function submit(e: FormEvent) {
    e.preventDefault();
    const no = filter.trim();
    if (no && !HOSP_NO_PATTERN.test(no)) {
      setFilterError(t`A hospital number has letters, digits and - / . _ only (up to 32).`);
      return;
    }
    setFilterError(undefined);
    setQuery({ hospNo: no, before: undefined, shown: [] });
    // The same filter again fetches again (someone may have viewed the patient since).
    setAttempt((n) => n + 1);
  }

  const when = (iso: string) => new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
  const last = entries?.at(-1);

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        <Trans>Audit log</Trans>
      </h2>
      <form noValidate className="sm-inline-form" role="search" onSubmit={submit}>
        <div className={filterError ? 'field field--error' : 'field'}>
          <label htmlFor={`${id}-filter`}>
            <Trans>Filter by hospital number</Trans>
          </label>
          <input
            id={`${id}-filter`}
            autoComplete="off"
            value={filter}
            aria-invalid={filterError ? true : undefined}
            aria-describedby={filterError ? `${id}-filter-error` : `${id}-filter-hint`}
            onChange={(e) => setFilter(e.target.value)}
          />
          <p id={`${id}-filter-hint`} className="field-hint">
            <Trans>Leave empty to see every patient.</Trans>
          </p>
          {filterError && (
            <p id={`${id}-filter-error`} className="error-text">
              {filterError}
            </p>
          )}
        </div>
        <button type="submit" className="button button--secondary" disabled={busy}>
          <Trans>Show entries</Trans>
        </button>
      </form>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {entries && entries.length === 0 && (
        <p className="empty-state">{applied ? <Trans>Nobody has viewed patient {applied} yet.</Trans> : <Trans>No patient has been viewed yet.</Trans>}</p>
      )}
      {entries && entries.length > 0 && (
        <div className="sm-table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-title`}>
          <table className="sm-table">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>When</Trans>
                </th>
                <th scope="col">
                  <Trans>Who</Trans>
                </th>
                <th scope="col">
                  <Trans>Patient</Trans>
                </th>
                <th scope="col">
                  <Trans>What</Trans>
                </th>
                <th scope="col">
                  <Trans>From</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e._id}>
                  <td>{when(e.at)}</td>
                  <td>
                    {e.actor} <span className="muted">({e.actorKind === 'doctor' ? t`doctor` : t`admin`})</span>
                  </td>
                  <td>{e.hospNo ?? '—'}</td>
                  <td className="sm-code">{e.action}</td>
                  <td>
                    {e.ip ?? '—'}
                    {e.userAgent && <span className="muted sm-agent">{e.userAgent}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more && last && (
        <div className="form-actions">
          <button
            type="button"
            className="button button--secondary"
            disabled={busy}
            onClick={() => {
              setQuery({ hospNo: applied, before: last.at, shown: entries ?? [] });
              setAttempt((n) => n + 1);
            }}
          >
            <Trans>Load older</Trans>
          </button>
        </div>
      )}
    </section>
  );
}
