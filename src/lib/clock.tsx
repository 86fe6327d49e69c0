// Which clock the patient's screens show times on, for every screen at once: this device's, with
// each time naming its zone when the profile's zone (the reports') differs (src/lib/dates.ts).
import { useLingui } from '@lingui/react/macro';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { deviceTimeZone, profileClockTime, timeFormat, zonesDiffer, type TimeFormat, type TimeStyle } from './dates.ts';

const ProfileZone = createContext<string | undefined>(undefined);

/** Gives the screens below the profile's zone (the patient layout, from the profile on the device). */
export function ProfileZoneProvider({ timeZone, children }: { timeZone: string | undefined; children: ReactNode }) {
  return <ProfileZone value={timeZone}>{children}</ProfileZone>;
}

export interface Clock {
  /** This device's zone, the one every time on the screens is shown in. */
  deviceZone: string;
  /** The profile's zone, the one the reports use; undefined until the profile is on the device. */
  profileZone: string | undefined;
  /** The two differ: every time names its zone, and the dashboard says which clock it shows. */
  differs: boolean;
  /** Times, short and medium dates with times, and full dates with times (appointments), each naming its zone when needed. */
  time: TimeFormat;
  shortDateTime: TimeFormat;
  dateTime: TimeFormat;
  fullDateTime: TimeFormat;
  /** A wall-clock "HH:MM" of the profile's zone (a reminder's meal time), naming that zone when it differs. */
  profileClockTime(hhmm: string): string;
}

/** The formats of times on the patient's screens, in the interface's language. */
export function useClock(): Clock {
  const { i18n } = useLingui();
  const profileZone = useContext(ProfileZone);
  const deviceZone = deviceTimeZone();
  const locale = i18n.locale;
  return useMemo(() => {
    const zones = { device: deviceZone, profile: profileZone };
    const of = (style: TimeStyle) => timeFormat(locale, style, zones);
    return {
      deviceZone,
      profileZone,
      differs: zonesDiffer(deviceZone, profileZone),
      time: of('time'),
      shortDateTime: of('shortDateTime'),
      dateTime: of('dateTime'),
      fullDateTime: of('fullDateTime'),
      profileClockTime: (hhmm: string) => profileClockTime(hhmm, locale, zones),
    };
  }, [locale, deviceZone, profileZone]);
}
