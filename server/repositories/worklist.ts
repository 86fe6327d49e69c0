// The staff worklist's figures (issue 18), computed in the database: one statement aggregates every
// patient of a hospital over the period (readings, the previous period's mean, expected and taken
// doses), flags the reasons, weighs them and orders the patients by need, so that only one page of
// rows leaves the database however many patients the hospital has. The thresholds, the weights and
// their sources are in server/services/worklist-rules.ts, the same order as a pure function in
// server/services/worklist-priority.ts; this file only applies them.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/raw.ts';
import { DOSE_PATTERN_SOURCE, ZERO_PART_SOURCE } from '../reminders/dose-pattern.ts';
import type { WorklistRules } from '../services/worklist-rules.ts';

/** One patient's figures over the period, with the reasons the rules found. */
export interface WorklistFacts {
  id: string;
  hospNo: string;
  name: string;
  /** Readings in the period, and of them: below the severe level, below the low level, in range. */
  readings: number;
  severe: number;
  /** Kovatchev's hypoglycaemia risk summed over the readings below the severe level (worklist-rules.ts). */
  severeRisk: number;
  below: number;
  inRange: number;
  lowest: number | null;
  mean: number | null;
  /** Patient-local days of the period with at least one reading. */
  daysWithReadings: number;
  previousReadings: number;
  previousMean: number | null;
  lastReadingAt: Date | null;
  lastSyncAt: Date | null;
  /** When the patient was registered: a patient without any reading lacks data since then. */
  registeredAt: Date;
  /** Doses of 1-0-1-style prescriptions expected over the period's whole days, and those marked taken. */
  expectedDoses: number;
  takenDoses: number;
  flags: { severeLow: boolean; lowTime: boolean; lowTir: boolean; noData: boolean; sparseData: boolean; missedDoses: boolean; risingMean: boolean };
}

interface Row {
  id: string;
  hosp_no: string;
  name: string;
  readings: number;
  severe: number;
  severe_risk: number | string;
  below: number;
  in_range: number;
  lowest: number | null;
  mean: number | null;
  days_with: number;
  prev_readings: number;
  prev_mean: number | null;
  last_reading_at: string | Date | null;
  last_sync_at: string | Date | null;
  registered_at: string | Date;
  expected: number;
  taken: number;
  f_severe: boolean;
  f_low_time: boolean;
  f_low_tir: boolean;
  f_no_data: boolean;
  f_sparse: boolean;
  f_missed: boolean;
  f_rising: boolean;
}

