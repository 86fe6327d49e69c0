// The time now for what a screen shows relative to it ("upcoming", "expired", "the last 30 days"):
// read when the component first renders and again every `everyMs`, so a screen left open on a ward
// PC does not go stale, and a render stays a pure function of state (React's rules).
import { useEffect, useState } from 'react';

/** Milliseconds since the epoch, refreshed every `everyMs` (a minute by default). */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
