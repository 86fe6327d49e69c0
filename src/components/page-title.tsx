import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';

/** Sets "<page> | Eddy - Diabetes Management" (docs/requirements.md §1) while the page is shown. */
export function usePageTitle(page: string): void {
  const { t } = useLingui();
  const title = t`${page} | Eddy - Diabetes Management`;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
