// Which language a visitor gets, how it is remembered, what the document says about it, and what
// happens when a catalog cannot be loaded (docs/requirements.md §8 "Failed locale loading", §9 locale cookie).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  activateLocale,
  detectLocale,
  ensureFullCatalog,
  i18n,
  isRtl,
  LANGUAGE_NAMES,
  LOCALE_COOKIE,
  LOCALES,
  rememberLocale,
  setCatalogLoaderForTests,
  type CatalogPart,
  type Locale,
} from './i18n.ts';

// The login part says hello; the rest of the catalog says goodbye.
const catalog = (locale: Locale, part: CatalogPart = 'login') => ({
  messages: part === 'login' ? { greeting: [`hello in ${locale}`] } : { farewell: [`goodbye in ${locale}`] },
});
let cookieWrites: string[];

function setBrowserLanguages(languages: string[]): void {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
}
function clearCookie(): void {
  document.cookie = `${LOCALE_COOKIE}=; Max-Age=0; Path=/`;
}

beforeEach(() => {
  clearCookie();
  window.history.replaceState(null, '', '/');
  cookieWrites = [];
  const desc = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  vi.spyOn(document, 'cookie', 'set').mockImplementation((v: string) => {
    cookieWrites.push(v);
    desc?.set?.call(document, v);
  });
  setCatalogLoaderForTests((locale, part) => Promise.resolve(catalog(locale, part)));
});
afterEach(() => {
  vi.restoreAllMocks();
  setCatalogLoaderForTests(undefined);
});

describe('the first visit', () => {
  it("follows the browser's languages, the first one the app has, else English", () => {
    setBrowserLanguages(['hi-IN', 'en-GB']);
    expect(detectLocale()).toBe('hi');
    setBrowserLanguages(['de-DE', 'ar-EG', 'fr']);
    expect(detectLocale()).toBe('ar');
    setBrowserLanguages(['fr-CA']);
    expect(detectLocale()).toBe('fr');
    setBrowserLanguages(['de', 'ja']);
    expect(detectLocale()).toBe('en');
  });

  it('gives the address prefix the first word, then the remembered choice, then the browser', () => {
    setBrowserLanguages(['es-ES']);
    rememberLocale('ar');
    expect(detectLocale()).toBe('ar');
    window.history.replaceState(null, '', '/fr/admin/report');
    expect(detectLocale()).toBe('fr');
    window.history.replaceState(null, '', '/en/app');
    expect(detectLocale()).toBe('ar');
  });
});

describe('activating a locale', () => {
  it('remembers the choice for a year in i18n_redirected (SameSite=Lax) and sets <html lang dir>', async () => {
    for (const locale of LOCALES) {
      await expect(activateLocale(locale)).resolves.toBe(locale);
      expect(i18n.locale).toBe(locale);
      expect(i18n._('greeting')).toBe(`hello in ${locale}`);
      expect(document.documentElement.lang).toBe(locale);
      expect(document.documentElement.dir).toBe(locale === 'ar' ? 'rtl' : 'ltr');
      expect(cookieWrites.at(-1)).toBe(`i18n_redirected=${locale}; Max-Age=31536000; Path=/; SameSite=Lax`);
      expect(detectLocale()).toBe(locale);
    }
  });

  it('logs "Failed locale loading" and falls back to English when a catalog does not load', async () => {
    await activateLocale('es');
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setCatalogLoaderForTests((locale, part) =>
      locale === 'ar' ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve(catalog(locale, part)),
    );
    await expect(activateLocale('ar')).resolves.toBe('en');
    expect(error).toHaveBeenCalledWith('Failed locale loading', expect.any(TypeError));
    expect(i18n.locale).toBe('en');
    expect(i18n._('greeting')).toBe('hello in en');
    expect(document.documentElement.lang).toBe('en');
    expect(document.documentElement.dir).toBe('ltr');
    // The patient's choice stays as it was: Spanish comes back on the next visit, not English.
    expect(cookieWrites.at(-1)).toBe('i18n_redirected=es; Max-Age=31536000; Path=/; SameSite=Lax');
  });

  it('still gives a working page when even English fails: the messages fall back to their ids', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setCatalogLoaderForTests(() => Promise.reject(new Error('offline')));
    await expect(activateLocale('hi')).resolves.toBe('en');
    expect(error.mock.calls.map((c) => c[0])).toEqual(['Failed locale loading', 'Failed locale loading']);
    expect(i18n.locale).toBe('en');
    expect(i18n._('greeting')).toBe('greeting');
  });
});

describe('the two parts of a catalog', () => {
  it('gives the login pages only the login part; the rest comes once another page asks for it', async () => {
    const asked: string[] = [];
    setCatalogLoaderForTests((locale, part) => {
      asked.push(`${locale}/${part}`);
      return Promise.resolve(catalog(locale, part));
    });
    await activateLocale('fr');
    expect(asked).toEqual(['fr/login']);
    expect(i18n._('farewell')).toBe('farewell'); // not loaded yet: only the login pages show
    const rendered = vi.fn();
    const stop = i18n.on('change', rendered);
    await Promise.all([ensureFullCatalog(), ensureFullCatalog()]);
    stop();
    expect(asked).toEqual(['fr/login', 'fr/messages']); // once, however many pages ask
    expect(rendered).toHaveBeenCalled(); // the screens render again with the new messages
    expect([i18n._('greeting'), i18n._('farewell')]).toEqual(['hello in fr', 'goodbye in fr']);
    // A change of language after that loads both parts before it shows.
    await activateLocale('hi');
    expect(asked.slice(2).sort()).toEqual(['hi/login', 'hi/messages']);
    expect([i18n._('greeting'), i18n._('farewell')]).toEqual(['hello in hi', 'goodbye in hi']);
  });

  it('shows the rest in English, never as ids, when its part of the chosen language does not load', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setCatalogLoaderForTests((locale, part) =>
      locale === 'es' && part === 'messages' ? Promise.reject(new Error('offline')) : Promise.resolve(catalog(locale, part)),
    );
    await activateLocale('es');
    await ensureFullCatalog();
    expect(error).toHaveBeenCalledWith('Failed locale loading', expect.any(Error));
    expect(i18n.locale).toBe('es');
    expect([i18n._('greeting'), i18n._('farewell')]).toEqual(['hello in es', 'goodbye in en']);
  });
});

describe('languages', () => {
  it('are each named in themselves; only Arabic is written right to left', () => {
    expect(LOCALES.map((l) => LANGUAGE_NAMES[l])).toEqual(['English', 'Español', 'Français', 'हिन्दी', 'العربية']);
    expect(LOCALES.filter(isRtl)).toEqual(['ar']);
  });
});
