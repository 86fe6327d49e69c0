// Demo data of docs/requirements.md §10: a hospital group with two hospitals, an admin for both, and two
// patients with 90 days of plausible diabetes data ending now. Deterministic (seeded PRNG) apart
// from being anchored to the current date, so screenshots and tests see the same shapes.
import { createHash } from 'node:crypto';
import { MEAL_SLOTS } from '../../schemas/dose-slot.ts';
import type { Db } from '../db/client.ts';
import { accessKeys, appointments, glucoseReadings, labTests, medicineIntakes, prescriptions, symptoms } from '../db/schema.ts';
import { hashPassword, sha256 } from '../lib/crypto.ts';
import { normaliseAccessKey } from '../lib/access-key.ts';
import { localDate } from '../lib/time.ts';
import { patientRepo } from '../repositories/patients.ts';
import { settingsRepo } from '../repositories/settings.ts';
import { staffRepo } from '../repositories/staff.ts';

export const DEMO = {
  group: 'Demo Hospital Group',
  hospitals: ['City General Hospital', 'Riverside Clinic'],
  admin: { email: 'admin@demo.hospital', password: 'Demo-admin-1', name: 'Demo Admin' },
  patients: [
    {
      hospNo: '100001',
      password: 'Demo-patient-1',
      accessKey: 'DEMO1-10000-1ACCE-SSKEY',
      name: 'Maria Lopez',
      gender: 'Female',
      age: 58,
      address: '12 Elm Street',
      hospital: 0,
      seed: 1,
    },
    {
      hospNo: '100002',
      password: 'Demo-patient-2',
      accessKey: 'DEMO2-10000-2ACCE-SSKEY',
      name: 'James Okafor',
      gender: 'Male',
      age: 64,
      address: '4 River Road',
      hospital: 1,
      seed: 2,
    },
  ],
} as const;

/**
 * The rest of each demo hospital's ward (issue 18): eleven more patients per hospital, staff-only
 * (no password or access key), whose last weeks each show one of the worklist's patterns, so that a
 * fresh `npm start` shows every reason. Hospital numbers avoid the digits "1000" of the two above.
 */
export type WardPattern =
  'severe-low' | 'low-time' | 'no-data' | 'never' | 'low-tir' | 'missed-doses' | 'rising-mean' | 'sparse-data' | 'steady' | 'high-and-missed';
const WARD: readonly { name: string; gender: string; age: number; pattern: WardPattern }[][] = [
  [
    { name: 'Aisha Rahman', gender: 'Female', age: 47, pattern: 'severe-low' },
    { name: 'Tomasz Nowak', gender: 'Male', age: 71, pattern: 'low-time' },
    { name: 'Grace Mensah', gender: 'Female', age: 66, pattern: 'no-data' },
    { name: 'Ravi Shankar', gender: 'Male', age: 52, pattern: 'never' },
    { name: 'Elena Petrova', gender: 'Female', age: 59, pattern: 'low-tir' },
    { name: 'Daniel Kim', gender: 'Male', age: 38, pattern: 'missed-doses' },
    { name: 'Fatima Zahra', gender: 'Female', age: 62, pattern: 'rising-mean' },
    { name: 'Luis Herrera', gender: 'Male', age: 45, pattern: 'sparse-data' },
    { name: 'Mei Chen', gender: 'Female', age: 55, pattern: 'steady' },
    { name: 'Samuel Adeyemi', gender: 'Male', age: 68, pattern: 'high-and-missed' },
    { name: 'Ingrid Larsen', gender: 'Female', age: 74, pattern: 'steady' },
  ],
  [
    { name: 'Priya Nair', gender: 'Female', age: 44, pattern: 'severe-low' },
    { name: 'Omar Haddad', gender: 'Male', age: 69, pattern: 'low-time' },
    { name: 'Hannah Weber', gender: 'Female', age: 57, pattern: 'no-data' },
    { name: 'Kwame Asante', gender: 'Male', age: 61, pattern: 'never' },
    { name: 'Sofia Rossi', gender: 'Female', age: 50, pattern: 'low-tir' },
    { name: 'Arjun Mehta', gender: 'Male', age: 41, pattern: 'missed-doses' },
    { name: 'Yuki Tanaka', gender: 'Female', age: 63, pattern: 'rising-mean' },
    { name: 'Peter Byrne', gender: 'Male', age: 72, pattern: 'sparse-data' },
    { name: 'Amina Diallo', gender: 'Female', age: 48, pattern: 'steady' },
    { name: 'Carlos Mendes', gender: 'Male', age: 56, pattern: 'high-and-missed' },
    { name: 'Lena Novak', gender: 'Female', age: 67, pattern: 'steady' },
  ],
];
/** The name of the first patient of demo hospital `hospital`'s ward whose data show `pattern`. */
export const wardNameOf = (hospital: number, pattern: WardPattern): string | undefined => WARD[hospital]?.find((w) => w.pattern === pattern)?.name;
/** Hospital numbers of the ward: 3012NN in the first demo hospital, 3022NN in the second. */
export const wardHospNo = (hospital: number, i: number) => `30${hospital + 1}2${String(i + 1).padStart(2, '0')}`;

