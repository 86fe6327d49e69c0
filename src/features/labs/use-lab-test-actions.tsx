// Writes of the lab tests screen, all on the local collection (the replication sends them): add,
// change in a dialog, and delete after asking, undoable from the notice.
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import type { RxCollection } from 'rxdb';
import type { LabTest } from '../../../schemas/lab-test.ts';
import { withLabUnit } from '../../../schemas/lab-unit-text.ts';
import { uuidv7 } from '../../../sync/ids.ts';
import { inBackground } from '../../../sync/background.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { copyForUndo } from '../../../sync/storage/copy.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';
import { LabEditDialog } from './lab-edit-dialog.tsx';
import type { LabReference, LabTestInput } from './lab-test-form.tsx';
import { removeRecord } from '../../../sync/storage/remove.ts';

export function useLabTestActions(collection: RxCollection<LabTest> | undefined, references: readonly LabReference[]) {
  const { t, i18n } = useLingui();
  const runtime = useRuntime();
  const [editing, setEditing] = useState<LabTest | undefined>();
  const [deleting, setDeleting] = useState<LabTest | undefined>();

  async function add(input: LabTestInput): Promise<void> {
    if (!collection) throw new Error('the local database is not open');
    await collection.insert({ _id: uuidv7(), name: input.name, value: input.value, recordedAt: input.recordedAt, ...(input.unit ? { unit: input.unit } : {}) });
    runtime.notifySaved(t`Lab test reported successfully`);
  }

  async function update(test: LabTest, input: LabTestInput): Promise<void> {
    const doc = await collection?.findOne(test._id).exec();
    if (!doc) throw new Error('the result is no longer on this device');
    await doc.incrementalPatch({ name: input.name, value: input.value, unit: input.unit ?? null, recordedAt: input.recordedAt });
    setEditing(undefined);
    runtime.notifySaved(t`Lab test updated successfully`);
  }

  async function remove(test: LabTest): Promise<void> {
    setDeleting(undefined);
    try {
      if (!collection || !(await removeRecord(collection, test._id))) return;
    } catch {
      runtime.notify({ type: 'error', text: t`The result could not be deleted. Please try again.` });
      return;
    }
    runtime.notify({
      type: 'success',
      text: t`Lab test deleted successfully`,
      action: { label: t`Undo`, run: () => inBackground(collection.insert(copyForUndo(test)), 'Restoring the deleted lab result failed') },
    });
  }

  const name = deleting?.name ?? '';
  const date = deleting ? i18n.date(new Date(deleting.recordedAt), { dateStyle: 'medium' }) : '';
  const value = deleting ? withLabUnit(i18n.number(deleting.value, { maximumFractionDigits: 3 }), deleting.unit) : '';
  const dialogs: ReactNode = (
    <>
      <LabEditDialog test={editing} references={references} onSave={update} onClose={() => setEditing(undefined)} />
      <ConfirmDialog
        open={deleting !== undefined}
        title={<Trans>Delete this result?</Trans>}
        confirmLabel={<Trans>Delete</Trans>}
        danger
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => {
          if (deleting) inBackground(remove(deleting), 'Deleting the lab result failed');
        }}
      >
        <p>
          <Trans>
            {name}: {value} on {date}
          </Trans>
        </p>
      </ConfirmDialog>
    </>
  );
  return { add, onEdit: setEditing, onDelete: setDeleting, dialogs };
}
