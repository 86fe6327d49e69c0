import { useLingui } from '@lingui/react/macro';
import { useGenderLabel } from '../../lib/gender.ts';
import type { ReviewBundle } from './types.ts';

/**
 * Whose data the review shows (issue 16): the name and hospital number, with age and gender where
 * known, above everything else and kept in view while the long review scrolls, online or from the
 * offline copy alike. Hospitals identify a patient by two identifiers on every view.
 */
export function PatientBanner({ bundle }: { bundle: ReviewBundle }) {
  const { t } = useLingui();
  const p = bundle.profile;
  const genderLabel = useGenderLabel();
  const facts: [string, string][] = [
    [t`Hospital number`, p.hospNum || bundle.hospNo],
    ...(p.age !== null && p.age !== undefined ? [[t`Age`, String(p.age)] satisfies [string, string]] : []),
    ...(p.gender ? [[t`Gender`, genderLabel(p.gender)] satisfies [string, string]] : []),
  ];
  return (
    <div className="patient-banner" role="region" aria-label={t`Patient`} data-testid="patient-banner">
      <strong className="patient-banner-name">{p.name}</strong>
      {facts.map(([label, value]) => (
        <span key={label} className="patient-banner-fact">
          {label} <bdi>{value}</bdi>
        </span>
      ))}
    </div>
  );
}
