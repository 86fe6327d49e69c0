// Lingui set-up: which locales exist, which one a visitor gets, and loading its catalog.
import { i18n, type Messages } from '@lingui/core';
import { log } from '../../sync/log.ts';

import { LOCALES, SOURCE_LOCALE, type Locale } from './locales.ts';

export { LANGUAGE_NAMES, LOCALES, SOURCE_LOCALE, type Locale } from './locales.ts';
export const LOCALE_COOKIE = 'i18n_redirected';
const COOKIE_MAX_AGE = 365 * 24 * 3600;

/** Locales written right to left: the page gets dir="rtl" and its layout mirrors. */
const RTL_LOCALES: ReadonlySet<Locale> = new Set(['ar']);
export const isRtl = (locale: string): boolean => RTL_LOCALES.has(locale as Locale);

export const isLocale = (v: unknown): v is Locale => typeof v === 'string' && (LOCALES as readonly string[]).includes(v);

/** The locale of a path with an optional prefix: /es/app → es; /app → undefined. */
export function localeOfPath(pathname: string): Locale | undefined {
  const first = pathname.split('/')[1];
  return isLocale(first) && first !== SOURCE_LOCALE ? first : undefined;
}

export function stripLocale(pathname: string): string {
  const locale = localeOfPath(pathname);
  if (!locale) return pathname;
  const rest = pathname.slice(locale.length + 1);
  return rest === '' ? '/' : rest;
}

export function withLocale(pathname: string, locale: Locale): string {
  if (locale === SOURCE_LOCALE) return pathname;
  return pathname === '/' ? `/${locale}` : `/${locale}${pathname}`;
}

function cookieLocale(): Locale | undefined {
  const m = /(?:^|;\s*)i18n_redirected=([^;]+)/.exec(document.cookie);
  return isLocale(m?.[1]) ? m[1] : undefined;
}

export function rememberLocale(locale: Locale): void {
  document.cookie = `${LOCALE_COOKIE}=${locale}; Max-Age=${COOKIE_MAX_AGE}; Path=/; SameSite=Lax`;
}

/** URL prefix first, then the remembered choice, then the browser's languages, then English. */
export function detectLocale(): Locale {
  const fromPath = localeOfPath(location.pathname);
  if (fromPath) return fromPath;
  const fromCookie = cookieLocale();
  if (fromCookie) return fromCookie;
  for (const lang of navigator.languages ?? [navigator.language]) {
    const base = lang.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return SOURCE_LOCALE;
}

// Each locale's messages come in two catalogs, one chunk each, compiled from the .po files at build
// time: `login` holds what the login pages and the app's shell say (lingui.config.ts lists those
// files), `messages` the rest. The login pages load only the first (the performance budget of the
// login route); every other page loads the rest before it shows (ensureFullCatalog, in the root
// route; offline from the service worker's precache), so no page ever shows a message's id.
export type CatalogPart = 'login' | 'messages';

/** The pages that need only the login part (unprefixed paths, as the router sees them). */
export const LOGIN_PAGES: ReadonlySet<string> = new Set(['/', '/auth', '/admin', '/admin/login']);
const catalogs: Record<CatalogPart, Record<string, () => Promise<{ messages: Messages }>>> = {
  login: import.meta.glob<{ messages: Messages }>('../../locales/*/login.po'),
  messages: import.meta.glob<{ messages: Messages }>('../../locales/*/messages.po'),
};

function importCatalog(locale: Locale, part: CatalogPart): Promise<{ messages: Messages }> {
  const load = catalogs[part][`../../locales/${locale}/${part}.po`];
  return load ? load() : Promise.reject(new Error(`no ${part} catalog for ${locale}`));
}

type CatalogLoader = (locale: Locale, part: CatalogPart) => Promise<{ messages: Messages }>;
let loadCatalog: CatalogLoader = importCatalog;

/** Tests only: stands in for the catalog chunks (e.g. one that fails to load). */
export function setCatalogLoaderForTests(loader: CatalogLoader | undefined): void {
  loadCatalog = loader ?? importCatalog;
  wantFull = false;
  full = undefined;
}

/** The document speaks the active language: `lang` for screen readers and fonts, `dir` for the layout. */
function applyToDocument(locale: string): void {
  document.documentElement.lang = locale;
  document.documentElement.dir = isRtl(locale) ? 'rtl' : 'ltr';
}

/** Whether a page past the login pages was asked for: a change of language then loads both parts. */
let wantFull = false;
/** The second part's loading for the active locale, once started. */
let full: Promise<void> | undefined;

/** The parts of a locale's catalog, merged; the first failure rejects. */
async function loadParts(locale: Locale, parts: readonly CatalogPart[]): Promise<Messages> {
  const loaded = await Promise.all(parts.map((part) => loadCatalog(locale, part)));
  return Object.assign({}, ...loaded.map((c) => c.messages)) as Messages;
}

/**
 * Loads and activates a locale's catalog (the login part, and the rest too once a page past the
 * login pages was shown). A catalog that fails to load (a chunk missing offline, a broken deploy) is
 * logged as "Failed locale loading" (docs/requirements.md §8) and English is shown instead; the remembered choice is
 * then left as it was, so the language comes back once its catalog loads. Resolves to the locale
 * actually active.
 */
export async function activateLocale(locale: Locale): Promise<Locale> {
  const parts: CatalogPart[] = wantFull ? ['login', 'messages'] : ['login'];
  full = undefined;
  try {
    i18n.loadAndActivate({ locale, messages: await loadParts(locale, parts) });
    if (wantFull) full = Promise.resolve();
    // Remembered for a year, so the next visit without a prefix opens in the same language.
    rememberLocale(locale);
  } catch (err) {
    log.error('Failed locale loading', err);
    await activateEnglish(parts);
  }
  applyToDocument(i18n.locale);
  return i18n.locale as Locale;
}

async function activateEnglish(parts: readonly CatalogPart[]): Promise<void> {
  try {
    i18n.loadAndActivate({ locale: SOURCE_LOCALE, messages: await loadParts(SOURCE_LOCALE, parts) });
    if (wantFull) full = Promise.resolve();
  } catch (again) {
    log.error('Failed locale loading', again);
    // Even English failed: the messages' ids are all there is; the page still works.
    i18n.loadAndActivate({ locale: SOURCE_LOCALE, messages: {} });
  }
}

/**
 * The whole catalog of the active locale: loaded once (later calls share the first), added to what
 * the login part gave. A part that fails to load is logged and English stands in for it.
 */
export function ensureFullCatalog(): Promise<void> {
  wantFull = true;
  full ??= (async () => {
    const locale = isLocale(i18n.locale) ? i18n.locale : SOURCE_LOCALE;
    try {
      i18n.load(locale, (await loadCatalog(locale, 'messages')).messages);
    } catch (err) {
      log.error('Failed locale loading', err);
      if (locale !== SOURCE_LOCALE) {
        const english = await loadCatalog(SOURCE_LOCALE, 'messages').catch((again: unknown) => {
          log.error('Failed locale loading', again);
          return undefined;
        });
        // Shown in English rather than as ids; the language comes back with the next load.
        if (english) i18n.load(locale, english.messages);
      }
    }
  })();
  return full;
}

export { i18n };
