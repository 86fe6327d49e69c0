// The patient's details as both the create and the edit form show them, with their checks.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import type { StaffHospital } from '../../../sync/staff-session.ts';
import { plainText } from '../../../schemas/common.ts';

export interface PatientValues {
  name: string;
  gender: string;
  age: string;
  address: string;
  hospitalId: string;
}

export type PatientErrors = Partial<Record<keyof PatientValues, string>>;

/** Gender values as the hospital records hold them; the stored word is English, the label is translated. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- the values the API stores; each is worded by genderLabel below
const GENDERS = ['Female', 'Male', 'Other'] as const;

export function usePatientChecks() {
  const { t } = useLingui();
  return (v: PatientValues): PatientErrors => {
    const errors: PatientErrors = {};
    if (!v.name.trim()) errors.name = t`Enter the patient's name.`;
    const age = v.age.trim();
    if (age && (!/^\d{1,3}$/.test(age) || Number(age) > 130)) errors.age = t`Age must be a whole number from 0 to 130.`;
    if (v.address.length > 300) errors.address = t`The address can have at most 300 characters.`;
    if (!v.hospitalId) errors.hospitalId = t`Choose the patient's hospital.`;
    return errors;
  };
}

/** The body fields the server expects: empty optional fields are sent as null (cleared). */
export function patientBody(v: PatientValues) {
  return {
    name: v.name.trim(),
    gender: v.gender || null,
    age: v.age.trim() ? Number(v.age.trim()) : null,
    address: v.address.trim() || null,
    hospitalId: v.hospitalId,
  };
}

export interface PatientFieldsProps {
  values: PatientValues;
  errors: PatientErrors;
  hospitals: readonly StaffHospital[];
  onChange: (patch: Partial<PatientValues>) => void;
}

export function PatientFields({ values, errors, hospitals, onChange }: PatientFieldsProps) {
  const { t } = useLingui();
  const id = useId();
  const genderLabel: Record<(typeof GENDERS)[number], string> = { Female: t`Female`, Male: t`Male`, Other: t`Other` };
  const known = (GENDERS as readonly string[]).includes(values.gender) || values.gender === '';
  const field = (key: keyof PatientValues) => ({
    id: `${id}-${key}`,
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': errors[key] ? `${id}-${key}-error` : undefined,
  });
  const error = (key: keyof PatientValues) =>
    errors[key] && (
      <p id={`${id}-${key}-error`} className="error-text">
        {errors[key]}
      </p>
    );
  return (
    <div className="sm-grid">
      <div className={errors.name ? 'field field--error' : 'field'}>
        <label htmlFor={`${id}-name`}>
          <Trans>Name</Trans>
        </label>
        <input {...field('name')} name="name" autoComplete="off" value={values.name} onChange={(e) => onChange({ name: plainText(e.target.value) })} />
        {error('name')}
      </div>
      <div className={errors.hospitalId ? 'field field--error' : 'field'}>
        <label htmlFor={`${id}-hospitalId`}>
          <Trans>Hospital</Trans>
        </label>
        <select {...field('hospitalId')} name="hospitalId" value={values.hospitalId} onChange={(e) => onChange({ hospitalId: e.target.value })}>
          <option value="">{t`Choose a hospital`}</option>
          {hospitals.map((h) => (
            <option key={h._id} value={h._id}>
              {h.name}
            </option>
          ))}
        </select>
        {error('hospitalId')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-gender`}>
          <Trans>Gender</Trans>
        </label>
        <select {...field('gender')} name="gender" value={values.gender} onChange={(e) => onChange({ gender: e.target.value })}>
          <option value="">{t`Not recorded`}</option>
          {GENDERS.map((g) => (
            <option key={g} value={g}>
              {genderLabel[g]}
            </option>
          ))}
          {!known && <option value={values.gender}>{values.gender}</option>}
        </select>
      </div>
      <div className={errors.age ? 'field field--error' : 'field'}>
        <label htmlFor={`${id}-age`}>
          <Trans>Age</Trans>
        </label>
        <input {...field('age')} name="age" inputMode="numeric" autoComplete="off" value={values.age} onChange={(e) => onChange({ age: e.target.value })} />
        {error('age')}
      </div>
      <div className={errors.address ? 'field field--error sm-wide' : 'field sm-wide'}>
        <label htmlFor={`${id}-address`}>
          <Trans>Address</Trans>
        </label>
        <input
          {...field('address')}
          name="address"
          autoComplete="off"
          value={values.address}
          onChange={(e) => onChange({ address: plainText(e.target.value) })}
        />
        {error('address')}
      </div>
    </div>
  );
}
