/// <reference types="vite/client" />

// Lingui catalogs are imported as .po files and compiled by @lingui/vite-plugin.
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}

interface ImportMetaEnv {
  /** "remote" records cookie-consent choices on the server too (src/features/consent/consent-config.ts). */
  readonly VITE_CONSENT_MODE?: string;
}
