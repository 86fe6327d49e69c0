// A row as the API sends it, built by the database (see jsonObject). Lists of
// thousands of rows then cost the server no Date parsing, no object per row and no JSON.stringify:
// it joins the texts (record-helpers.ts, listSynced). The shapes are docs/requirements.md §3/§7's and must equal the
// ones server/services/dto.ts builds from rows; json-view.db.test.ts checks both on the same rows.
// Keys come in the order the routes' serializer writes an object of the same schema (schemas/api.ts):
// the schema's required properties first, so a write answered from this text and one answered from
// a DTO are the same bytes.
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { appointments, glucoseReadings, labTests, medicineIntakes, symptoms } from '../db/schema.ts';

/** A timestamp as Date.prototype.toISOString writes it: UTC, milliseconds, `Z`. */
export const isoText = (column: PgColumn): SQL => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The row's JSON text with these keys in this order (only names from code), written by
 * concatenation: each value through to_json (the escaping and number text of row_to_json), a SQL
 * null as `null`. Two to three times cheaper per row than row_to_json of a one-row subquery (three
 * timings on a busy machine), which builds a record for every row (and json_build_object puts
 * spaces around every colon).
 */
export function jsonObject(fields: Record<string, PgColumn | SQL>): SQL<string> {
  const parts = Object.entries(fields).map(([key, value], i) => {
    if (!KEY.test(key)) throw new Error(`jsonObject: "${key}" is not a plain key`);
    const name = `${i === 0 ? '{' : ','}"${key}":`;
    return sql`${sql.raw(`'${name}'`)} || coalesce(to_json(${value})::text, 'null')`;
  });
  return sql<string>`(${sql.join(parts, sql` || `)} || '}')`;
}

export const glucoseJson = jsonObject({
  _id: glucoseReadings.id,
  type: glucoseReadings.type,
  value: glucoseReadings.valueMgDl,
  recordedAt: isoText(glucoseReadings.recordedAt),
  unit: glucoseReadings.enteredUnit,
  enteredValue: glucoseReadings.enteredValue,
  utcOffsetMinutes: glucoseReadings.utcOffsetMinutes,
  updatedAt: isoText(glucoseReadings.updatedAt),
  version: glucoseReadings.version,
});

export const symptomJson = jsonObject({
  _id: symptoms.id,
  symptom: symptoms.symptom,
  recordedAt: isoText(symptoms.recordedAt),
  updatedAt: isoText(symptoms.updatedAt),
  version: symptoms.version,
});

export const appointmentJson = jsonObject({
  _id: appointments.id,
  doctor: appointments.doctor,
  date: isoText(appointments.date),
  notes: appointments.notes,
  updatedAt: isoText(appointments.updatedAt),
  version: appointments.version,
});

export const labTestJson = jsonObject({
  _id: labTests.id,
  name: labTests.name,
  value: labTests.value,
  recordedAt: isoText(labTests.recordedAt),
  unit: labTests.unit,
  updatedAt: isoText(labTests.updatedAt),
  version: labTests.version,
});

export const intakeJson = jsonObject({
  _id: medicineIntakes.id,
  prescrNo: medicineIntakes.prescrNo,
  medicineName: medicineIntakes.medicineName,
  dose: medicineIntakes.dose,
  takenAt: isoText(medicineIntakes.takenAt),
  slot: medicineIntakes.slot,
  extra: medicineIntakes.extra,
  updatedAt: isoText(medicineIntakes.updatedAt),
  version: medicineIntakes.version,
});
