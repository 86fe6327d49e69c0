// Whether this device's staff member turned severe-low alerts on (issue 18): written by the staff
// area, read by the service worker before it shows an alert. The staff session is kept in the
// page's secure store, which the worker cannot open; this one flag is all it needs. It names no one
// and holds no patient data. Turning alerts off, logging out and a 401 remove it, so an alert that
// the server still sends to a device after that (it is told, but may be offline) is not shown.
import { Dexie, type Table } from 'dexie';

interface Flag {
  id: 'alerts';
  /** When alerts were turned on (ms since epoch). */
  since: number;
}

class StaffAlertsDatabase extends Dexie {
  flags!: Table<Flag, string>;
  constructor() {
    super('eddy-alerts');
    this.version(1).stores({ flags: 'id' });
  }
}

let flagsDb: StaffAlertsDatabase | undefined;
const db = () => (flagsDb ??= new StaffAlertsDatabase());

export async function setStaffAlertsOn(on: boolean): Promise<void> {
  if (on) await db().flags.put({ id: 'alerts', since: Date.now() });
  else await db().flags.delete('alerts');
}

/** A flag that cannot be read counts as off: an alert for nobody is not shown. */
export async function staffAlertsOn(): Promise<boolean> {
  try {
    return (await db().flags.get('alerts')) !== undefined;
  } catch {
    return false;
  }
}
