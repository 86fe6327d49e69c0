import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { log } from '../../../sync/log.ts';
import { discardRefused, keepMine, refusedRecords, retryRefused, type RefusedRecord } from '../../../sync/refusals.ts';
import { Modal } from '../../components/confirm-dialog.tsx';
import { Icon } from '../../components/icon.tsx';
import { useClock } from '../../lib/clock.tsx';
import { useRuntime, useSyncStatus } from '../../lib/runtime-context.tsx';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';
import { describeRecord, kindLabel } from './describe-write.ts';
import './sync-issues.css';

/**
 * Writes the server refused (docs/sync-protocol.md): "2 entries were not accepted", with each one's
 * reason and what the patient can do. Nothing refused is dropped silently: it stays here, sealed on
 * the device, until the patient keeps, retries or discards it.
 */
export function RefusedNotice() {
  const { refused, stuck } = useSyncStatus();
  const [open, setOpen] = useState(false);
  if (refused === 0 && stuck === 0) return null;
  return (
    <div className="sync-issues" role="alert" data-testid="refused-notice">
      <Icon icon="mdi:alert-circle-outline" />
      <p>
        {refused > 0 && (
          <Plural value={refused} one="# entry was not accepted by your hospital's server." other="# entries were not accepted by your hospital's server." />
        )}{' '}
        {stuck > 0 && (
          <Plural
            value={stuck}
            one="# entry could not be sent yet: the server keeps failing on it. It is tried again regularly and is not lost."
            other="# entries could not be sent yet: the server keeps failing on them. They are tried again regularly and are not lost."
          />
        )}
      </p>
      {refused > 0 && (
        <button type="button" className="button button--small" onClick={() => setOpen(true)}>
          <Trans>Review</Trans>
        </button>
      )}
      <RefusedDialog open={open} onClose={() => setOpen(false)} />
    </div>
  );
}

function RefusedDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { refused } = useSyncStatus();
  const [records, setRecords] = useState<RefusedRecord[] | undefined>();
  useEffect(() => {
    if (!open) return;
    let live = true;
    inBackground(
      refusedRecords().then((r) => live && setRecords(r)),
      'Listing the refused entries failed',
    );
    return () => {
      live = false;
    };
  }, [open, refused]);
  useEffect(() => {
    if (open && refused === 0) onClose();
  }, [open, refused, onClose]);
  return (
    <Modal open={open} title={<Trans>Entries not accepted</Trans>} onClose={onClose}>
      <p>
        <Trans>These entries are kept on this device until you decide. Your hospital's record does not contain them.</Trans>
      </p>
      <ul className="refused-list">
        {records?.map((r) => (
          <RefusedItem key={r.key} record={r} />
        ))}
      </ul>
      <div className="dialog-actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          <Trans>Close</Trans>
        </button>
      </div>
    </Modal>
  );
}

function RefusedItem({ record }: { record: RefusedRecord }) {
  const { i18n, t } = useLingui();
  const runtime = useRuntime();
  const unit = useGlucoseUnit();
  const clock = useClock();
  const [busy, setBusy] = useState(false);
  const { refusal } = record;
  const op = refusal.op;
  const current = refusal.current;
  const act = (fn: (key: string) => Promise<void>) => async () => {
    setBusy(true);
    try {
      await fn(record.key);
      inBackground(runtime.syncNow({ announce: false }), 'sync failed');
    } catch (err) {
      // The entry stays in the list as it was; the patient can try again.
      log.error('refused entry not resolved', err);
      runtime.notify({ type: 'error', text: t`Something went wrong. Please try again.` });
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="refused-item" data-testid="refused-item">
      <p>
        <strong>{kindLabel(i18n, op)}:</strong> {describeRecord(i18n, op.collection, op.body, unit, clock.dateTime)}
      </p>
      <p className="error-text">{refusal.message || <Trans>The server did not accept this entry.</Trans>}</p>
      {refusal.status === 409 && (
        <p>
          {current && typeof current === 'object' ? (
            <Trans>Now on the server: {{ serverValue: describeRecord(i18n, op.collection, current as Record<string, unknown>, unit, clock.dateTime) }}</Trans>
          ) : (
            <Trans>It has been removed on the server.</Trans>
          )}
        </p>
      )}
      {record.held.length > 0 && (
        <p className="field-hint">
          <Plural value={{ count: record.held.length }} one="# later change of this entry waits with it." other="# later changes of this entry wait with it." />
        </p>
      )}
      <div className="refused-actions">
        {record.canKeepMine && (
          <button type="button" className="button button--small" disabled={busy} onClick={() => inBackground(act(keepMine)(), 'refused entry not resolved')}>
            <Trans>Keep mine</Trans>
          </button>
        )}
        {refusal.status !== 409 && (
          <button
            type="button"
            className="button button--small button--secondary"
            disabled={busy}
            onClick={() => inBackground(act(retryRefused)(), 'refused entry not resolved')}
          >
            <Trans>Send again</Trans>
          </button>
        )}
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={busy}
          onClick={() => inBackground(act(discardRefused)(), 'refused entry not resolved')}
        >
          {refusal.status === 409 ? <Trans>Use the server's</Trans> : <Trans>Discard mine</Trans>}
        </button>
      </div>
    </li>
  );
}
