// The shapes the staff review reads (server/services/dto.ts, admin/): one bundle per
// patient, fetched together and cached whole for offline review. Written out rather than derived
// from the answers' schemas: they are what the review can show, also from an offline copy an
// older version saved (a dose without its medicine's name, a profile without meal times), and
// fetch-bundle.ts assigns each answer, typed from its schema, to them: an answer that no longer
// fits is a type error there.
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import type { StaffPatient } from '../../lib/staff-api.ts';

export interface ReviewProfile {
  name: string;
  hospNum: string;
  gender?: string | null;
  age?: number | null;
  hospital?: string | null;
  timeZone?: string;
  notificationTimings?: Partial<Record<'breakfast' | 'lunch' | 'dinner', string>> | null;
  glucometerAlerts?: string[] | null;
  lastSyncAt?: string | null;
  /** The patient's hospital's settings (its identifier system for the FHIR export); absent in copies saved before. */
  hospitalSettings?: { identifierSystem: string; urgentHighMgDl: number; careContact: string | null } | null;
}

export interface ReviewGlucose {
  fasting: GlucoseReading[];
  postprandial: GlucoseReading[];
  random: GlucoseReading[];
}

export interface ReviewSymptom {
  _id: string;
  symptom: string;
  recordedAt: string;
}

export interface ReviewLabTest {
  _id: string;
  name: string;
  value: number;
  /** Left out (or null) for a test recorded without a unit. */
  unit?: string | null;
  recordedAt: string;
}

export interface ReviewAppointment {
  _id: string;
  doctor: string;
  date: string;
  notes?: string | null;
}

export interface ReviewPrescription {
  _id: string;
  prescrNo: string;
  name: string;
  dose: string;
  startDate?: string | null;
  endDate?: string | null;
  active: boolean;
}

export interface ReviewDose {
  _id: string;
  prescrNo: string;
  medicineName?: string;
  takenAt: string;
}

/** A type, not an interface: the offline copy stores it as a plain JSON object (sync/storage/staff-cache.ts). */
export type ReviewBundle = {
  hospNo: string;
  profile: ReviewProfile;
  glucose: ReviewGlucose;
  symptoms: ReviewSymptom[];
  tests: ReviewLabTest[];
  appointments: ReviewAppointment[];
  prescriptions: ReviewPrescription[];
  doses: ReviewDose[];
  /** The patient's device's last contact with the server (ISO), or null if never. */
  lastSyncAt: string | null;
  /** The patient's record as admins edit it (absent in copies saved before issue 46). */
  patient?: StaffPatient;
  /** The patient's version this copy reflects (absent in copies saved before issue 46: those are fetched whole). */
  version?: number;
  /** When the server read it (ISO). */
  asOf?: string;
};
