// Icons render from data bundled with the app (so they work offline and on first paint); an icon that
// is not bundled is fetched once from our own server's icon endpoint.
import { addCollection, Icon as IconifyIcon } from '@iconify/react';
import { bundledIcons, type BundledIconName } from '../lib/ui/icons/bundled-icons.ts';
import { askServerForMissingIcons } from '../lib/ui/icons/custom-icons.ts';

addCollection(bundledIcons);

/**
 * Icons that point along the line of reading ("next", "back", "leave"): in a right-to-left page they
 * are mirrored (styles.css, `.icon--directional`), so "next" still points the way the text goes.
 * Clocks, refresh and vertical arrows do not change.
 */
const DIRECTIONAL = new Set<string>(['mdi:chevron-left', 'mdi:chevron-right', 'mdi:arrow-left', 'mdi:arrow-right', 'mdi:logout', 'mdi:login']);
askServerForMissingIcons();

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
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <IconifyIcon
      icon={icon}
      // `ssr` renders bundled icons in the first render instead of after an effect: no flash.
      ssr
      width={size}
      height={size}
      className={['icon', DIRECTIONAL.has(icon) ? 'icon--directional' : '', className ?? ''].filter(Boolean).join(' ')}
      fallback={<span className="icon" style={{ inlineSize: size, blockSize: size }} aria-hidden />}
      {...a11y}
    />
  );
}
