// What arrived since the clinician opened the review (issue 46, item 3): a reading, a symptom, a
// lab result, an appointment or a dose that was not in the review first shown on this page is
// marked "New" where it appears, in place (a row added at the top of a list keeps the browser's
// scroll anchoring, so what the clinician is reading stays where it is), and counted once in a
// polite status line. Opening another patient, or the page again, starts over.
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { createContext, useContext, useMemo, useState } from 'react';
import type { ReviewBundle } from './types.ts';

/** Every entry of the review that can arrive: the ids of its rows. */
export function entryIds(bundle: ReviewBundle): Set<string> {
  const { glucose, symptoms, tests, appointments, doses } = bundle;
  return new Set([...glucose.fasting, ...glucose.postprandial, ...glucose.random, ...symptoms, ...tests, ...appointments, ...doses].map((r) => r._id));
}

/** The entries of `now` that `first` did not have. */
export function arrivedSince(first: ReadonlySet<string>, now: ReviewBundle): Set<string> {
  const out = new Set<string>();
  for (const id of entryIds(now)) if (!first.has(id)) out.add(id);
  return out;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The ids that arrived since the review of `hospNo` was first shown on this page (`bundle` undefined:
 * nothing is shown yet).
 */
export function useNewSinceOpen(hospNo: string | undefined, bundle: ReviewBundle | undefined): ReadonlySet<string> {
  const [first, setFirst] = useState<{ hospNo: string; ids: Set<string> }>();
  // Another patient (or the first shown): what is shown now is what was there at opening. Set
  // while rendering, as React allows for state that follows a prop.
  let base = first;
  if (hospNo !== undefined && bundle !== undefined && first?.hospNo !== hospNo) {
    base = { hospNo, ids: entryIds(bundle) };
    setFirst(base);
  }
  return useMemo(() => (base === undefined || bundle === undefined || base.hospNo !== hospNo ? NONE : arrivedSince(base.ids, bundle)), [base, bundle, hospNo]);
}

export const NewSinceOpen = createContext<ReadonlySet<string>>(NONE);

/** "New" beside entries of which one arrived since the review was opened; nothing otherwise. */
export function NewTag({ ids }: { ids: readonly string[] }) {
  const { t } = useLingui();
  const arrived = useContext(NewSinceOpen);
  if (!ids.some((id) => arrived.has(id))) return null;
  return (
    <span className="new-tag" title={t`Arrived since you opened this review`}>
      <Trans>New</Trans>
    </span>
  );
}

/** How many entries arrived since the review was opened, said once where it changes. */
export function NewSinceOpenStatus() {
  const count = useContext(NewSinceOpen).size;
  return (
    <p className="new-since-open" role="status">
      {count > 0 && (
        <Plural
          value={count}
          one="# entry arrived since you opened this review, marked New."
          other="# entries arrived since you opened this review, marked New."
        />
      )}
    </p>
  );
}
