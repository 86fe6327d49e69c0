// The one door to c15t 1.x. Its type declarations import their own files without extensions, which
// TypeScript's NodeNext resolution (this project's) cannot follow, so every c15t type arrives as
// `any`. The parts the app uses are typed here after the package's store.type.d.ts, store.d.ts and
// types/consent-manager.d.ts (1.8.6); the rest of the app imports c15t only through this file.
import * as c15tReact from '@c15t/react/headless';
import * as c15tCore from 'c15t';
import type { ComponentType, ReactNode } from 'react';

/** c15t's purposes (its `AllConsentNames`). */
export type Purpose = 'necessary' | 'functionality' | 'measurement' | 'experience' | 'marketing';
export type ConsentState = Record<Purpose, boolean>;
export type SaveType = 'all' | 'custom' | 'necessary';

export interface C15tScript {
  id: string;
  src: string;
  category: Purpose;
  async?: boolean;
}

export interface C15tCallbacks {
  onConsentSet?: (payload: { preferences: ConsentState }) => void;
  onError?: (payload: { error: string }) => void;
}

interface CommonOptions {
  storageConfig: { storageKey: string };
  consentCategories: Purpose[];
  scripts: C15tScript[];
  callbacks: C15tCallbacks;
  trackingBlockerConfig: { disableAutomaticBlocking: boolean };
  store: { namespace: string; iframeBlockerConfig: { disableAutomaticBlocking: boolean } };
  react: { noStyle: boolean; colorScheme: 'light' | 'dark' | 'system' };
}
export type ConsentManagerOptions = CommonOptions & ({ mode: 'offline' } | { mode: 'c15t'; backendURL: string });

/** The store state and actions the app reads (c15t's `PrivacyConsentState`, in part). */
export interface ConsentStore {
  consents: ConsentState;
  selectedConsents: ConsentState;
  consentInfo: { time: number; type?: string; id?: string } | null;
  showPopup: boolean;
  isLoadingConsentInfo: boolean;
  setSelectedConsent(name: Purpose, value: boolean): void;
  /** Declared `void` by c15t, but it returns the promise of the whole save (network included). */
  saveConsents(type: SaveType): Promise<void>;
  setShowPopup(show: boolean, force?: boolean): void;
  resetConsents(): void;
  updateScripts(): { loaded: string[]; unloaded: string[] };
}

export interface ConsentStoreApi {
  getState(): ConsentStore;
  setState(partial: Partial<ConsentStore>): void;
}

export const ConsentManagerProvider: ComponentType<{ options: ConsentManagerOptions; children?: ReactNode }> = c15tReact.ConsentManagerProvider;
export const useConsentManager: () => ConsentStore = c15tReact.useConsentManager;

export const consentTypes: { name: Purpose; defaultValue: boolean }[] = c15tCore.consentTypes;
export const getConsentFromStorage: (config: { storageKey: string }) => Partial<Pick<ConsentStore, 'consents' | 'consentInfo'>> | null = c15tCore.getConsentFromStorage;
export const deleteConsentFromStorage: (cookieOptions: undefined, config: { storageKey: string }) => void = c15tCore.deleteConsentFromStorage;
