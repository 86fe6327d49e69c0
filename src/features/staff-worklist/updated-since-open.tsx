// The worklist marks a patient whose row changed since the clinician opened it (issue 46, item 3):
// a new severe low, a reading arriving from a device that was offline for hours. Each patient's
// row is first seen as it was (the baseline, per hospital and period); a later page of the same
// list whose reasons or last reading differ marks that patient "Updated", in place, and a polite
// status line counts them. A row first seen after the list was opened (a patient a new severe low
// moved up onto this page) is marked when its last reading was taken after that. Another period
// starts over.
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import type { WorklistPatient } from './types.ts';

/** What the clinician reads of a patient's row. */
export const rowSignature = (p: WorklistPatient): string => JSON.stringify([p.reasons.map((r) => [r.code, r.value]), p.lastReadingAt]);

const NONE: ReadonlySet<string> = new Set();

/**
 * The hospital numbers of the rows of `page` that changed since first seen under `key`; the list
 * was opened when the first page was worked out (`computedAt`).
 */
export function useUpdatedSinceOpen(key: string, page: { patients: readonly WorklistPatient[]; computedAt: string } | undefined): ReadonlySet<string> {
  const patients = page?.patients;
  const [base, setBase] = useState<{ key: string; openedAt: number; rows: ReadonlyMap<string, string> }>();
  // Rows seen for the first time (the first page, another page, another period) are the baseline.
  // Set while rendering, as React allows for state that follows a prop.
  let seen = base;
  if (page !== undefined && patients !== undefined && (seen?.key !== key || patients.some((p) => !seen?.rows.has(p.hospNo)))) {
    const rows = new Map(seen?.key === key ? seen.rows : []);
    for (const p of patients) if (!rows.has(p.hospNo)) rows.set(p.hospNo, rowSignature(p));
    seen = { key, openedAt: seen?.key === key ? seen.openedAt : Date.parse(page.computedAt), rows };
    setBase(seen);
  }
  return useMemo(() => {
    if (patients === undefined || seen?.key !== key) return NONE;
    const takenSince = (p: WorklistPatient) => p.lastReadingAt !== null && Date.parse(p.lastReadingAt) > seen.openedAt;
    return new Set(patients.filter((p) => seen.rows.get(p.hospNo) !== rowSignature(p) || takenSince(p)).map((p) => p.hospNo));
  }, [patients, seen, key]);
}

export function UpdatedTag() {
  const { t } = useLingui();
  return (
    <span className="new-tag" title={t`Changed since you opened this list`}>
      <Trans>Updated</Trans>
    </span>
  );
}

/** How many patients' rows changed since the list was opened, said once where it changes. */
export function UpdatedSinceOpenStatus({ count }: { count: number }) {
  return (
    <p className="worklist-updated" role="status">
      {count > 0 && (
        <Plural
          value={count}
          one="# patient changed since you opened this list, marked Updated."
          other="# patients changed since you opened this list, marked Updated."
        />
      )}
    </p>
  );
}
