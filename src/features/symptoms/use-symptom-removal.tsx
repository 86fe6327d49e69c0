// Removing a report: asked first, then undoable from the notice, which reports the same symptom at
// the same time again.
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import type { RxCollection } from 'rxdb';
import type { Symptom } from '../../../schemas/symptom.ts';
import { inBackground } from '../../../sync/background.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { copyForUndo } from '../../../sync/storage/copy.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';
import { useClock } from '../../lib/clock.tsx';
import { removeRecord } from '../../../sync/storage/remove.ts';

export function useSymptomRemoval(collection: RxCollection<Symptom> | undefined): { ask: (report: Symptom) => void; dialog: ReactNode } {
  const { t } = useLingui();
  const clock = useClock();
  const runtime = useRuntime();
  const [pending, setPending] = useState<Symptom | undefined>();

  async function remove(report: Symptom) {
    setPending(undefined);
    if (!collection) return;
    try {
      // Already gone (e.g. removed on another device and pulled meanwhile): nothing to do.
      if (!(await removeRecord(collection, report._id))) return;
    } catch {
      runtime.notify({ type: 'error', text: t`The report could not be removed. Please try again.` });
      return;
    }
    runtime.notify({
      type: 'success',
      text: t`Symptom removed successfully`,
      action: {
        label: t`Undo`,
        run: () => inBackground(collection.insert(copyForUndo(report)), 'Restoring the removed symptom report failed'),
      },
    });
  }

  const when = pending ? clock.dateTime.format(pending.recordedAt) : '';
  const symptom = pending?.symptom ?? '';
  const dialog = (
    <ConfirmDialog
      open={pending !== undefined}
      title={<Trans>Remove this report?</Trans>}
      confirmLabel={<Trans>Remove</Trans>}
      danger
      onCancel={() => setPending(undefined)}
      onConfirm={() => {
        if (pending) inBackground(remove(pending), 'Removing the symptom report failed');
      }}
    >
      <p>
        <Trans>
          {symptom}, reported {when}
        </Trans>
      </p>
    </ConfirmDialog>
  );
  return { ask: setPending, dialog };
}
