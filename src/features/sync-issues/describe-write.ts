// A queued or refused write in words a patient recognises ("Glucose 126 mg/dL, Fasting, 25 Nov
// 08:00"), from what the write carries. Used by the refused list; never shows ids or paths.
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { OutboxOp } from '../../../sync/outbox.ts';
import { formatGlucose, GLUCOSE_UNITS, type GlucoseUnit } from '../../../schemas/glucose-units.ts';
import { formatClockTime, type TimeFormat } from '../../lib/dates.ts';

type Fields = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The record a write (or a server copy, `fields`) is about, in the app's language; times as `dateTime` shows them. */
export function describeRecord(i18n: I18n, collection: string, fields: Fields, unit: GlucoseUnit, dateTime: TimeFormat): string {
  const when = (_: I18n, iso: unknown, takenAtOffset?: unknown): string => {
    const s = str(iso);
    if (!s || Number.isNaN(Date.parse(s))) return '';
    return dateTime.format(s, num(takenAtOffset));
  };
  const join = (...parts: (string | undefined)[]) => parts.filter((p) => p).join(', ');
  switch (collection) {
    case 'glucose': {
      const value = num(fields['value'] ?? fields['gvalue']);
      const type = str(fields['type'] ?? fields['gtype']);
      const entered = num(fields['enteredValue']);
      const takenIn = GLUCOSE_UNITS.find((u) => u === fields['unit']);
      const reading = value !== undefined ? { value, unit: takenIn, enteredValue: entered } : undefined;
      return join(
        i18n._(msg`Glucose reading`),
        reading ? `${formatGlucose(reading, unit, i18n.locale)} ${unit}` : undefined,
        type && i18n._(typeLabel(type)),
        when(i18n, fields['recordedAt'], fields['utcOffsetMinutes']),
      );
    }
    case 'symptoms':
      return join(i18n._(msg`Symptom`), str(fields['symptom']), when(i18n, fields['recordedAt']));
    case 'appointments':
      return join(i18n._(msg`Appointment`), str(fields['doctor']), when(i18n, fields['date']));
    case 'labTests': {
      const value = num(fields['value']);
      return join(
        i18n._(msg`Lab test`),
        str(fields['name']),
        value !== undefined ? `${new Intl.NumberFormat(i18n.locale).format(value)}${str(fields['unit']) ? ` ${String(fields['unit'])}` : ''}` : undefined,
        when(i18n, fields['recordedAt']),
      );
    }
    case 'medicineIntakes':
      return join(i18n._(msg`Dose taken`), str(fields['medicineName']), str(fields['dose']), when(i18n, fields['takenAt']));
    case 'profile': {
      const meals = (['breakfast', 'lunch', 'dinner'] as const).flatMap((m) => {
        const t = str(fields[m]) ?? str((fields['notificationTimings'] as Fields | undefined)?.[m]);
        return t ? [`${i18n._(mealLabel(m))} ${formatClockTime(t, i18n.locale)}`] : [];
      });
      const day = str(fields['day']);
      return join(i18n._(msg`Profile`), ...meals, day && i18n._(msg`glucometer day ${day}`));
    }
    case 'reminders':
      return i18n._(msg`Reminder again later`);
    default:
      return i18n._(msg`Reminder settings of this device`);
  }
}

export function kindLabel(i18n: I18n, op: OutboxOp): string {
  return op.kind === 'add' ? i18n._(msg`New entry`) : op.kind === 'update' ? i18n._(msg`Change`) : i18n._(msg`Removal`);
}

function typeLabel(type: string) {
  return type === 'Fasting' ? msg`Fasting` : type === 'Postprandial' ? msg`Postprandial` : msg`Random`;
}

function mealLabel(meal: 'breakfast' | 'lunch' | 'dinner') {
  return meal === 'breakfast' ? msg`Breakfast` : meal === 'lunch' ? msg`Lunch` : msg`Dinner`;
}
