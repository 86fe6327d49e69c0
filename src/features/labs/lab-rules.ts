// The parts of lab results that need no React: reading a typed value, the day a result belongs to,
// grouping results per test, and the geometry and span of a test's trend.
import type { LabTest } from '../../../schemas/lab-test.ts';
import { labTestKey } from '../../../schemas/lab-units.ts';
import { localDateKey } from '../../lib/dates.ts';

/** The server's bounds for a value (schemas/lab-test.ts). */
export const LAB_VALUE_LIMIT = 1e9;
export const LAB_NAME_MAX_LENGTH = 100;
export const LAB_UNIT_MAX_LENGTH = 30;

/** What a person typed (comma or point decimals) as a number, or why it is not one. */
export function parseLabValue(text: string): { value: number } | { error: 'empty' | 'not-a-number' } {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { error: 'empty' };
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return { error: 'not-a-number' };
  const value = Number(trimmed);
  if (!Number.isFinite(value) || Math.abs(value) > LAB_VALUE_LIMIT) return { error: 'not-a-number' };
  return { value };
}

/** The value of a date input for the device's calendar day of `d` ("2026-11-22"). */
export const toDateInput = localDateKey;

/** A date input's value as the device's local midnight, or undefined when it is not a real date. */
export function fromDateInput(value: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const d = new Date(year, month, day);
  return d.getFullYear() === year && d.getMonth() === month && d.getDate() === day ? d : undefined;
}

/**
 * The instant stored for a result taken on `day`: the time it already had when the day did not
 * change (editing), else local noon, so the day survives a time-zone change; never later than now,
 * because the server refuses results from the future.
 */
export function recordedAtFor(day: Date, now: Date, previous?: Date): Date {
  if (previous && toDateInput(previous) === toDateInput(day)) return previous;
  const noon = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 12);
  return noon.getTime() > now.getTime() ? now : noon;
}

/** Names are compared as the server does (schemas/lab-units.ts): spaces, case and Unicode forms aside. */
export const testKey = labTestKey;

export interface TestGroup {
  key: string;
  /** The name as the latest result spells it. */
  name: string;
  /** Newest first. */
  results: LabTest[];
}

/** Results grouped per test; the test with the most recent result first (by day, then by name). */
export function groupByTest(tests: readonly LabTest[]): TestGroup[] {
  const sorted = [...tests].sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt));
  const groups = new Map<string, TestGroup>();
  for (const t of sorted) {
    const key = testKey(t.name);
    const group = groups.get(key);
    if (group) group.results.push(t);
    else groups.set(key, { key, name: t.name.trim(), results: [t] });
  }
  const day = (g: TestGroup) => toDateInput(new Date(g.results[0]?.recordedAt ?? 0));
  return [...groups.values()].sort((a, b) => day(b).localeCompare(day(a)) || a.name.localeCompare(b.name));
}

/** How long a trend covers, in the largest whole unit that fits (at least 1 day). */
export function trendSpan(from: Date, to: Date): { count: number; unit: 'day' | 'week' | 'month' | 'year' } {
  const days = Math.max(1, Math.round((to.getTime() - from.getTime()) / 86_400_000));
  if (days >= 365) return { count: Math.round(days / 365), unit: 'year' };
  if (days >= 60) return { count: Math.round(days / 30.44), unit: 'month' };
  if (days >= 14) return { count: Math.round(days / 7), unit: 'week' };
  return { count: days, unit: 'day' };
}

/**
 * Points of a sparkline in a width × height box with `pad` inside the edges: x by time (so uneven
 * gaps between tests show), y by value, higher values higher up; a flat series sits in the middle.
 */
export function sparklinePoints(series: readonly { at: number; value: number }[], width: number, height: number, pad: number): { x: number; y: number }[] {
  if (series.length === 0) return [];
  const times = series.map((p) => p.at);
  const values = series.map((p) => p.value);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [v0, v1] = [Math.min(...values), Math.max(...values)];
  const x = (t: number) => (t1 === t0 ? width / 2 : pad + ((t - t0) / (t1 - t0)) * (width - 2 * pad));
  const y = (v: number) => (v1 === v0 ? height / 2 : height - pad - ((v - v0) / (v1 - v0)) * (height - 2 * pad));
  return series.map((p) => ({ x: round(x(p.at)), y: round(y(p.value)) }));
}

const round = (n: number) => Math.round(n * 100) / 100;
