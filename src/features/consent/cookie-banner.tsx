// The banner on c15t's store. A choice is saved through c15t (its store, its storage, and in remote
// mode the server, with retries and an offline queue); the app's own record is written first, so a
// browser that refuses to store anything leaves nothing half-saved: the banner stays and the error
// is only logged (docs/requirements.md §4).
import { useEffect, useRef, useState } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { log } from '../../../sync/log.ts';
import { useConsentStore, type ConsentStoreApi, type SaveType } from './c15t.ts';
import { PURPOSE_OF } from './consent-config.ts';
import { removeConsentRecord, writeConsentRecord, type ConsentChoice } from './consent-record.ts';
import { choiceFor, CookieBannerView } from './cookie-banner-view.tsx';

/** What the banner shown before c15t loaded was left at: its switches, and the press that loaded c15t. */
export interface BannerHandOver {
  selected: ConsentChoice;
  save: SaveType;
}

export function CookieBanner({ store, handOver }: { store: ConsentStoreApi; handOver?: BannerHandOver | undefined }) {
  const consent = useConsentStore(store);
  const [saving, setSaving] = useState<SaveType | null>(handOver?.save ?? null);
  const started = useRef(false);

  const selected: ConsentChoice = {
    analytics: consent.selectedConsents[PURPOSE_OF.analytics],
    functional: consent.selectedConsents[PURPOSE_OF.functional],
  };

  async function save(type: SaveType, choice: ConsentChoice) {
    setSaving(type);
    let recorded = false;
    try {
      writeConsentRecord(choice);
      recorded = true;
      await consent.saveConsents(type);
    } catch (err) {
      log.error('Saving the cookie preferences failed', err);
      if (recorded) {
        removeConsentRecord();
        consent.resetConsents();
      }
      consent.setActiveUI('banner', { force: true });
    } finally {
      setSaving(null);
    }
  }

  useEffect(() => {
    if (!handOver || started.current) return;
    started.current = true;
    consent.setSelectedConsent(PURPOSE_OF.analytics, handOver.selected.analytics);
    consent.setSelectedConsent(PURPOSE_OF.functional, handOver.selected.functional);
    inBackground(save(handOver.save, choiceFor(handOver.save, handOver.selected)), 'Saving the cookie preferences failed');
  });

  // c15t hides the banner as soon as a save starts; it stays up here until the save is done.
  if (consent.activeUI !== 'banner' && saving === null) return null;
  return (
    <CookieBannerView
      selected={selected}
      saving={saving}
      onToggle={(category, value) => consent.setSelectedConsent(PURPOSE_OF[category], value)}
      onSave={(type) => {
        if (saving === null) inBackground(save(type, choiceFor(type, selected)), 'Saving the cookie preferences failed');
      }}
    />
  );
}
