import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import { Modal } from '../../components/confirm-dialog.tsx';
import { Icon } from '../../components/icon.tsx';
import { useClock } from '../../lib/clock.tsx';
import { formatGlucose } from '../../../schemas/glucose-units.ts';
import { loader } from '../../lib/ui/loader-store.ts';
import { secureStorage } from '../../../sync/storage/secure-storage.ts';
import { inBackground } from '../../../sync/background.ts';
import { log } from '../../../sync/log.ts';
import { GLUCOSE_TYPE_LABELS } from '../../lib/glucose-types.ts';
import type { EddyCollections } from '../../../sync/storage/database.ts';
import {
  fetchRecords,
  MeterError,
  meterInstant,
  planImport,
  readingIdOf,
  type FetchedRecords,
  type ImportPlan,
  type MeterFailure,
  type SkipReason,
} from './meter-import.ts';
import { bluetoothMissing, connectMeter, type ConnectedMeter } from './web-bluetooth.ts';
import './meter-import.css';
import { DateTimeField } from '../../components/date-time-field.tsx';

/** What the device remembers of each meter: the last record imported, to ask only for newer ones. */
interface MeterRecord {
  lastSequence: number;
}
const meterKey = (id: string) => `meter:${id}`;

type Step =
  | { kind: 'idle' }
  | { kind: 'review'; meter: Pick<ConnectedMeter, 'id' | 'name' | 'clock'>; records: FetchedRecords; ids: Map<number, string>; imported: Set<number> }
  | { kind: 'done'; imported: number; skipped: number }
  | { kind: 'error'; text: string };

const MINUTE = 60_000;

/** How far ahead of `now` a clock showing `shown` ("HH:MM") is, taking the nearest day. */
function aheadOf(shown: string, now: Date): number | undefined {
  const m = /^(\d{2}):(\d{2})$/.exec(shown);
  if (!m) return undefined;
  const at = new Date(now);
  at.setHours(Number(m[1]), Number(m[2]), now.getSeconds(), now.getMilliseconds());
  let diff = at.getTime() - now.getTime();
  if (diff > 12 * 60 * MINUTE) diff -= 24 * 60 * MINUTE;
  if (diff < -12 * 60 * MINUTE) diff += 24 * 60 * MINUTE;
  return Math.round(diff / MINUTE) * MINUTE;
}

/**
 * "Import from meter" (issue 19): the records of a Bluetooth glucometer become readings on this
 * device, offline too (they sync like typed ones), each once however often the meter is imported.
 */
