import { Trans } from '@lingui/react/macro';
import { Icon } from './icon.tsx';

/** "Open report", named for the patient for screen readers: the way into a report from every staff list. */
export function OpenReportButton({
  patient,
  className = 'users-open',
  onOpen,
}: {
  patient: { hospNo: string; name: string };
  className?: string;
  onOpen: (hospNo: string) => void;
}) {
  const patientName = patient.name;
  return (
    <button type="button" className={`button button--small ${className}`} onClick={() => onOpen(patient.hospNo)}>
      <Icon icon="mdi:file-chart" />{' '}
      <Trans>
        Open report<span className="visually-hidden"> for {patientName}</span>
      </Trans>
    </button>
  );
}
