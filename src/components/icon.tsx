// Icons render from data bundled with the app (so they work offline and on first paint); an icon that
// is not bundled is fetched once from our own server's icon endpoint.
import { useEffect, useState } from 'react';
import { inBackground } from '../../sync/background.ts';
import type { BundledIconName } from '../lib/ui/icons/bundled-icons.ts';
import { registeredIcon, registerIcons, requestIcon } from '../lib/ui/icons/custom-icons.ts';
import { shellIcons } from '../lib/ui/icons/shell-icons.ts';

// The shell's icons draw in the first render; the app's others load before its pages show.
registerIcons(shellIcons);

/**
 * Icons that point along the line of reading ("next", "back", "leave"): in a right-to-left page they
 * are mirrored (styles.css, `.icon--directional`), so "next" still points the way the text goes.
 * Clocks, refresh and vertical arrows do not change.
 */
const DIRECTIONAL = new Set<string>(['mdi:chevron-left', 'mdi:chevron-right', 'mdi:arrow-left', 'mdi:arrow-right', 'mdi:logout', 'mdi:login']);

export interface IconProps {
  /** "mdi:name": a bundled icon, or one registered with loadCustomIcons. */
  icon: BundledIconName | (string & {});
  /** Spoken name; without it the icon is decorative and hidden from screen readers. */
  label?: string;
  /** CSS size; default 1em, i.e. the size of the surrounding text. */
  size?: string | number;
  className?: string;
}

export function Icon({ icon, label, size = '1em', className }: IconProps) {
  const svg = registeredIcon(icon);
  const loaded = svg !== undefined;
  const [, setAnswered] = useState(0);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    inBackground(
      requestIcon(icon).then(() => {
        if (live) setAnswered((n) => n + 1);
      }),
      'Failed to load custom icons',
    );
    return () => {
      live = false;
    };
  }, [icon, loaded]);
  // A labelled icon is an image with that name; any other is decoration, hidden from screen readers.
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  // Until the server answers (or when it has no such icon), an empty box of the icon's size.
  if (!svg) return <span className="icon" style={{ inlineSize: size, blockSize: size }} {...a11y} />;
  // The body is Iconify JSON from the app's bundle or our own server's icon data (never a user's
  // text), drawn as Iconify's own component drew it.
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox={svg.viewBox}
      width={size}
      height={size}
      className={['icon', DIRECTIONAL.has(icon) ? 'icon--directional' : '', className ?? ''].filter(Boolean).join(' ')}
      focusable="false"
      {...a11y}
      dangerouslySetInnerHTML={{ __html: svg.body }}
    />
  );
}
