// `worklist5kMs…` of `npm run bench` (issue 18): how long the staff worklist's statement
// (server/repositories/worklist.ts) takes for a hospital of 5,000 patients with 90 days of readings
// each (4 a day: 1.8 million readings), a 1-0-1 prescription each with about 85 % of its doses
// marked taken, on PostgreSQL and on the embedded database. The figure is the median of 5 runs of
// the first page (20 patients) over the default 14 days, after one run to warm the caches; the
// 90-day period is logged beside it.
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { staffRepo } from '../../server/repositories/staff.ts';
import { worklistRepo } from '../../server/repositories/worklist.ts';
import { WORKLIST_RULES } from '../../server/services/worklist-rules.ts';
import { pgliteTemplateTar } from '../../server/testing/db-template.ts';
import { createFreshPostgres } from '../../server/testing/postgres.ts';

const PATIENTS = 5000;
const DAYS = 90;
const RUNS = 5;

export interface WorklistFigures {
  worklist5kMsPostgres: number;
  worklist5kMsPglite: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** One hospital of PATIENTS patients with DAYS days of readings and doses, written by the database itself. */
async function seed(database: Database, log: (line: string) => void): Promise<string> {
  const started = Date.now();
  const { db } = database;
  const hospitalId = (await staffRepo.insertHospital(db, { name: 'Bench Hospital', timeZone: 'Asia/Kolkata' })).id;
  await db.execute(sql`
    insert into patients (hosp_no, hospital_id, name, time_zone)
    select 'B' || lpad(i::text, 6, '0'), ${hospitalId}, 'Bench Patient ' || i, 'Asia/Kolkata' from generate_series(1, ${PATIENTS}) as i`);
  // Readings at 07:00, 10:00, 14:00 and 21:00 UTC of each day; each patient has a level of their
  // own (60–220 mg/dL) and readings scatter ±40 around it, so that every reason turns up somewhere.
  await db.execute(sql`
    insert into glucose_readings (id, patient_id, type, value_mg_dl, recorded_at)
    select gen_random_uuid(), p.id, 'Random',
      greatest(30, 60 + (abs(hashtext(p.id::text)) % 160) + (abs(hashtext(p.id::text || d || k)) % 81) - 40),
      date_trunc('day', now()) - d * interval '1 day' + (array[7, 10, 14, 21])[k] * interval '1 hour'
    from patients p, generate_series(1, ${DAYS}) as d, generate_series(1, 4) as k
    where p.hospital_id = ${hospitalId}`);
  await db.execute(sql`
    insert into prescriptions (patient_id, prescr_no, name, dose, start_date, created_at)
    select p.id, 'RX-1', 'Metformin 500 mg', '1-0-1', (now() - ${DAYS} * interval '1 day')::date, now() - ${DAYS + 1} * interval '1 day'
    from patients p where p.hospital_id = ${hospitalId}`);
  await db.execute(sql`
    insert into medicine_intakes (id, patient_id, prescr_no, medicine_name, dose, taken_at, slot, day)
    select gen_random_uuid(), p.id, 'RX-1', 'Metformin 500 mg', '1-0-1', (current_date - d) + interval '8 hours', s, current_date - d
    from patients p, generate_series(1, ${DAYS}) as d, unnest(array['breakfast', 'dinner']) as s
    where p.hospital_id = ${hospitalId} and abs(hashtext(p.id::text || d || s)) % 100 < 85`);
  await db.execute(sql`analyze`);
  log(`worklist: ${PATIENTS} patients × ${DAYS} days seeded on ${database.kind} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return hospitalId;
}

async function timeIt(database: Database, hospitalId: string, days: number): Promise<{ ms: number; flagged: number }> {
  const started = performance.now();
  const { rows } = await worklistRepo.page(database.db, { hospitalId, days, now: new Date(), limit: 20, offset: 0, rules: WORKLIST_RULES });
  const ms = performance.now() - started;
  return { ms, flagged: rows.filter((r) => Object.values(r.flags).some(Boolean)).length };
}

async function measure(database: Database, log: (line: string) => void): Promise<number> {
  const hospitalId = await seed(database, log);
  await timeIt(database, hospitalId, 14);
  const runs: number[] = [];
  let flagged = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const r = await timeIt(database, hospitalId, 14);
    runs.push(r.ms);
    flagged = r.flagged;
  }
  const ninety = await timeIt(database, hospitalId, 90);
  log(
    `worklist on ${database.kind}: 14 days ${runs.map((r) => r.toFixed(0)).join(', ')} ms (${flagged} of the first 20 with reasons); 90 days ${ninety.ms.toFixed(0)} ms`,
  );
  return Math.round(median(runs));
}

export async function worklistFigures(opts: { log: (line: string) => void; postgresUrl?: string }): Promise<WorklistFigures> {
  const fresh = await createFreshPostgres(opts.postgresUrl ?? process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test', 'eddy_bench_worklist');
  let worklist5kMsPostgres: number;
  const pg = await openDatabase({ databaseUrl: fresh.url, poolMax: 2 });
  try {
    await pg.migrate();
    worklist5kMsPostgres = await measure(pg, opts.log);
  } finally {
    await pg.close();
    await fresh.drop();
  }
  const lite = await openDatabase({ template: await pgliteTemplateTar() });
  try {
    await lite.migrate();
    return { worklist5kMsPostgres, worklist5kMsPglite: await measure(lite, opts.log) };
  } finally {
    await lite.close();
  }
}
