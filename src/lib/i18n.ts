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

// One chunk per catalog, loaded on demand (the lingui plugin compiles the .po files at build time).
const catalogs = import.meta.glob<{ messages: Messages }>('../../locales/*/messages.po');

function importCatalog(locale: Locale): Promise<{ messages: Messages }> {
  const load = catalogs[`../../locales/${locale}/messages.po`];
  return load ? load() : Promise.reject(new Error(`no catalog for ${locale}`));
}

type CatalogLoader = (locale: Locale) => Promise<{ messages: Messages }>;
let loadCatalog: CatalogLoader = importCatalog;

/** Tests only: stands in for the catalog chunks (e.g. one that fails to load). */
export function setCatalogLoaderForTests(loader: CatalogLoader | undefined): void {
  loadCatalog = loader ?? importCatalog;
}

/** The document speaks the active language: `lang` for screen readers and fonts, `dir` for the layout. */
function applyToDocument(locale: string): void {
  document.documentElement.lang = locale;
  document.documentElement.dir = isRtl(locale) ? 'rtl' : 'ltr';
}

/**
 * Loads and activates a locale's catalog. A catalog that fails to load (a chunk missing offline, a
 * broken deploy) is logged as "Failed locale loading" (spec §8) and English is shown instead; the
 * remembered choice is then left as it was, so the language comes back once its catalog loads.
 * Resolves to the locale actually active.
 */
export async function activateLocale(locale: Locale): Promise<Locale> {
  try {
    const { messages } = await loadCatalog(locale);
    i18n.loadAndActivate({ locale, messages });
    // Remembered for a year, so the next visit without a prefix opens in the same language.
    rememberLocale(locale);
  } catch (err) {
    log.error('Failed locale loading', err);
    if (locale === SOURCE_LOCALE) {
      // Even English failed: the messages' ids are all there is; the page still works.
      i18n.loadAndActivate({ locale: SOURCE_LOCALE, messages: {} });
    } else {
      try {
        i18n.loadAndActivate({ locale: SOURCE_LOCALE, messages: (await loadCatalog(SOURCE_LOCALE)).messages });
      } catch (again) {
        log.error('Failed locale loading', again);
        i18n.loadAndActivate({ locale: SOURCE_LOCALE, messages: {} });
      }
    }
  }
  applyToDocument(i18n.locale);
  return i18n.locale as Locale;
}

export { i18n };
