// A prescription's dose as written ("1-0-1", "0-½-0 after meals", "10 units"). A morning-noon-night
// pattern is one thing to read: a narrow screen must not break it at a hyphen ("1-" / "0-1"), which
// reads as two doses. Each word that holds a hyphen is kept whole; the rest wraps as text does.
import { Fragment } from 'react';

export function DoseText({ dose }: { dose: string }) {
  const parts = dose.split(/(\s+)/);
  return (
    <>
      {parts.map((part, i) =>
        part.includes('-') ? (
          // The index is the key: the parts of one dose never reorder.
          <span key={i} className="dose-pattern">
            {part}
          </span>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
