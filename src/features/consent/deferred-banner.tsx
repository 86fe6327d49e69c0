// The banner before c15t has loaded. Most app starts need no consent manager at all (a choice is
// saved, and in offline mode nothing else is to be done), and c15t is the biggest part of the banner,
// so on a first visit it loads only once the person starts to answer (a touch, a key, focus inside
// the sheet) and takes over at the press of a button, which then shows "Saving..." until c15t saved.
import { useState } from 'react';
import { inBackground } from '../../../sync/background.ts';
import type { SaveType } from './c15t.ts';
import type { ConsentChoice } from './consent-record.ts';
import { CookieBannerView } from './cookie-banner-view.tsx';

export function DeferredBanner({ onInteract, onSave }: { onInteract(): void; onSave(selected: ConsentChoice, type: SaveType): Promise<void> }) {
  const [selected, setSelected] = useState<ConsentChoice>({ analytics: false, functional: false });
  const [saving, setSaving] = useState<SaveType | null>(null);
  return (
    <CookieBannerView
      selected={selected}
      saving={saving}
      onInteract={onInteract}
      onToggle={(category, value) => setSelected((s) => ({ ...s, [category]: value }))}
      onSave={(type) => {
        if (saving !== null) return;
        setSaving(type);
        // Resolves when c15t has taken over; if it cannot load, the banner stays and can be pressed again.
        inBackground(
          onSave(selected, type).finally(() => setSaving(null)),
          'Saving the cookie preferences failed',
        );
      }}
    />
  );
}
