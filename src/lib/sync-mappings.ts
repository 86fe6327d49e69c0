// Every collection's REST mapping, in one chunk that loads after login with the replication.
export { appointmentMapping } from '../../sync/appointment-sync.ts';
export { glucoseMapping } from '../../sync/glucose-sync.ts';
export { labTestMapping } from '../../sync/lab-test-sync.ts';
export { medicineMapping } from '../../sync/medicine-sync.ts';
export { profileMapping } from '../../sync/profile-sync.ts';
export { labTestReferenceMapping, symptomReferenceMapping } from '../../sync/reference-sync.ts';
export { symptomMapping } from '../../sync/symptom-sync.ts';
export { medicineIntakeMapping } from '../../sync/medicine-intake-sync.ts';
