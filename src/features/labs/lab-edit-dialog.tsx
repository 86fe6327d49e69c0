// Changing a result in a modal <dialog>: the browser traps focus, Escape cancels and focus returns
// to the edit button that opened it.
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import type { LabTest } from '../../../schemas/lab-test.ts';
import { LabTestForm, type LabReference, type LabTestInput } from './lab-test-form.tsx';

export function LabEditDialog({
  test,
  references,
  onSave,
  onClose,
}: {
  test: LabTest | undefined;
  references: readonly LabReference[];
  onSave: (test: LabTest, input: LabTestInput) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const ref = useRef<HTMLDialogElement>(null);
  const name = test?.name ?? '';
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (test && !dialog.open) dialog.showModal();
    if (!test && dialog.open) dialog.close();
  }, [test]);
  return (
    <dialog ref={ref} className="dialog lab-dialog" aria-label={t`Change result: ${name}`} onCancel={(e) => (e.preventDefault(), onClose())}>
      {test && (
        <LabTestForm
          key={test._id}
          references={references}
          initial={test}
          title={t`Change result: ${name}`}
          submitLabel={<Trans>Save changes</Trans>}
          onSubmit={(input) => onSave(test, input)}
          onCancel={onClose}
        />
      )}
    </dialog>
  );
}
