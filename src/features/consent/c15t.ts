// The one door to c15t 2.x (Apache-2.0). Its type declarations import their own files without
// extensions, which TypeScript's NodeNext resolution (this project's) cannot follow, so every c15t
// type arrives as `any`. The parts the app uses are typed here after the package's dist-types
// (2.2.1: store/type.d.ts, runtime/index.d.ts, libs/cookie/storage.d.ts); the rest of the app
// imports c15t only through this file.
//
// The app uses c15t's core and not its React package (@c15t/react): the banner is the app's own
// markup, and that package's provider only adds, around the same store, the theme CSS and colour
// scheme of c15t's prebuilt components (and 4 KB gzipped). The store is read with React's
// useSyncExternalStore.
import * as c15tCore from 'c15t';
import { useSyncExternalStore } from 'react';

/** c15t's purposes (its `AllConsentNames`). */
export type Purpose = 'necessary' | 'functionality' | 'measurement' | 'experience' | 'marketing';
export type ConsentState = Record<Purpose, boolean>;
export type SaveType = 'all' | 'custom' | 'necessary';
/** What c15t would show (its `ActiveUI`): the app draws only the banner. */
export type ActiveUI = 'none' | 'banner' | 'dialog';

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
  reloadOnConsentRevoked: boolean;
  store: { namespace: string; iframeBlockerConfig: { disableAutomaticBlocking: boolean } };
}
export type ConsentManagerOptions = CommonOptions & ({ mode: 'offline' } | { mode: 'hosted'; backendURL: string });

/** What c15t keeps about the saved choice (its `ConsentInfo`). */
export interface ConsentInfo {
  time: number;
  /** Made on the device at the first save and sent with every save (c15t 2.x). */
  subjectId?: string;
  /** The server's record id, kept by c15t 1.x in remote mode. */
  id?: string;
  materialPolicyFingerprint?: string;
}

/** The store state and actions the app reads (c15t's `ConsentStoreState`, in part). */
export interface ConsentStore {
  consents: ConsentState;
  selectedConsents: ConsentState;
  consentInfo: ConsentInfo | null;
  activeUI: ActiveUI;
  isLoadingConsentInfo: boolean;
  locationInfo: { countryCode: string | null; regionCode: string | null; jurisdiction: string | null } | null;
  setSelectedConsent(name: Purpose, value: boolean): void;
  /** Resolves once the whole save is done: storage, scripts, and in remote mode the server. */
  saveConsents(type: SaveType): Promise<void>;
  setActiveUI(ui: ActiveUI, options?: { force?: boolean }): void;
  resetConsents(): void;
  updateScripts(): { loaded: string[]; unloaded: string[] };
}

/** c15t's store (a zustand vanilla store). */
export interface ConsentStoreApi {
  getState(): ConsentStore;
  setState(partial: Partial<ConsentStore>): void;
  subscribe(listener: (state: ConsentStore) => void): () => void;
}

/** The client and store for these options, made once per page and configuration (c15t caches them). */
export const getOrCreateConsentRuntime: (options: ConsentManagerOptions) => { consentStore: ConsentStoreApi } = c15tCore.getOrCreateConsentRuntime;

/** The store's current state, re-rendering on every change. */
export function useConsentStore(store: ConsentStoreApi): ConsentStore {
  return useSyncExternalStore(store.subscribe, store.getState);
}

export const consentTypes: { name: Purpose; defaultValue: boolean }[] = c15tCore.consentTypes;
export const getConsentFromStorage: (config: { storageKey: string }) => Partial<Pick<ConsentStore, 'consents' | 'consentInfo'>> | null =
  c15tCore.getConsentFromStorage;
/** Writes local storage and the cookie; consentInfo is kept as given (c15t merges it with what is stored). */
export const saveConsentToStorage: (
  data: { consents: Partial<ConsentState>; consentInfo: { time: number } & Record<string, unknown> },
  cookieOptions: undefined,
  config: { storageKey: string },
) => void = c15tCore.saveConsentToStorage;
export const deleteConsentFromStorage: (cookieOptions: undefined, config: { storageKey: string }) => void = c15tCore.deleteConsentFromStorage;
/** c15t's cookie, decoded (its compact key names expanded). */
export const getCookie: <T>(name: string) => T | null = c15tCore.getCookie;
export const generateSubjectId: () => string = c15tCore.generateSubjectId;
