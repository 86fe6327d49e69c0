import { I18nProvider } from '@lingui/react';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { inBackground } from '../sync/background.ts';
import { activateLocale, detectLocale, i18n, stripLocale } from './lib/i18n.ts';
import { preloadPatientCode } from './lib/preload.ts';
import { onReplayDone, startPwa } from './lib/pwa.ts';
import { RuntimeProvider } from './lib/runtime-context.tsx';
import { createRuntime } from './lib/runtime.ts';
import { createStaffRuntime } from './lib/staff-runtime.ts';
import { createAppRouter } from './router.tsx';
import './styles.css';

/** Auto-login is skipped on the staff and entry routes (docs/requirements.md §2). */
const AUTO_LOGIN_SKIPPED = ['/auth', '/admin', '/admin/login'];
const AUTO_LOGIN_DELAY_MS = 500;

// The app's one patient runtime and one staff runtime, made here and nowhere else: the screens reach
// them through RuntimeProvider, the routes through the router's context.
const runtime = createRuntime();
const staffRuntime = createStaffRuntime();
const router = createAppRouter({ runtime, staffRuntime });

async function start(): Promise<void> {
  // A patient's page opened again (a reload, a return from the home screen): its code is fetched
  // while the locale and the stored session are read, where it waited for the session before.
  const opened = stripLocale(location.pathname);
  if (opened === '/app' || opened.startsWith('/app/')) preloadPatientCode(router, opened);
  await activateLocale(detectLocale());
  runtime.setOnSessionExpired(() => inBackground(router.navigate({ to: '/' }), 'Opening the login page failed'));
  staffRuntime.setOnExpired(() => inBackground(router.navigate({ to: '/admin' }), 'Opening the staff login page failed'));
  const path = stripLocale(location.pathname);
  if (!AUTO_LOGIN_SKIPPED.some((p) => path === p || path.startsWith(`${p}/`))) {
    setTimeout(() => inBackground(runtime.ensureRestored(), 'Restoring the stored session failed'), AUTO_LOGIN_DELAY_MS);
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <RuntimeProvider runtime={runtime} staffRuntime={staffRuntime}>
          <RouterProvider router={router} />
        </RuntimeProvider>
      </I18nProvider>
    </StrictMode>,
  );
}

startPwa();
// The service worker replayed queued writes while this page was away: refresh from the server, and
// settle what it had refused (the refused list itself is read from the outbox).
onReplayDone((done) => {
  // A 401 met by the worker: the page's own send meets it too and locks now, not at its next send
  // (issue 45: the dashboard stayed usable, "Sending your entries…", until the app was opened again).
  if (done.sent > 0 || done.rejected > 0 || done.unauthorized) inBackground(runtime.syncNow({ announce: false }), 'sync failed');
});
inBackground(start(), 'The app could not start');
