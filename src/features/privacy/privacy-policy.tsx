// What Eddy keeps on the device and on the hospital's server, and why, in plain words (the banner's
// Privacy Policy link, docs/requirements.md §2). Keep it true: when the app starts storing something new, say so here.
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import './privacy.css';

function Item({ what, why }: { what: ReactNode; why: ReactNode }) {
  return (
    <li>
      <strong>{what}</strong> {why}
    </li>
  );
}

export function PrivacyPolicy() {
  return (
    <>
      <p className="privacy-intro">
        <Trans>Eddy is your hospital's app for diabetes care. This page explains what it keeps on this device and on the hospital's server, and why.</Trans>
      </p>

      <section className="card" aria-labelledby="privacy-device">
        <h2 id="privacy-device">
          <Trans>On this device</Trans>
        </h2>
        <ul className="privacy-list">
          <Item
            what={<Trans>Your health records.</Trans>}
            why={
              <Trans>
                Glucose readings, symptoms, medicines, lab tests, appointments and your profile, in the browser's database, encrypted with a key that cannot be
                read out of this browser. So that the app works without internet.
              </Trans>
            }
          />
          <Item
            what={<Trans>Changes not sent yet.</Trans>}
            why={
              <Trans>
                What you enter without a connection waits here, encrypted the same way, and is sent once you are online. So that nothing you enter is lost.
              </Trans>
            }
          />
          <Item
            what={<Trans>Your sign-in.</Trans>}
            why={
              <Trans>Sealed with the same key, for up to 7 days, so that you stay logged in. Logging out deletes it and your records from this device.</Trans>
            }
          />
          <Item
            what={<Trans>A device number.</Trans>}
            why={<Trans>A random number that tells your devices apart when you sign in. It says nothing about you.</Trans>}
          />
          <Item
            what={<Trans>Reminder subscription.</Trans>}
            why={
              <Trans>
                Only if you turn reminders on: the address your browser's push service gave this device, so that the hospital can send medicine and glucometer
                reminders. Turning reminders off removes it.
              </Trans>
            }
          />
          <Item what={<Trans>Language cookie (i18n_redirected).</Trans>} why={<Trans>Remembers the language you chose, for 365 days.</Trans>} />
          <Item
            what={<Trans>Your cookie choice (eddy-cookie-consent and c15t-consent).</Trans>}
            why={<Trans>Remembers your answer to the cookie question, so that it is not asked on every visit. "Cookie preferences" below removes it.</Trans>}
          />
          <Item
            what={<Trans>Small settings.</Trans>}
            why={<Trans>Your glucose unit, the time of the last synchronisation, and whether you closed the install or reminder offers.</Trans>}
          />
          <Item what={<Trans>The app itself.</Trans>} why={<Trans>Its pages and code are kept by the browser, so that Eddy opens without internet.</Trans>} />
        </ul>
      </section>

      <section className="card" aria-labelledby="privacy-server">
        <h2 id="privacy-server">
          <Trans>On the hospital's server</Trans>
        </h2>
        <ul className="privacy-list">
          <Item
            what={<Trans>Your account and records.</Trans>}
            why={
              <Trans>
                Hospital number, name, gender, age and address, your password only as a one-way code, and the readings and records the app sends. So that your
                care team can see them and nothing is lost with your phone.
              </Trans>
            }
          />
          <Item
            what={<Trans>Sign-ins.</Trans>}
            why={<Trans>Sessions and one-time codes, stored only as one-way codes, with the device number. So that only you can use your account.</Trans>}
          />
          <Item
            what={<Trans>Reminders.</Trans>}
            why={<Trans>Your meal times, glucometer days and reminder subscriptions, to send reminders at the right time.</Trans>}
          />
          <Item
            what={<Trans>Who opened your records.</Trans>}
            why={
              <Trans>
                Every time a doctor or administrator opens your data: who, when and from which internet address. So that every access can be checked.
              </Trans>
            }
          />
          <Item
            what={<Trans>Cookie choices.</Trans>}
            why={
              <Trans>
                If the hospital keeps proof of consent: your choice, its time, a random code your device made for it, and a code made from your internet address
                that cannot be turned back into the address.
              </Trans>
            }
          />
          <Item
            what={<Trans>Counters against password guessing.</Trans>}
            why={<Trans>How many attempts came from an internet address in the last minute.</Trans>}
          />
        </ul>
      </section>

      <section className="card" aria-labelledby="privacy-cookies">
        <h2 id="privacy-cookies">
          <Trans>Analytics and functional cookies</Trans>
        </h2>
        <p>
          <Trans>
            Eddy uses neither today, and sends nothing to other companies. If the hospital adds such a service, it runs only when you allow it on the cookie
            banner, and stops when you withdraw.
          </Trans>
        </p>
      </section>
    </>
  );
}