const SEEDED_KEY = 'demo_seeded';

export const isDemoSeeded = async (db: Db): Promise<boolean> => (await settingsRepo.get(db, SEEDED_KEY)) !== undefined;

/** mulberry32: a small, good-enough deterministic PRNG (demo data; the chaos runs replay from it). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 24 * 3600_000;

/** Seeds everything when the database has no admin yet; returns whether it seeded. */
export async function seedDemo(db: Db, now = new Date()): Promise<boolean> {
  if (await isDemoSeeded(db)) return false;
  if (await staffRepo.adminByEmail(db, DEMO.admin.email)) return false;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const groupId = await staffRepo.ensureGroup(db, DEMO.group);
  const hospitals = [];
  for (const name of DEMO.hospitals) hospitals.push(await staffRepo.insertHospital(db, { name, groupId, timeZone }));
  // The demo group's administrator: both hospitals, and may add more.
  const admin = await staffRepo.insertAdmin(db, {
    email: DEMO.admin.email,
    name: DEMO.admin.name,
    passwordHash: await hashPassword(DEMO.admin.password),
    groupAdmin: true,
  });
  await staffRepo.grantHospitals(
    db,
    admin.id,
    hospitals.map((h) => h.id),
  );

  for (const p of DEMO.patients) {
    const hospital = hospitals[p.hospital];
    if (!hospital) throw new Error('demo hospital missing');
    const patient = await patientRepo.insert(db, {
      hospNo: p.hospNo,
      hospitalId: hospital.id,
      name: p.name,
      gender: p.gender,
      age: p.age,
      address: p.address,
      timeZone,
      glucometerAlerts: ['Monday', 'Thursday'],
      passwordHash: await hashPassword(p.password),
    });
    await db
      .insert(accessKeys)
      .values({ patientId: patient.id, keyHash: sha256(normaliseAccessKey(p.accessKey)), expiresAt: new Date(now.getTime() + 365 * DAY), createdBy: admin.id });
    await seedPatientData(db, { id: patient.id, hospNo: p.hospNo }, timeZone, admin.id, prng(p.seed), now);
  }
  for (const [h, ward] of WARD.entries()) {
    const hospital = hospitals[h];
    if (!hospital) throw new Error('demo hospital missing');
    for (const [i, w] of ward.entries()) {
      const hospNo = wardHospNo(h, i);
      const patient = await patientRepo.insert(db, { hospNo, hospitalId: hospital.id, name: w.name, gender: w.gender, age: w.age, timeZone });
      await seedWardPatient(db, { id: patient.id, hospNo }, w.pattern, timeZone, admin.id, prng(100 + h * 20 + i), now);
    }
  }
  await settingsRepo.setIfAbsent(db, SEEDED_KEY, { at: now.toISOString() });
  return true;
}

/**
 * The ids of one patient's demo records, the same on every seeding (a hash of the hospital number
 * and a count): a demo database made again holds the same records under the same ids, so a device
 * that held the old one sends nothing twice when it heals the new one (sync/history.ts).
 */
