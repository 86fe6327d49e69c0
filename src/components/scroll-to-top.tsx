import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';

/**
 * After every navigation the new page starts at its top, at once (docs/requirements.md §2). The router's own scroll
 * restoration is off. A link to an anchor (#section) is left to the browser, which scrolls to it.
 */
export function ScrollToTop() {
  const router = useRouter();
  useEffect(
    () =>
      router.subscribe('onResolved', ({ hrefChanged, toLocation }) => {
        if (hrefChanged && !toLocation.hash) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
      }),
    [router],
  );
  return null;
}
