// The app's locales and their names: plain data, with no browser or bundler in it, so the server, the
// scripts and the browser tests can import it too (src/lib/i18n.ts loads the catalogs).
export const LOCALES = ['en', 'es', 'fr', 'hi', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const SOURCE_LOCALE: Locale = 'en';

/** Each language in its own name and script, so a patient finds theirs whatever language is showing. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', es: 'Español', fr: 'Français', hi: 'हिन्दी', ar: 'العربية' };

/** The app's name: a name, the same in every language (the manifest and push titles use it too). */
export const APP_NAME = 'Eddy';
