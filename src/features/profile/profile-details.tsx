import { Trans, useLingui } from '@lingui/react/macro';
import './profile.css';
import type { ProfileDoc } from '../../../sync/storage/collections.ts';
import { useGenderLabel } from '../../lib/gender.ts';

/** The hospital's record of the patient: shown, never edited here (sync never pushes these fields). */
export function ProfileDetails({ profile }: { profile: Pick<ProfileDoc, 'name' | 'gender' | 'age' | 'address' | 'hospital' | 'hospNum'> }) {
  const { t, i18n } = useLingui();
  const notRecorded = t`Not recorded`;
  const genderLabel = useGenderLabel();
  const gender = profile.gender ? genderLabel(profile.gender) : notRecorded;
  const rows: Array<[string, string]> = [
    [t`Name`, profile.name || notRecorded],
    [t`Gender`, gender],
    [t`Age`, typeof profile.age === 'number' ? new Intl.NumberFormat(i18n.locale).format(profile.age) : notRecorded],
    [t`Address`, profile.address || notRecorded],
    [t`Hospital`, profile.hospital || notRecorded],
    [t`Hospital number`, profile.hospNum],
  ];
  return (
    <section className="card" aria-labelledby="profile-details-title">
      <h2 id="profile-details-title">
        <Trans>Your details</Trans>
      </h2>
      <dl className="profile-details">
        {rows.map(([label, value]) => (
          <div key={label} className="profile-detail">
            <dt>{label}</dt>
            <dd>
              {/* As recorded, in its own direction: "12 Elm Street" read "Elm Street 12" on an Arabic page. */}
              <bdi>{value}</bdi>
            </dd>
          </div>
        ))}
      </dl>
      <p className="field-hint">
        <Trans>Ask your hospital to correct these details.</Trans>
      </p>
    </section>
  );
}
