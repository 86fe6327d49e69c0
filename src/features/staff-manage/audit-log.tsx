// The audit log: which staff member viewed which patient, when and from where (newest first).
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { staffRuntime } from '../../lib/staff-runtime.ts';
import { failureText, HOSP_NO_PATTERN, type AuditEntry } from './staff-api.ts';

const PAGE = 50;

export function AuditLog() {
  const { t, i18n } = useLingui();
  const id = useId();
  const [filter, setFilter] = useState('');
  const [applied, setApplied] = useState('');
  const [filterError, setFilterError] = useState<string | undefined>();
  const [entries, setEntries] = useState<AuditEntry[] | undefined>();
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const fetchPage = useCallback(
    async (hospNo: string, before: string | undefined, previous: AuditEntry[]) => {
      setBusy(true);
      try {
        const q = new URLSearchParams({ limit: String(PAGE) });
        if (hospNo) q.set('hospNo', hospNo);
        if (before) q.set('before', before);
        const res = await staffRuntime.api.get<{ entries: AuditEntry[] }>(`/admin/audit?${q.toString()}`);
        setEntries([...previous, ...res.entries]);
        setMore(res.entries.length === PAGE);
        setError(undefined);
      } catch (err) {
        setError(failureText(err, t`The audit log could not be loaded. Please try again.`));
      } finally {
        setBusy(false);
      }
    },
    [t],
  );

  useEffect(() => {
    void fetchPage('', undefined, []);
  }, [fetchPage]);

  function submit(e: FormEvent) {
    e.preventDefault();
    const no = filter.trim();
    if (no && !HOSP_NO_PATTERN.test(no)) {
      setFilterError(t`A hospital number has letters, digits and - / . _ only (up to 32).`);
      return;
    }
    setFilterError(undefined);
    setApplied(no);
    void fetchPage(no, undefined, []);
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
        <p className="empty-state">
          {applied ? <Trans>Nobody has viewed patient {applied} yet.</Trans> : <Trans>No patient has been viewed yet.</Trans>}
        </p>
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
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => void fetchPage(applied, last.at, entries ?? [])}>
            <Trans>Load older</Trans>
          </button>
        </div>
      )}
    </section>
  );
}
