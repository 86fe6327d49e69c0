// The report's words on the server, in the patient's language: the locale's Lingui catalog
// (locales/<locale>/messages.po, read with Lingui's own PO format) compiled with Lingui's message
// compiler, so server and device translate the same descriptors alike. A message a catalog lacks
// (or has untranslated) falls back to its English source; an unknown locale falls back to English.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setupI18n } from '@lingui/core';
import { formatter } from '@lingui/format-po';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Translate } from '../../report/labels.ts';
import { projectRoot } from '../paths.ts';

export const SOURCE_LOCALE = 'en';
const localesDir = path.join(projectRoot, 'locales');

/** Locales with a catalog on disk. */
export function catalogLocales(dir = localesDir): string[] {
  if (!existsSync(dir)) return [SOURCE_LOCALE];
  return readdirSync(dir).filter((l) => existsSync(path.join(dir, l, 'messages.po')));
}

/**
 * The catalog for a requested BCP 47 locale ("es", "es-MX" → es) and the locale Intl formats with
 * (the request itself when valid, so es-MX keeps its own date style); English when there is none.
 */
export function resolveReportLocale(requested: string | undefined, dir = localesDir): { catalog: string; intl: string } {
  let intl: string | undefined;
  try {
    intl = requested ? Intl.getCanonicalLocales(requested)[0] : undefined;
  } catch {
    intl = undefined;
  }
  if (!intl) return { catalog: SOURCE_LOCALE, intl: SOURCE_LOCALE };
  const available = catalogLocales(dir);
  const base = intl.split('-')[0]?.toLowerCase() ?? '';
  if (available.includes(intl)) return { catalog: intl, intl };
  if (available.includes(base)) return { catalog: base, intl };
  // No catalog: English words, and English numbers and dates to match them.
  return { catalog: SOURCE_LOCALE, intl: SOURCE_LOCALE };
}

const translators = new Map<string, Promise<Translate>>();

async function loadTranslator(locale: string, dir: string): Promise<Translate> {
  const file = path.join(dir, locale, 'messages.po');
  const catalog = existsSync(file)
    ? await formatter({ lineNumbers: false }).parse(await readFile(file, 'utf8'), { locale, sourceLocale: SOURCE_LOCALE, filename: file })
    : {};
  const messages: Record<string, ReturnType<typeof compileMessage>> = {};
  for (const [id, entry] of Object.entries(catalog)) {
    if (entry.translation) messages[id] = compileMessage(entry.translation);
  }
  const i18n = setupI18n({ locale, messages: { [locale]: messages } });
  // Untranslated ids fall back to the descriptor's English message, compiled on the fly.
  i18n.setMessagesCompiler(compileMessage);
  return (descriptor, values) => i18n._({ id: descriptor.id, ...(descriptor.message ? { message: descriptor.message } : {}), ...(values ? { values } : {}) });
}

/** A translate function for the report renderer; catalogs are read once per process. */
export function reportTranslator(locale: string, dir = localesDir): Promise<Translate> {
  const key = path.join(dir, locale);
  let t = translators.get(key);
  if (!t) {
    t = loadTranslator(locale, dir);
    translators.set(key, t);
    t.catch(() => translators.delete(key));
  }
  return t;
}
