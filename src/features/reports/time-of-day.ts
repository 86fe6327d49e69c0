// Readings by time of day on the patient's own clock (buildReport gives each reading its local
// minutes since midnight): 3-hour blocks for the chart's table.
import type { ReportReading } from '../../../schemas/report/types.ts';

export interface TimeOfDayBlock {
  /** First hour of the block (0, 3, … 21). */
  start: number;
  count: number;
  mean: number | null;
  min: number | null;
  max: number | null;
}

export const BLOCK_HOURS = 3;

export function timeOfDayBlocks(readings: readonly Pick<ReportReading, 'minutes' | 'value'>[]): TimeOfDayBlock[] {
  const blocks: TimeOfDayBlock[] = [];
  for (let start = 0; start < 24; start += BLOCK_HOURS) {
    const values = readings.filter((r) => r.minutes >= start * 60 && r.minutes < (start + BLOCK_HOURS) * 60).map((r) => r.value);
    blocks.push({
      start,
      count: values.length,
      mean: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
      min: values.length ? Math.min(...values) : null,
      max: values.length ? Math.max(...values) : null,
    });
  }
  return blocks;
}
