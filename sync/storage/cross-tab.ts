// RxDB tells the app's other tabs of each write (and the tab that leads replication learns of a
// change made elsewhere only this way) over the `broadcast-channel` package. That package stamps
// each message with the sender's Date.now() and drops, on the receiving side, every message stamped
// before the moment the listener was added. On one device that is a clock comparison across tabs:
// once the device clock goes back (a patient or the network correcting the time), every change
// made in a tab opened after that was dropped by a tab opened before it. When the older tab led the
// replication, those changes were never sent (a meal time set in a reloaded tab, with the clock 5 h
// behind, stayed on the device). With the browser's own
// BroadcastChannel, which the package uses wherever it exists, a listener only ever receives
// messages posted after it was added, so the stamp adds nothing: listeners here take every message.
import { BroadcastChannel } from 'broadcast-channel';

interface ListenerEntry {
  fn: unknown;
  time: number;
}

interface ChannelInternals {
  _addEL?: Record<string, ListenerEntry[] | undefined>;
}

let installed = false;

/** Makes cross-tab listeners (RxDB's) receive messages whatever the clocks of the tabs say. Idempotent. */
export function deliverCrossTabMessagesWhateverTheClock(): void {
  if (installed) return;
  installed = true;
  // eslint-disable-next-line no-restricted-syntax -- the channel's undocumented internals (see above), which no type describes
  const proto = BroadcastChannel.prototype as unknown as ChannelInternals & { addEventListener(type: string, fn: unknown): void };
  const add = proto.addEventListener;
  proto.addEventListener = function (this: ChannelInternals, type: string, fn: unknown): void {
    add.call(this, type, fn);
    const listeners = this._addEL?.[type];
    // The package's internals changed: fail loudly rather than drop messages silently again.
    if (!listeners) throw new Error('broadcast-channel: listener list not found; review sync/storage/cross-tab.ts');
    for (const l of listeners) if (l.fn === fn) l.time = Number.NEGATIVE_INFINITY;
  };
}
