import { useEffect } from 'react';

/** Sets "<page> | Eddy - Diabetes Management" while the page is shown. */
export function usePageTitle(page: string): void {
  useEffect(() => {
    document.title = `${page} | Eddy - Diabetes Management`;
  }, [page]);
}
