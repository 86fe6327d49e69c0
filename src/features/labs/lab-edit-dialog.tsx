// Changing a result in the shared modal dialog, with the same form as adding one.
import { Trans, useLingui } from '@lingui/react/macro';
import type { LabTest } from '../../../schemas/lab-test.ts';
import { Modal } from '../../components/confirm-dialog.tsx';
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
  const name = test?.name ?? '';
  return (
    <Modal open={test !== undefined} title={t`Change result: ${name}`} onClose={onClose}>
      {test && (
        <LabTestForm
          key={test._id}
          references={references}
          initial={test}
          submitLabel={<Trans>Save changes</Trans>}
          onSubmit={(input) => onSave(test, input)}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}
