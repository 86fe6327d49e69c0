// Lingui set-up: which locales exist, which one a visitor gets, and loading its catalog.
import { i18n, type Messages } from '@lingui/core';
import { log } from '../../sync/log.ts';

export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const SOURCE_LOCALE: Locale = 'en';
export const LOCALE_COOKIE = 'i18n_redirected';
const COOKIE_MAX_AGE = 365 * 24 * 3600;

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

const loaders: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import('../../locales/en/messages.po'),
  es: () => import('../../locales/es/messages.po'),
};

const RTL = new Set<string>(['ar', 'he', 'fa', 'ur']);

export async function activateLocale(locale: Locale): Promise<void> {
  try {
    const { messages } = await loaders[locale]();
    i18n.loadAndActivate({ locale, messages });
    // Remembered for a year, so the next visit without a prefix opens in the same language.
    rememberLocale(locale);
  } catch (err) {
    log.error('Failed locale loading', err);
    if (locale !== SOURCE_LOCALE) return activateLocale(SOURCE_LOCALE);
    i18n.loadAndActivate({ locale: SOURCE_LOCALE, messages: {} });
  }
  document.documentElement.lang = i18n.locale;
  document.documentElement.dir = RTL.has(i18n.locale) ? 'rtl' : 'ltr';
}

export { i18n };
