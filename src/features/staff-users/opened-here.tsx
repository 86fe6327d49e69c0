import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { OpenReportButton } from '../../components/open-report-button.tsx';
import { log } from '../../../sync/log.ts';

interface Opened {
  hospNo: string;
  name: string;
  fetchedAt: number;
}

/**
 * While the patient search cannot reach the server: the patients this staff member opened on this
 * device, whose reports the encrypted offline copy still holds (issue 18), each with when it was fetched.
 */
export function OpenedHere({ onOpen }: { onOpen: (hospNo: string) => void }) {
  const { i18n } = useLingui();
  const [opened, setOpened] = useState<Opened[] | undefined>();
  useEffect(() => {
    let live = true;
    void import('../../lib/db/staff-cache.ts')
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
  return (
    <div className="opened-here" data-testid="opened-here">
      <h3>
        <Trans>Opened on this device</Trans>
      </h3>
      {opened.length === 0 ? (
        <p className="muted">
          <Trans>No patient has been opened on this device yet, so none can be shown offline.</Trans>
        </p>
      ) : (
        <ul className="opened-here-list">
          {opened.map((p) => (
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
