// The hospital settings form's rules, the server's own (schemas/admin.ts hospitalInputSchema): the
// form says what is wrong before sending, in words, and sends what the server stores.
import { CARE_CONTACT_MAX, defaultIdentifierSystem, IDENTIFIER_SYSTEM_MAX, IDENTIFIER_SYSTEM_PATTERN, URGENT_HIGH_LEVEL } from '../../../schemas/admin.ts';

/** The form's fields as typed. */
export interface HospitalSettingsFields {
  urgentHighMgDl: string;
  careContact: string;
  /** Empty: the default (the hospital's own id as a URN). */
  identifierSystem: string;
}

/** What the server answers for a hospital (lib/staff-api.ts). */
export interface HospitalSettingsOf {
  _id: string;
  urgentHighMgDl: number;
  careContact: string | null;
  identifierSystem: string;
}

export type HospitalSettingsProblem = 'urgentNotNumber' | 'urgentOutOfRange' | 'contactTooLong' | 'identifierSystemNotUri';

const URI = new RegExp(IDENTIFIER_SYSTEM_PATTERN);

/** The fields of a hospital as the form starts: its default identifier system shown as empty. */
export function fieldsOf(h: HospitalSettingsOf): HospitalSettingsFields {
  return {
    urgentHighMgDl: String(h.urgentHighMgDl),
    careContact: h.careContact ?? '',
    identifierSystem: h.identifierSystem === defaultIdentifierSystem(h._id) ? '' : h.identifierSystem,
  };
}

/** What is wrong with each field, if anything. */
export function settingsProblems(f: HospitalSettingsFields): Partial<Record<keyof HospitalSettingsFields, HospitalSettingsProblem>> {
  const out: Partial<Record<keyof HospitalSettingsFields, HospitalSettingsProblem>> = {};
  const level = f.urgentHighMgDl.trim();
  const n = Number(level);
  if (!/^\d+(\.\d+)?$/.test(level) || !Number.isFinite(n)) out.urgentHighMgDl = 'urgentNotNumber';
  else if (n < URGENT_HIGH_LEVEL.min || n > URGENT_HIGH_LEVEL.max) out.urgentHighMgDl = 'urgentOutOfRange';
  if (f.careContact.trim().length > CARE_CONTACT_MAX) out.careContact = 'contactTooLong';
  const system = f.identifierSystem.trim();
  if (system !== '' && (system.length > IDENTIFIER_SYSTEM_MAX || !URI.test(system))) out.identifierSystem = 'identifierSystemNotUri';
  return out;
}

/** The PATCH body of valid fields: an empty text clears its setting (null: none, or the default). */
export function settingsPatch(f: HospitalSettingsFields): { urgentHighMgDl: number; careContact: string | null; identifierSystem: string | null } {
  const contact = f.careContact.trim();
  const system = f.identifierSystem.trim();
  return { urgentHighMgDl: Number(f.urgentHighMgDl.trim()), careContact: contact === '' ? null : contact, identifierSystem: system === '' ? null : system };
}
