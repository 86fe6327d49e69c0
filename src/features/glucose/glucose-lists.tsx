import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { formatGlucose } from '../../../schemas/glucose-units.ts';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { inBackground } from '../../../sync/background.ts';
import { copyForUndo } from '../../../sync/storage/copy.ts';
import { ConfirmDialog, Modal } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Icon } from '../../components/icon.tsx';
import { useClock } from '../../lib/clock.tsx';
import type { ToastOptions } from '../../lib/ui/toast-store.ts';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';
import { GlucoseForm } from './glucose-form.tsx';
import { BandLabel } from './band-label.tsx';
import { classifyGlucose } from './targets.ts';
import { GLUCOSE_TYPES, type GlucoseType } from './units.ts';
import type { GlucoseCollection } from './use-glucose.ts';
import { removeRecord } from '../../../sync/storage/remove.ts';

const FIRST_PAGE = 5;
const PAGE = 20;

/**
 * The three lists by type (docs/requirements.md §3), newest first, each reading editable and removable.
 * `complete` false: `readings` are the newest part of what the lists show (the dashboard reads its
 * first days first), so a list neither says it is empty nor counts what is older yet.
 */
export function GlucoseLists({
  readings,
  complete = true,
  collection,
  notify,
}: {
  readings: GlucoseReading[] | undefined;
  complete?: boolean;
  collection: GlucoseCollection | undefined;
  notify: (o: ToastOptions) => void;
}) {
  const { t } = useLingui();
  const [editing, setEditing] = useState<GlucoseReading | undefined>();
  const [deleting, setDeleting] = useState<GlucoseReading | undefined>();
  const heading: Record<GlucoseType, string> = { Fasting: t`Fasting`, Postprandial: t`Postprandial`, Random: t`Random` };

  async function remove(reading: GlucoseReading) {
    setDeleting(undefined);
    if (collection) await removeRecord(collection, reading._id);
    notify({
      type: 'success',
      text: t`Reading deleted`,
      duration: 8000,
      action: { label: t`Undo`, run: () => inBackground(collection?.insert(copyForUndo(reading)), 'Restoring the deleted reading failed') },
    });
  }

  if (!readings) {
    return (
      <p className="card" role="status">
        <Trans>Loading your readings…</Trans>
      </p>
    );
  }
  return (
    <>
      <div className="glucose-lists">
        {GLUCOSE_TYPES.map((type) => (
          <TypeList
            key={type}
            type={type}
            title={heading[type]}
            readings={readings.filter((r) => r.type === type)}
            complete={complete}
            onEdit={setEditing}
            onDelete={setDeleting}
          />
        ))}
      </div>
      <Modal open={editing !== undefined} title={t`Edit reading`} onClose={() => setEditing(undefined)}>
        {editing && (
          <GlucoseForm
            initial={{ type: editing.type, reading: editing, recordedAt: new Date(editing.recordedAt), utcOffsetMinutes: editing.utcOffsetMinutes }}
            submitLabel={t`Save changes`}
            onCancel={() => setEditing(undefined)}
            onSubmit={async ({ type, reading, recordedAt, utcOffsetMinutes }) => {
              await collection
                ?.findOne(editing._id)
                .incrementalPatch({ type, ...reading, recordedAt: recordedAt.toISOString(), ...(utcOffsetMinutes === undefined ? {} : { utcOffsetMinutes }) });
              setEditing(undefined);
              notify({ type: 'success', text: t`Reading updated` });
            }}
          />
        )}
      </Modal>
      <ConfirmDialog
        open={deleting !== undefined}
        title={t`Delete this reading?`}
        confirmLabel={t`Delete`}
        danger
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => deleting && void remove(deleting)}
      >
        {deleting && <ReadingSummary reading={deleting} />}
      </ConfirmDialog>
    </>
  );
}

function ReadingSummary({ reading }: { reading: GlucoseReading }) {
  const { i18n } = useLingui();
  const unit = useGlucoseUnit();
  const when = useClock().dateTime.format(reading.recordedAt, reading.utcOffsetMinutes);
  return (
    <p>
      <strong>
        {formatGlucose(reading, unit, i18n.locale)} {unit}
      </strong>{' '}
      · {when}
    </p>
  );
}

function TypeList({
  type,
  title,
  readings,
  complete,
  onEdit,
  onDelete,
}: {
  type: GlucoseType;
  title: string;
  readings: GlucoseReading[];
  complete: boolean;
  onEdit: (r: GlucoseReading) => void;
  onDelete: (r: GlucoseReading) => void;
}) {
  const { t, i18n } = useLingui();
  const unit = useGlucoseUnit();
  const [shown, setShown] = useState(FIRST_PAGE);
  const when = useClock().dateTime;
  return (
    // aria-busy: more of the list is still to come (assistive technology waits; so do the tests).
    <section className="card" aria-labelledby={`glucose-${type}`} aria-busy={complete ? undefined : true} data-testid={`glucose-list-${type}`}>
      <h2 id={`glucose-${type}`}>{title}</h2>
      {readings.length === 0 && !complete ? (
        <p className="muted" role="status">
          <Trans>Loading your readings…</Trans>
        </p>
      ) : readings.length === 0 ? (
        <EmptyState icon="mdi:water">
          <Trans>No readings yet. Record one with the form above.</Trans>
        </EmptyState>
      ) : (
        <>
          <ul className="list">
            {readings.slice(0, shown).map((r) => {
              const value = formatGlucose(r, unit, i18n.locale);
              const at = when.format(r.recordedAt, r.utcOffsetMinutes);
              return (
                <li key={r._id}>
                  <div className="list-main">
                    <strong className="reading-value">{value}</strong> <span className="muted">{unit}</span> <BandLabel band={classifyGlucose(r, type, unit)} />
                    <div className="muted">{at}</div>
                  </div>
                  <div className="row-actions">
                    <button type="button" className="icon-button" aria-label={t`Edit reading ${value} ${unit} of ${at}`} onClick={() => onEdit(r)}>
                      <Icon icon="mdi:pencil" />
                    </button>
                    <button
                      type="button"
                      className="icon-button icon-button--danger"
                      aria-label={t`Delete reading ${value} ${unit} of ${at}`}
                      onClick={() => onDelete(r)}
                    >
                      <Icon icon="mdi:delete" />
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
          {complete && readings.length > shown && (
            <button type="button" className="button button--secondary button--small show-more" onClick={() => setShown((n) => n + PAGE)}>
              <Trans>Show more ({{ olderCount: readings.length - shown }} older)</Trans>
            </button>
          )}
        </>
      )}
    </section>
  );
}
