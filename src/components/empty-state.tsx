// What an empty list says: that nothing is there yet, and what to do about it.
import type { ReactNode } from 'react';
import type { BundledIconName } from '../lib/ui/icons/bundled-icons.ts';
import { Icon } from './icon.tsx';

export function EmptyState({ icon, children }: { icon: BundledIconName; children: ReactNode }) {
  return (
    <div className="empty-state">
      <Icon icon={icon} className="empty-state-icon" />
      <p>{children}</p>
    </div>
  );
}
