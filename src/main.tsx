import { I18nProvider } from '@lingui/react';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { activateLocale, detectLocale, i18n } from './lib/i18n.ts';
import { router } from './router.tsx';
import './styles.css';

async function start(): Promise<void> {
  await activateLocale(detectLocale());
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nProvider>
    </StrictMode>,
  );
}

void start();
