/// <reference types="vite/client" />

// Lingui catalogs are imported as .po files and compiled by @lingui/vite-plugin.
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
