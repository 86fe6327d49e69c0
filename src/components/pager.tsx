import { Trans } from '@lingui/react/macro';
import { Icon } from './icon.tsx';
import './pager.css';

/** Previous / "Page n of m" / Next under a paged list; `label` names the navigation for screen readers. */
export function Pager({ page, pages, label, onPage }: { page: number; pages: number; label: string; onPage: (page: number) => void }) {
  return (
    <nav className="users-pager" aria-label={label}>
      <button type="button" className="button button--secondary button--small" disabled={page <= 1} onClick={() => onPage(Math.max(1, page - 1))}>
        <Icon icon="mdi:chevron-left" /> <Trans>Previous page</Trans>
      </button>
      <p className="users-pager-text" aria-live="polite">
        <Trans>
          Page {page} of {pages}
        </Trans>
      </p>
      <button type="button" className="button button--secondary button--small" disabled={page >= pages} onClick={() => onPage(Math.min(pages, page + 1))}>
        <Trans>Next page</Trans> <Icon icon="mdi:chevron-right" />
      </button>
    </nav>
  );
}