const toDate = (v: string | Date | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export const worklistRepo = {
  /**
   * The page `offset`..`offset + limit` of the hospital's patients, most in need first: by the most
   * urgent reason they have (severe low, time below range, no data, time in range, missed doses,
   * rising mean, sparse data) and its weight, then by the next reasons and their weights in the same
   * order, then by the lowest reading, then by name (comparePriority in worklist-priority.ts).
   * The period is the `days` × 24 h up to `now` for readings, and the `days` whole patient-local days
   * before today for doses (today's doses may still be ahead).
   */
  async page(
    db: Db,
    opts: { hospitalId: string; days: number; now: Date; limit: number; offset: number; rules: WorklistRules },
  ): Promise<{ rows: WorklistFacts[]; total: number }> {
    const { rules: r, days, now } = opts;
    const from = new Date(now.getTime() - days * 86_400_000);
    const previousFrom = new Date(from.getTime() - days * 86_400_000);
    const noDataSince = new Date(now.getTime() - r.noDataDays * 86_400_000);
    // PostgreSQL's JIT compiles a statement this size in about a second before running it, longer
    // than the statement itself takes (measured on 5,000 patients); off for this statement only.
    const rows = await db.transaction(async (tx) => {
      await tx.execute(sql`set local jit = off`);
      return queryRows<Row & { total: number | string }>(
        tx,
        sql`
      with pts as (
        select p.id, p.hosp_no, p.name, p.time_zone, p.created_at as registered_at, (${now.toISOString()}::timestamptz at time zone p.time_zone)::date as today
        from patients p where p.hospital_id = ${opts.hospitalId}
      ),
      -- One pass over both periods' readings: the current period's figures, and the previous
      -- period's count and mean (a reading belongs to the current period when it is after the period began).
      agg as (
        select g.patient_id,
          count(*) filter (where cur)::int as readings,
          count(*) filter (where cur and g.value_mg_dl < ${r.severeLowMgDl})::int as severe,
          -- Kovatchev's risk, lowGlucoseRisk in worklist-priority.ts; only the few severe lows pay for it.
          sum(10 * power(1.509 * (power(ln(greatest(g.value_mg_dl, 1)), 1.084) - 5.381), 2))
            filter (where cur and g.value_mg_dl < ${r.severeLowMgDl}) as severe_risk,
          count(*) filter (where cur and g.value_mg_dl < ${r.lowMgDl})::int as below,
          count(*) filter (where cur and g.value_mg_dl >= ${r.lowMgDl} and g.value_mg_dl <= ${r.highMgDl})::int as in_range,
          min(g.value_mg_dl) filter (where cur) as lowest,
          avg(g.value_mg_dl) filter (where cur) as mean,
          count(distinct (g.recorded_at at time zone pts.time_zone)::date) filter (where cur)::int as days_with,
          count(*) filter (where not cur)::int as prev_readings,
          avg(g.value_mg_dl) filter (where not cur) as prev_mean
        from pts join glucose_readings g on g.patient_id = pts.id
        cross join lateral (select g.recorded_at > ${from.toISOString()}::timestamptz as cur) as period
        where g.deleted_at is null and g.recorded_at > ${previousFrom.toISOString()}::timestamptz and g.recorded_at <= ${now.toISOString()}::timestamptz
        group by g.patient_id
      ),
      rx as (
        select pts.id as patient_id, rx.prescr_no,
          (select count(*) from unnest(m) as part where part !~ ${ZERO_PART_SOURCE})::int as per_day,
          greatest(coalesce(rx.start_date, '-infinity'::date), (rx.created_at at time zone pts.time_zone)::date, pts.today - ${days}::int) as first_day,
          least(coalesce(rx.end_date, 'infinity'::date), pts.today - 1) as last_day
        from pts join prescriptions rx on rx.patient_id = pts.id
        cross join lateral regexp_match(rx.dose, ${DOSE_PATTERN_SOURCE}) as m
        where m is not null
      ),
      doses as (
        select rx.patient_id,
          sum(rx.per_day * (rx.last_day - rx.first_day + 1))::int as expected,
          sum(least(rx.per_day * (rx.last_day - rx.first_day + 1), (
            select count(*) from medicine_intakes i
            where i.patient_id = rx.patient_id and i.prescr_no = rx.prescr_no and i.slot is not null and not i.extra
              and i.deleted_at is null and i.day between rx.first_day and rx.last_day
          )))::int as taken
        from rx where rx.per_day > 0 and rx.last_day >= rx.first_day
        group by rx.patient_id
      ),
      facts as (
        select pts.id, pts.hosp_no, pts.name, pts.registered_at,
          coalesce(agg.readings, 0) as readings, coalesce(agg.severe, 0) as severe, coalesce(agg.severe_risk, 0) as severe_risk,
          coalesce(agg.below, 0) as below,
          coalesce(agg.in_range, 0) as in_range, agg.lowest, agg.mean, coalesce(agg.days_with, 0) as days_with,
          coalesce(agg.prev_readings, 0) as prev_readings, agg.prev_mean,
          lr.at as last_reading_at, ls.at as last_sync_at,
          coalesce(doses.expected, 0) as expected, coalesce(doses.taken, 0) as taken
        from pts
        left join agg on agg.patient_id = pts.id
        left join doses on doses.patient_id = pts.id
        left join lateral (select max(g.recorded_at) as at from glucose_readings g where g.patient_id = pts.id and g.deleted_at is null) lr on true
        left join lateral (select max(s.last_seen_at) as at from sessions s where s.patient_id = pts.id) ls on true
      ),
      flagged as (
        select facts.*,
          severe > 0 as f_severe,
          readings > 0 and below * 100.0 / readings > ${r.lowTimeAbovePercent} as f_low_time,
          readings > 0 and in_range * 100.0 / readings < ${r.inRangeBelowPercent} as f_low_tir,
          last_reading_at is null or last_reading_at <= ${noDataSince.toISOString()}::timestamptz as f_no_data,
          readings > 0 and days_with * 100.0 / ${days}::int < ${r.daysWithReadingsBelowPercent} as f_sparse,
          expected > 0 and taken * 100.0 / expected < ${r.dosesTakenBelowPercent} as f_missed,
          readings >= ${r.minReadingsForMean} and prev_readings >= ${r.minReadingsForMean}
            and mean >= prev_mean * (1 + ${r.meanRisePercent} / 100.0) and mean - prev_mean >= ${r.meanRiseMinMgDl} as f_rising
        from facts
      ),
      -- Each reason's weight (weightsOf in worklist-priority.ts), 0 without the reason, rounded to 3
      -- decimals as both sides compare them.
      weighed as (
        select flagged.*,
          case when f_severe then round(severe_risk::numeric, 3) else 0 end as w_severe,
          case when f_low_time then round((below - readings * ${r.lowTimeAbovePercent} / 100.0)::numeric, 3) else 0 end as w_low_time,
          case when f_no_data then round((extract(epoch from ${now.toISOString()}::timestamptz - coalesce(last_reading_at, registered_at)) / 86400)::numeric, 3) else 0 end as w_no_data,
          case when f_low_tir then round((readings * ${r.inRangeBelowPercent} / 100.0 - in_range)::numeric, 3) else 0 end as w_low_tir,
          case when f_missed then round((expected * ${r.dosesTakenBelowPercent} / 100.0 - taken)::numeric, 3) else 0 end as w_missed,
          case when f_rising then round((mean - prev_mean)::numeric, 3) else 0 end as w_rising,
          case when f_sparse then ${days}::int - days_with else 0 end as w_sparse
        from flagged
      )
      select weighed.*, count(*) over () as total
      from weighed
      order by f_severe desc, w_severe desc, f_low_time desc, w_low_time desc, f_no_data desc, w_no_data desc,
        f_low_tir desc, w_low_tir desc, f_missed desc, w_missed desc, f_rising desc, w_rising desc, f_sparse desc, w_sparse desc,
        lowest asc nulls last, name collate "C" asc, hosp_no collate "C" asc
      limit ${opts.limit} offset ${opts.offset}`,
      );
    });
    let total = rows.length > 0 ? Number(rows[0]?.total) : undefined;
    if (total === undefined) {
      const [counted] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from patients where hospital_id = ${opts.hospitalId}`);
      total = Number(counted?.n ?? 0);
    }
    return {
      total,
      rows: rows.map((x) => ({
        id: x.id,
        hospNo: x.hosp_no,
        name: x.name,
        readings: Number(x.readings),
        severe: Number(x.severe),
        severeRisk: Number(x.severe_risk),
        below: Number(x.below),
        inRange: Number(x.in_range),
        lowest: num(x.lowest),
        mean: num(x.mean),
        daysWithReadings: Number(x.days_with),
        previousReadings: Number(x.prev_readings),
        previousMean: num(x.prev_mean),
        lastReadingAt: toDate(x.last_reading_at),
        lastSyncAt: toDate(x.last_sync_at),
        registeredAt: x.registered_at instanceof Date ? x.registered_at : new Date(x.registered_at),
        expectedDoses: Number(x.expected),
        takenDoses: Number(x.taken),
        flags: {
          severeLow: x.f_severe,
          lowTime: x.f_low_time,
          lowTir: x.f_low_tir,
          noData: x.f_no_data,
          sparseData: x.f_sparse,
          missedDoses: x.f_missed,
          risingMean: x.f_rising,
        },
      })),
    };
  },
};
