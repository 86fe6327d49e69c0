// A start (a reload, a login) opens the local database, shows the page's data and starts the
// replications, which open a storage of their own per collection and pull. Started at once, they
// compete with the first screen for the one thread that draws it; started once that screen shows
// data (or after at most a second, for a page that reads nothing), they do not delay it, and the
// pull is a moment later (bench: dashboard10kListsMs).

let markShown: () => void = () => undefined;
const shown = new Promise<void>((resolve) => {
  markShown = resolve;
});

/** Called by a screen once it has rendered what the local database holds. */
export function markScreenShown(): void {
  markShown();
}

/** Resolves once a screen has shown local data, or after `maxWaitMs`, whichever comes first. */
export function screenShown(maxWaitMs: number): Promise<void> {
  return Promise.race([shown, new Promise<void>((resolve) => setTimeout(resolve, maxWaitMs))]);
}
