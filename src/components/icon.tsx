// Icons render from data bundled with the app (so they work offline and on first paint); an icon that
// is not bundled is fetched once from our own server's icon endpoint.
import { addCollection, Icon as IconifyIcon } from '@iconify/react';
import { bundledIcons, type BundledIconName } from '../lib/ui/icons/bundled-icons.ts';
import { askServerForMissingIcons } from '../lib/ui/icons/custom-icons.ts';

addCollection(bundledIcons);
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
      className={className ? `icon ${className}` : 'icon'}
      fallback={<span className="icon" style={{ inlineSize: size, blockSize: size }} aria-hidden />}
      {...a11y}
    />
  );
}
