import { BroadcastChannel } from 'broadcast-channel';
import { describe, expect, it } from 'vitest';
import { deliverCrossTabMessagesWhateverTheClock } from './cross-tab.ts';

// Two tabs of one device, as RxDB's cross-tab change events see them. Seed 215329923 of the
// randomized fault runs: after the device clock went back, a tab opened later posted messages
// stamped before the older tab's listener, which dropped them all.

async function heardAfterClockGoesBack(): Promise<string[]> {
  const name = `cross-tab-${Math.random()}`;
  const older = new BroadcastChannel<string>(name, { type: 'native' });
  const heard: string[] = [];
  older.addEventListener('message', (m) => void heard.push(m));
  await new Promise((r) => setTimeout(r, 20));
  // The clock goes 5 hours back; a tab opened afterwards posts a change. Each tab has its own copy
  // of the package, so its stamp is its own Date.now(): what it puts on the wire is sent here as is.
  const newer = new globalThis.BroadcastChannel(name);
  newer.postMessage({ time: (Date.now() - 5 * 3600_000) * 1000, type: 'message', data: 'meal time changed' });
  await new Promise((r) => setTimeout(r, 100));
  newer.close();
  await older.close();
  return heard;
}

describe('cross-tab messages', () => {
  it('without the fix, the package drops a message from a tab whose clock is behind (guards the premise)', async () => {
    expect(await heardAfterClockGoesBack()).toEqual([]);
  });

  it('are delivered whatever the tabs’ clocks say', async () => {
    deliverCrossTabMessagesWhateverTheClock();
    expect(await heardAfterClockGoesBack()).toEqual(['meal time changed']);
  });
});
