import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { OpenReportButton } from '../../components/open-report-button.tsx';
import { log } from '../../../sync/log.ts';

interface Opened {
  hospNo: string;
  name: string;
  fetchedAt: number;
}

/** Whether a patient kept here matches the search as the server's search would: a part of the name or of the hospital number, in any case. */
export function matchesSearch(p: { hospNo: string; name: string }, search: string): boolean {
  const q = search.trim().toLocaleLowerCase();
  return q === '' || p.name.toLocaleLowerCase().includes(q) || p.hospNo.toLocaleLowerCase().includes(q);
}

/**
 * While the patient search cannot reach the server: the patients this staff member opened on this
 * device, whose reports the encrypted offline copy still holds (issue 18), each with when it was
 * fetched, filtered by the search typed, and saying that only those are searched (issue 46).
 */
export function OpenedHere({ search = '', onOpen }: { search?: string; onOpen: (hospNo: string) => void }) {
  const { i18n } = useLingui();
  const [opened, setOpened] = useState<Opened[] | undefined>();
  useEffect(() => {
    let live = true;
    void import('../../../sync/storage/staff-cache.ts')
      .then((cache) => cache.listReviews())
      .then(
        (list) => live && setOpened(list),
        (err: unknown) => {
          log.error('Failed to list the patients kept on this device', err);
          if (live) setOpened([]);
        },
      );
    return () => {
      live = false;
    };
  }, []);
  if (!opened) return null;
  const when = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
  const found = opened.filter((p) => matchesSearch(p, search));
  const term = search.trim();
  return (
    <div className="opened-here" data-testid="opened-here">
      <h3>
        <Trans>Opened on this device</Trans>
      </h3>
      <p className="users-offline" role="status">
        {term ? (
          <Trans>Offline: the search looks only through the patients opened on this device.</Trans>
        ) : (
          <Trans>Offline: only the patients opened on this device can be shown. A search looks only through them.</Trans>
        )}
      </p>
      {opened.length === 0 ? (
        <p className="muted">
          <Trans>No patient has been opened on this device yet, so none can be shown offline.</Trans>
        </p>
      ) : found.length === 0 ? (
        <p className="muted">
          <Trans>No patient opened on this device matches “{term}”.</Trans>
        </p>
      ) : (
        <ul className="opened-here-list">
          {found.map((p) => (
            <li key={p.hospNo}>
              <span className="opened-here-who">
                <strong>{p.name}</strong> <span className="muted">{p.hospNo}</span>
              </span>
              <span className="muted opened-here-when">
                <Trans>Fetched {{ fetchedAt: when.format(new Date(p.fetchedAt)) }}</Trans>
              </span>
              <OpenReportButton patient={p} onOpen={onOpen} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
