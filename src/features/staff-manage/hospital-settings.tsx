// A hospital's settings that reach its patients' devices and its exported records (README, "Using
// the staff area"): the urgent-high level of the advice after a reading, the care team's contact
// shown in that advice, and the identifier system of its hospital numbers in FHIR exports. Patients
// get a change with their profile at their next sync.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { CARE_CONTACT_MAX, defaultIdentifierSystem, URGENT_HIGH_LEVEL } from '../../../schemas/admin.ts';
import { inBackground } from '../../../sync/background.ts';
import { TextField } from '../../components/text-field.tsx';
import { staffReads, useStaffWrites, type ManagedHospital } from '../../lib/staff-api.ts';
import { toast } from '../../lib/ui/toast-store.ts';
import { formatGlucose } from '../../../schemas/glucose-units.ts';
import { useStaffQuery } from '../../lib/use-staff-query.ts';
import { fieldsOf, settingsPatch, settingsProblems, type HospitalSettingsFields, type HospitalSettingsProblem } from './hospital-settings-rules.ts';
import { failureText } from './staff-api.ts';
import { plainText } from '../../../schemas/common.ts';

export function HospitalSettings() {
  const { t } = useLingui();
  const id = useId();
  const [attempt, setAttempt] = useState(0);
  const result = useStaffQuery(staffReads.hospitals(), undefined, attempt);
  const hospitals = result.status === 'ready' ? result.data.hospitals : result.last?.hospitals;
  const [chosen, setChosen] = useState<string | undefined>();
  const hospital = hospitals?.find((h) => h._id === chosen) ?? hospitals?.[0];
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        <Trans>Hospital settings</Trans>
      </h2>
      <p className="muted">
        <Trans>
          What the advice after a patient’s reading says, and how exported records name the hospital’s numbers. Patients’ devices get a change at their next
          sync.
        </Trans>
      </p>
      {result.status === 'error' && (
        <p className="error-text" role="alert">
          {failureText(result.error, t`The hospitals could not be loaded. Please try again.`)}
        </p>
      )}
      {hospitals && hospitals.length > 1 && (
        <div className="field">
          <label htmlFor={`${id}-hospital`}>
            <Trans>Hospital</Trans>
          </label>
          <select id={`${id}-hospital`} value={hospital?._id ?? ''} onChange={(e) => setChosen(e.target.value)}>
            {hospitals.map((h) => (
              <option key={h._id} value={h._id}>
                {h.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {/* A new answer (after a save) starts the form again from what the server stored. */}
      {hospital && (
        <SettingsForm
          key={`${hospital._id}|${hospital.urgentHighMgDl}|${hospital.careContact ?? ''}|${hospital.identifierSystem}|${String(hospital.requireStaffMfa)}`}
          hospital={hospital}
          onSaved={() => setAttempt((n) => n + 1)}
        />
      )}
    </section>
  );
}

function SettingsForm({ hospital, onSaved }: { hospital: ManagedHospital; onSaved: () => void }) {
  const { t, i18n } = useLingui();
  const staffWrites = useStaffWrites();
  const [fields, setFields] = useState<HospitalSettingsFields>(() => fieldsOf(hospital));
  const [requireStaffMfa, setRequireStaffMfa] = useState(hospital.requireStaffMfa);
  const [problems, setProblems] = useState<Partial<Record<keyof HospitalSettingsFields, HospitalSettingsProblem>>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const set = (name: keyof HospitalSettingsFields) => (value: string) => setFields((f) => ({ ...f, [name]: value }));

  const min = URGENT_HIGH_LEVEL.min;
  const max = URGENT_HIGH_LEVEL.max;
  const fallback = URGENT_HIGH_LEVEL.default;
  const maxChars = CARE_CONTACT_MAX;
  const mmol = (mgdl: number) => formatGlucose(mgdl, 'mmol/L', i18n.locale);
  const problemText: Record<HospitalSettingsProblem, string> = {
    urgentNotNumber: t`Enter the urgent level as a number of mg/dL, from ${min} to ${max}.`,
    urgentOutOfRange: t`The urgent level must be from ${min} to ${max} mg/dL (${{ minMmol: mmol(min) }} to ${{ maxMmol: mmol(max) }} mmol/L).`,
    contactTooLong: t`The contact can be at most ${maxChars} characters long.`,
    identifierSystemNotUri: t`Enter a URI: urn:oid: followed by an OID (urn:oid:2.16.840.1.113883.2.1.4.1), urn:uuid: followed by a UUID, or an address starting with http:// or https://.`,
  };
  const level = Number(fields.urgentHighMgDl.trim());
  const levelOk = fields.urgentHighMgDl.trim() !== '' && Number.isFinite(level);
  const defaultSystem = defaultIdentifierSystem(hospital._id);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = settingsProblems(fields);
    setProblems(found);
    setFailure(undefined);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await staffWrites.updateHospital(hospital._id, { ...settingsPatch(fields), requireStaffMfa });
      toast({ type: 'success', text: t`The settings of ${{ hospital: hospital.name }} were saved.` });
      if (requireStaffMfa && !hospital.requireStaffMfa)
        toast({
          type: 'info',
          text: t`Admins of ${{ hospital: hospital.name }} set up two-step sign-in at their next login; their sessions without it have ended.`,
        });
      onSaved();
    } catch (err) {
      setFailure(failureText(err, t`The settings could not be saved. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      noValidate
      className="sm-subform"
      aria-label={t`Settings of ${{ hospital: hospital.name }}`}
      onSubmit={(e) => inBackground(submit(e), 'Saving the hospital settings failed')}
    >
      <TextField
        label={<Trans>Urgent high level (mg/dL)</Trans>}
        value={fields.urgentHighMgDl}
        onValueChange={set('urgentHighMgDl')}
        inputMode="decimal"
        autoComplete="off"
        error={problems.urgentHighMgDl ? problemText[problems.urgentHighMgDl] : undefined}
        hint={
          <>
            {levelOk && (
              <>
                <Trans>
                  {{ level: i18n.number(level) }} mg/dL is {{ levelMmol: mmol(level) }} mmol/L.
                </Trans>{' '}
              </>
            )}
            <Trans>
              From this reading on, the advice tells the patient to check ketones and contact the care team now. {min} to {max} mg/dL ({{ minMmol: mmol(min) }}{' '}
              to {{ maxMmol: mmol(max) }} mmol/L); {fallback} by default.
            </Trans>
          </>
        }
      />
      <TextField
        label={<Trans>Care team contact</Trans>}
        value={fields.careContact}
        onValueChange={(v) => set('careContact')(plainText(v))}
        autoComplete="off"
        error={problems.careContact ? problemText[problems.careContact] : undefined}
        hint={
          <Trans>
            Shown to patients in the advice after a low or high reading, for example a phone number and when it is answered. At most {maxChars} characters;
            leave it empty for none.
          </Trans>
        }
      />
      <TextField
        label={<Trans>Identifier system of hospital numbers</Trans>}
        value={fields.identifierSystem}
        onValueChange={set('identifierSystem')}
        autoComplete="off"
        spellCheck={false}
        placeholder={defaultSystem}
        error={problems.identifierSystem ? problemText[problems.identifierSystem] : undefined}
        hint={
          <Trans>
            How exported FHIR records name the namespace of this hospital’s numbers: urn:oid:…, urn:uuid:… or an http(s):// address your records system uses.
            Leave it empty for {defaultSystem}.
          </Trans>
        }
      />
      <div className="field">
        <label className="sm-check">
          <input
            type="checkbox"
            name="requireStaffMfa"
            checked={requireStaffMfa}
            onChange={(e) => setRequireStaffMfa(e.target.checked)}
            aria-describedby={`${hospital._id}-mfa-hint`}
          />{' '}
          <Trans>Admins sign in with two steps</Trans>
        </label>
        <p id={`${hospital._id}-mfa-hint`} className="field-hint">
          <Trans>
            Every admin of this hospital signs in with a code from an authenticator app as well as the password, and sets the app up at their next login. Doctor
            links are not affected.
          </Trans>
        </p>
      </div>
      {failure && (
        <p className="error-text" role="alert">
          {failure}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          <Trans>Save settings</Trans>
        </button>
      </div>
    </form>
  );
}