function demoIds(hospNo: string): () => string {
  let n = 0;
  return () => {
    const h = createHash('sha256').update(`eddy-demo:${hospNo}:${n++}`).digest('hex');
    // Shaped as a version 4 UUID (the schemas' uuid format).
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
}

async function seedPatientData(
  db: Db,
  patient: { id: string; hospNo: string },
  timeZone: string,
  adminId: string,
  rand: () => number,
  now: Date,
): Promise<void> {
  const patientId = patient.id;
  const newId = demoIds(patient.hospNo);
  const between = (lo: number, hi: number) => Math.round(lo + rand() * (hi - lo));
  const dayStart = (daysAgo: number) => {
    // Midnight of that local day, approximated from UTC midnight shifted by the zone's offset.
    const d = new Date(now.getTime() - daysAgo * DAY);
    const local = new Date(`${localDate(d, timeZone)}T00:00:00Z`);
    const offset = new Date(local.toLocaleString('en-US', { timeZone })).getTime() - new Date(local.toLocaleString('en-US', { timeZone: 'UTC' })).getTime();
    return local.getTime() - offset;
  };
  const at = (daysAgo: number, hour: number, minute: number) => new Date(dayStart(daysAgo) + (hour * 60 + minute) * 60_000);

  const readings: (typeof glucoseReadings.$inferInsert)[] = [];
  for (let d = 89; d >= 0; d--) {
    if (rand() < 0.08) continue; // some days without any check
    // Fasting mostly 90-160, now and then a low or a high morning.
    const r = rand();
    const fasting = r < 0.04 ? between(48, 68) : r < 0.1 ? between(165, 210) : between(90, 160);
    readings.push({ id: newId(), patientId, type: 'Fasting', valueMgDl: fasting, recordedAt: at(d, 7, between(0, 50)) });
    // Two hours after lunch and dinner: 120-240, a few spikes above 250.
    for (const hour of [15, 21]) {
      if (rand() < 0.25) continue;
      const spike = rand() < 0.06;
      readings.push({
        id: newId(),
        patientId,
        type: 'Postprandial',
        valueMgDl: spike ? between(251, 320) : between(120, 240),
        recordedAt: at(d, hour, between(0, 40)),
      });
    }
    if (rand() < 0.35) {
      const low = rand() < 0.08;
      readings.push({
        id: newId(),
        patientId,
        type: 'Random',
        valueMgDl: low ? between(50, 69) : between(80, 220),
        recordedAt: at(d, between(10, 12), between(0, 59)),
      });
    }
  }
  // Today's readings lie in the past only.
  const past = readings.filter((x) => x.recordedAt.getTime() <= now.getTime());
  for (let i = 0; i < past.length; i += 200) await db.insert(glucoseReadings).values(past.slice(i, i + 200));

  const dateAgo = (days: number) => localDate(new Date(now.getTime() - days * DAY), timeZone);
  const meds = await db
    .insert(prescriptions)
    .values([
      {
        patientId,
        prescrNo: `RX-${patient.hospNo}-01`,
        name: 'Metformin 500 mg tablet',
        dose: '1-0-1',
        startDate: dateAgo(200),
        endDate: null,
        createdBy: adminId,
      },
      {
        patientId,
        prescrNo: `RX-${patient.hospNo}-02`,
        name: 'Glimepiride 1 mg tablet',
        dose: '1-0-0',
        startDate: dateAgo(120),
        endDate: null,
        createdBy: adminId,
      },
      {
        patientId,
        prescrNo: `RX-${patient.hospNo}-03`,
        name: 'Atorvastatin 10 mg tablet',
        dose: '0-0-1',
        startDate: dateAgo(300),
        endDate: localDate(new Date(now.getTime() + 60 * DAY), timeZone),
        createdBy: adminId,
      },
      {
        patientId,
        prescrNo: `RX-${patient.hospNo}-04`,
        name: 'Sitagliptin 100 mg tablet',
        dose: '1-0-0',
        startDate: dateAgo(150),
        endDate: dateAgo(30),
        createdBy: adminId,
      },
    ])
    .returning();

  const intakes: (typeof medicineIntakes.$inferInsert & { id: string })[] = [];
  for (let d = 13; d >= 1; d--) {
    for (const m of meds.slice(0, 3)) {
      // Taken at the default meal times, so each dose is in its meal's slot (one per slot and day).
      const slots = m.dose.split('-').flatMap((x, i) => (x !== '0' ? [i] : []));
      for (const i of slots) {
        if (rand() < 0.15) continue; // a missed dose now and then
        const takenAt = at(d, [8, 13, 20][i] ?? 8, between(0, 30));
        const slot = MEAL_SLOTS[i] ?? 'breakfast';
        intakes.push({
          id: newId(),
          patientId,
          prescriptionId: m.id,
          prescrNo: m.prescrNo,
          medicineName: m.name,
          dose: m.dose,
          takenAt,
          slot,
          day: localDate(takenAt, timeZone),
        });
      }
    }
  }
  if (intakes.length) await db.insert(medicineIntakes).values(intakes);

  const symptomNames = ['Fatigue', 'Excessive thirst', 'Headache', 'Dizziness', 'Blurred vision', 'Shakiness', 'Sweating', 'Numbness or tingling in feet'];
  const symptomRows: (typeof symptoms.$inferInsert)[] = [];
  for (let i = 0; i < 14; i++) {
    const daysAgo = between(1, 88);
    const name = symptomNames[between(0, symptomNames.length - 1)] ?? 'Fatigue';
    const recordedAt = at(daysAgo, between(9, 21), between(0, 59));
    const day = localDate(recordedAt, timeZone);
    if (symptomRows.some((s) => s.day === day && s.symptom === name)) continue;
    symptomRows.push({ id: newId(), patientId, symptom: name, day, recordedAt });
  }
  await db.insert(symptoms).values(symptomRows);

  const labs: (typeof labTests.$inferInsert)[] = [];
  const hba1c = [8.1, 7.6, 7.2];
  [85, 55, 25].forEach((daysAgo, i) => {
    const recordedAt = at(daysAgo, 9, 15);
    labs.push({
      id: newId(),
      patientId,
      name: 'HbA1c',
      value: (Math.round((hba1c[i] ?? 7.5) * 10) + Math.round((rand() - 0.5) * 4)) / 10,
      unit: '%',
      recordedAt,
    });
  });
  for (const daysAgo of [80, 25]) {
    const recordedAt = at(daysAgo, 9, 20);
    labs.push(
      { id: newId(), patientId, name: 'Total cholesterol', value: between(170, 230), unit: 'mg/dL', recordedAt },
      { id: newId(), patientId, name: 'LDL cholesterol', value: between(90, 140), unit: 'mg/dL', recordedAt },
      { id: newId(), patientId, name: 'HDL cholesterol', value: between(38, 55), unit: 'mg/dL', recordedAt },
      { id: newId(), patientId, name: 'Triglycerides', value: between(120, 210), unit: 'mg/dL', recordedAt },
      { id: newId(), patientId, name: 'Creatinine', value: Math.round((0.7 + rand() * 0.5) * 100) / 100, unit: 'mg/dL', recordedAt },
      { id: newId(), patientId, name: 'eGFR', value: between(68, 95), unit: 'mL/min/1.73m2', recordedAt },
    );
  }
  await db.insert(labTests).values(labs);

  await db.insert(appointments).values([
    { id: newId(), patientId, doctor: 'Dr. Sarah Chen (Endocrinology)', date: at(60, 10, 30), notes: 'Quarterly review. HbA1c discussed; diet plan updated.' },
    {
      id: newId(),
      patientId,
      doctor: 'Dr. Sarah Chen (Endocrinology)',
      date: at(-10, 11, 0),
      notes: 'Bring glucometer and logbook. Fasting blood test the same morning.',
    },
    { id: newId(), patientId, doctor: 'Podiatry clinic', date: at(-40, 14, 15), notes: 'Annual diabetic foot check.' },
  ]);
}

/**
 * A ward patient's 90 days: four checks a day around the pattern's level, and a 1-0-1 prescription
 * taken at the pattern's rate over the last 30 days. The last two weeks show the pattern.
 */
async function seedWardPatient(
  db: Db,
  patient: { id: string; hospNo: string },
  pattern: WardPattern,
  timeZone: string,
  adminId: string,
  rand: () => number,
  now: Date,
): Promise<void> {
  const patientId = patient.id;
  const newId = demoIds(patient.hospNo);
  const between = (lo: number, hi: number) => Math.round(lo + rand() * (hi - lo));
  const dateAgo = (days: number) => localDate(new Date(now.getTime() - days * DAY), timeZone);
  await db.insert(prescriptions).values({
    patientId,
    prescrNo: `RX-${patient.hospNo}-01`,
    name: 'Metformin 500 mg tablet',
    dose: '1-0-1',
    startDate: dateAgo(180),
    createdBy: adminId,
    createdAt: new Date(now.getTime() - 180 * DAY),
  });
  if (pattern === 'never') return;

  const readings: (typeof glucoseReadings.$inferInsert)[] = [];
  const hours = [7, 11, 15, 21] as const;
  for (let d = 89; d >= 0; d--) {
    const recent = d < 14;
    if (pattern === 'no-data' && d < 5) continue;
    if (pattern === 'sparse-data' && recent && d % 4 !== 1) continue;
    if (rand() < 0.06) continue; // a day without checks now and then
    for (const [k, hour] of hours.entries()) {
      // Checks on a few mornings only: one check on each of those days, so that the days with a
      // reading are the same whatever the time of day the data is made (a later check of the same
      // day, shifted back from now, can fall on the next calendar date).
      if (pattern === 'sparse-data' && recent && k > 0) continue;
      if (k > 0 && rand() < 0.2) continue;
      let value: number;
      const r = rand();
      if (pattern === 'low-tir' || (pattern === 'high-and-missed' && recent)) value = r < 0.7 ? between(185, 290) : between(120, 180);
      else if (pattern === 'rising-mean') value = recent ? between(140, 195) : between(100, 160);
      else if (pattern === 'low-time' && recent) value = r < 0.15 ? between(56, 69) : between(85, 170);
      else value = r < 0.02 ? between(62, 69) : between(85, 175);
      const recordedAt = new Date(now.getTime() - d * DAY - (24 - hour) * 3600_000 + between(0, 40) * 60_000);
      readings.push({ id: newId(), patientId, type: k === 0 ? 'Fasting' : k === 2 || k === 3 ? 'Postprandial' : 'Random', valueMgDl: value, recordedAt });
    }
  }
  // The night low (below 54 mg/dL) a day before.
  if (pattern === 'severe-low') readings.push({ id: newId(), patientId, type: 'Random', valueMgDl: 45, recordedAt: new Date(now.getTime() - 20 * 3600_000) });
  const past = readings.filter((x) => x.recordedAt.getTime() <= now.getTime());
  for (let i = 0; i < past.length; i += 200) await db.insert(glucoseReadings).values(past.slice(i, i + 200));

  const takeRate = pattern === 'missed-doses' ? 0.5 : pattern === 'high-and-missed' ? 0.6 : 0.95;
  const intakes: (typeof medicineIntakes.$inferInsert & { id: string })[] = [];
  for (let d = 30; d >= 1; d--) {
    for (const [i, hour] of [
      [0, 8],
      [2, 20],
    ] as const) {
      if (rand() >= takeRate) continue;
      const slot = MEAL_SLOTS[i] ?? 'breakfast';
      const takenAt = new Date(new Date(`${dateAgo(d)}T00:00:00Z`).getTime() + hour * 3600_000);
      intakes.push({
        id: newId(),
        patientId,
        prescrNo: `RX-${patient.hospNo}-01`,
        medicineName: 'Metformin 500 mg tablet',
        dose: '1-0-1',
        takenAt,
        slot,
        day: dateAgo(d),
      });
    }
  }
  if (intakes.length) await db.insert(medicineIntakes).values(intakes);
}