export function MeterImport({ collection }: { collection: () => Promise<EddyCollections['glucose']> }) {
  const { t, i18n } = useLingui();
  const clock = useClock();
  const missing = bluetoothMissing();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [open, setOpen] = useState(false);
  const [correctClock, setCorrectClock] = useState(true);
  const [shownTime, setShownTime] = useState('');
  const [fasting, setFasting] = useState(false);

  const review = step.kind === 'review' ? step : undefined;
  const meterAhead = review?.meter.clock
    ? Math.round((meterInstant(review.meter.clock.meter, 0).getTime() - review.meter.clock.readAt.getTime()) / MINUTE) * MINUTE
    : undefined;
  const clockAheadMs = meterAhead !== undefined ? (correctClock ? meterAhead : 0) : (aheadOf(shownTime, new Date()) ?? 0);
  const plan: ImportPlan | undefined = useMemo(
    () => (review ? planImport(review.records, { now: new Date(), clockAheadMs, preprandialIsFasting: fasting, imported: review.imported }) : undefined),
    [review, clockAheadMs, fasting],
  );

  async function start() {
    setOpen(true);
    setStep({ kind: 'idle' });
    setShownTime('');
    setFasting(false);
    const id = loader.show({ loadingText: t`Connecting to the meter…`, subText: t`Choose your meter in the list the browser shows.` });
    let meter: ConnectedMeter | undefined;
    try {
      meter = await connectMeter();
      const saved = await secureStorage.get<MeterRecord>('user', meterKey(meter.id)).catch(() => undefined);
      loader.update(id, { loadingText: t`Reading the meter’s records…`, subText: t`Keep the meter close to this device.`, showProgress: false });
      const records = await fetchRecords(meter.service, {
        ...(saved ? { from: saved.lastSequence + 1 } : {}),
        onRecord: (n) => loader.update(id, { subText: t`Records received: ${n}` }),
      });
      // A record whose reading is on this device already (an earlier import here or on another device) is not added again.
      const ids = new Map(await Promise.all(records.measurements.map(async (m) => [m.sequence, await readingIdOf(meter?.id ?? '', m.sequence)] as const)));
      const present = await (await collection()).findByIds([...ids.values()]).exec();
      const imported = new Set([...ids].filter(([, docId]) => present.has(docId)).map(([seq]) => seq));
      setCorrectClock(true);
      setStep({ kind: 'review', meter: { id: meter.id, name: meter.name, clock: meter.clock }, records, ids, imported });
    } catch (err) {
      const name = (err as { name?: string } | null)?.name;
      // The chooser closed without a meter: nothing to say. (Bluetooth off is a NotFoundError too.)
      if (name === 'NotFoundError' && !meter && /cancel/i.test(err instanceof Error ? err.message : '')) setOpen(false);
      else setStep({ kind: 'error', text: err instanceof MeterError ? failureText(err.failure) : err instanceof Error ? err.message : String(err) });
    } finally {
      meter?.disconnect();
      loader.hide(id);
    }
  }

  async function save() {
    if (!review || !plan) return;
    const docs = plan.readings.map((r) => ({
      _id: review.ids.get(r.sequence) ?? '',
      type: r.type,
      value: r.value,
      unit: r.unit,
      enteredValue: r.enteredValue,
      recordedAt: r.recordedAt.toISOString(),
      utcOffsetMinutes: r.utcOffsetMinutes,
    }));
    const result = await collection()
      .then((c) => c.bulkInsert(docs))
      .catch((err: unknown) => log.error('Saving the meter readings failed', err));
    if (!result) {
      // The device's database could not take them at all (storage full, closed): nothing was saved.
      setStep({ kind: 'error', text: t`The readings could not be saved on this device. Please try again.` });
      return;
    }
    // A conflict is a reading already there (imported meanwhile): not an error.
    const failed = result.error.filter((e) => e.status !== 409);
    if (failed.length > 0) {
      setStep({ kind: 'error', text: t`Readings that could not be saved on this device: ${{ count: failed.length }}.` });
      return;
    }
    if (plan.lastSequence !== undefined) await secureStorage.set('user', meterKey(review.meter.id), { lastSequence: plan.lastSequence } satisfies MeterRecord);
    setStep({ kind: 'done', imported: result.success.length, skipped: plan.skipped.length });
  }

  function failureText(f: MeterFailure): string {
    if (f.kind === 'silent') return t`The meter stopped answering.`;
    const result = f.result;
    return t`The meter refused to send its records (${result}).`;
  }

  const when = clock.dateTime;
  const minutes = (ms: number) => i18n.number(Math.abs(ms) / MINUTE);
  const reasonText = (r: SkipReason): string => {
    switch (r.kind) {
      case 'control-solution':
        return t`control solution test`;
      case 'meter-error':
        return t`the meter reported an error (strip, sample or device)`;
      case 'hi':
        return t`HI: above what the meter can measure; not stored as a number`;
      case 'lo':
        return t`LO: below what the meter can measure; not stored as a number`;
      case 'no-value':
        return t`no value`;
      case 'out-of-range':
        return t`${{ value: i18n.number(r.value) }} ${{ unit: r.unit }}: outside 20–600 mg/dL`;
      case 'time-unknown':
        return t`the meter’s clock was not set`;
      case 'future':
        return t`dated in the future: check the meter’s clock`;
      case 'already-imported':
        return t`imported before`;
    }
  };
  const anyPreprandial = plan?.readings.some((r) => r.preprandial) === true;

  return (
    <section className="card meter-import" aria-labelledby="meter-import-title">
      <h2 id="meter-import-title">
        <Icon icon="mdi:bluetooth" /> <Trans>Import from meter</Trans>
      </h2>
      {missing ? (
        <p className="meter-import-missing">{i18n._(missing)}</p>
      ) : (
        <>
          <p>
            <Trans>Readings from a Bluetooth glucometer, with their own times and meal tags, without typing.</Trans>
          </p>
          <button type="button" className="button" onClick={() => inBackground(start(), 'Reading the meter failed')}>
            <Trans>Import from meter</Trans>
          </button>
        </>
      )}
      <Modal open={open && step.kind !== 'idle'} title={t`Import from meter`} onClose={() => setOpen(false)}>
        {step.kind === 'error' && (
          <p className="error-text" role="alert">
            <Trans>The meter could not be read: {{ reason: step.text }}</Trans>
          </p>
        )}
        {step.kind === 'done' && (
          <p role="status">
            <Trans>
              Imported: {{ imported: step.imported }}. Not imported: {{ skipped: step.skipped }}. The readings are on this device now and are sent when it is
              online.
            </Trans>
          </p>
        )}
        {review && plan && (
          <div className="meter-review">
            <p>
              {review.meter.name ?? t`Glucose meter`}: <Trans>new records: {{ count: review.records.measurements.length }}</Trans>
            </p>
            {meterAhead !== undefined ? (
              Math.abs(meterAhead) >= 2 * MINUTE ? (
                <label className="checkbox">
                  <input type="checkbox" checked={correctClock} onChange={(e) => setCorrectClock(e.target.checked)} />
                  {meterAhead > 0 ? (
                    <Trans>The meter’s clock is {{ minutes: minutes(meterAhead) }} minutes ahead: correct the times by that</Trans>
                  ) : (
                    <Trans>The meter’s clock is {{ minutes: minutes(meterAhead) }} minutes behind: correct the times by that</Trans>
                  )}
                </label>
              ) : (
                <p>
                  <Trans>The meter’s clock is right.</Trans>
                </p>
              )
            ) : (
              <div className="field">
                <DateTimeField
                  kind="time"
                  label={<Trans>If the meter’s clock is wrong, the time it shows now</Trans>}
                  value={shownTime}
                  onChange={setShownTime}
                />
              </div>
            )}
            {anyPreprandial && (
              <label className="checkbox">
                <input type="checkbox" checked={fasting} onChange={(e) => setFasting(e.target.checked)} />
                <Trans>The readings the meter marked “before a meal” were taken fasting (otherwise they are saved as Random)</Trans>
              </label>
            )}
            {plan.readings.length > 0 && (
              <div className="meter-table-wrap">
                <table className="meter-table">
                  <caption>
                    <Trans>To import: {{ count: plan.readings.length }}</Trans>
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">
                        <Trans>Measured</Trans>
                      </th>
                      <th scope="col">
                        <Trans>Value</Trans>
                      </th>
                      <th scope="col">
                        <Trans>Type</Trans>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {plan.readings.map((r) => (
                      <tr key={r.sequence}>
                        <td>{when.format(r.recordedAt, r.utcOffsetMinutes)}</td>
                        <td>
                          {formatGlucose({ value: r.value, unit: r.unit, enteredValue: r.enteredValue }, r.unit, i18n.locale)} {r.unit}
                        </td>
                        <td>{i18n._(GLUCOSE_TYPE_LABELS[r.type])}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {plan.skipped.length > 0 && (
              <details className="meter-skipped" open={plan.readings.length === 0}>
                <summary>
                  <Trans>Not imported: {{ count: plan.skipped.length }}</Trans>
                </summary>
                <ul>
                  {plan.skipped.map((s) => (
                    <li key={s.sequence} className={s.reason.kind === 'lo' ? 'meter-skipped-lo' : undefined}>
                      {s.at ? `${when.format(s.at)}: ` : ''}
                      {reasonText(s.reason)}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </div>
        )}
        <div className="dialog-actions">
          {review && plan && plan.readings.length > 0 && (
            <button type="button" className="button" onClick={() => inBackground(save(), 'Saving the meter readings failed')}>
              <Trans>Import the readings ({{ count: plan.readings.length }})</Trans>
            </button>
          )}
          <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
            {step.kind === 'done' || step.kind === 'error' ? <Trans>Close</Trans> : <Trans>Cancel</Trans>}
          </button>
        </div>
      </Modal>
    </section>
  );
}
