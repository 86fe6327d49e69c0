// Web Bluetooth for the meter import (issue 19): whether this browser has it, and the connection to
// a meter chosen in the browser's own device chooser (which is the pairing: the browser remembers the
// meter for this site). Web Bluetooth is not in TypeScript's DOM library; the little used is typed here.
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { CURRENT_TIME, CURRENT_TIME_SERVICE, GLUCOSE_SERVICE, parseCurrentTime, type MeterTime } from './glucose-profile.ts';
import type { CharacteristicLike, GlucoseServiceLike } from './meter-import.ts';

interface GattService extends GlucoseServiceLike {
  getCharacteristic(uuid: number): Promise<CharacteristicLike & { readValue(): Promise<DataView> }>;
}
interface GattServer {
  readonly connected: boolean;
  connect(): Promise<GattServer>;
  disconnect(): void;
  getPrimaryService(uuid: number): Promise<GattService>;
}
interface BluetoothDeviceLike {
  readonly id: string;
  readonly name?: string | undefined;
  readonly gatt?: GattServer | undefined;
}
interface BluetoothLike {
  getAvailability?(): Promise<boolean>;
  requestDevice(options: { filters: { services: number[] }[]; optionalServices?: number[] }): Promise<BluetoothDeviceLike>;
}

const bluetooth = (): BluetoothLike | undefined =>
  typeof navigator !== 'undefined' ? (navigator as Navigator & { bluetooth?: BluetoothLike }).bluetooth : undefined;

/** Why there is no import here, in one line; undefined when there is. */
export function bluetoothMissing(): MessageDescriptor | undefined {
  if (!bluetooth())
    return msg`Importing from a meter needs Bluetooth in the browser: Chrome or Edge on Android, Windows, macOS or Linux. This browser has none.`;
  if (typeof window !== 'undefined' && !window.isSecureContext) return msg`Importing from a meter needs the app opened over https.`;
  return undefined;
}

export interface ConnectedMeter {
  /** The browser's id for the meter on this site: the same at every connection. */
  id: string;
  name: string | undefined;
  service: GlucoseServiceLike;
  /** The meter's clock now, when it tells it (Current Time Service), to see how far off it is. */
  clock: { meter: MeterTime; readAt: Date } | undefined;
  disconnect(): void;
}

/** Opens the browser's chooser for a glucose meter and connects to the one picked (a click's work). */
export async function connectMeter(): Promise<ConnectedMeter> {
  const bt = bluetooth();
  if (!bt) throw new Error('no Web Bluetooth');
  const device = await bt.requestDevice({ filters: [{ services: [GLUCOSE_SERVICE] }], optionalServices: [CURRENT_TIME_SERVICE] });
  if (!device.gatt) throw new Error('the meter offers no GATT server');
  const server = await device.gatt.connect();
  const service = await server.getPrimaryService(GLUCOSE_SERVICE);
  let clock: ConnectedMeter['clock'];
  try {
    const time = await (await server.getPrimaryService(CURRENT_TIME_SERVICE)).getCharacteristic(CURRENT_TIME);
    clock = { meter: parseCurrentTime(await time.readValue()), readAt: new Date() };
  } catch {
    clock = undefined; // no Current Time Service: the patient may say what the meter's clock shows
  }
  return { id: device.id, name: device.name, service, clock, disconnect: () => server.connected && server.disconnect() };
}
