import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatter } from '@lingui/format-po';
import { parse, type Token } from '@messageformat/parser';
import { describe, expect, it } from 'vitest';
import { LOCALES, localeOfPath, stripLocale, withLocale } from './i18n.ts';

const root = path.resolve(import.meta.dirname, '../..');
// Read with Lingui's own PO reader, so entries wrapped over several lines count like the others.
// A locale's two catalogs (login and the rest, src/lib/i18n.ts) together; a message both use counts once.
const msgids = (locale: string) => {
  const all = new Map<string, string>();
  for (const part of ['login', 'messages']) {
    const file = path.join(root, 'locales', locale, `${part}.po`);
    const po = readFileSync(file, 'utf8');
    const catalog = formatter({ lineNumbers: false }).parse(po, { locale, sourceLocale: 'en', filename: file }) as Record<string, { translation?: string }>;
    for (const [id, entry] of Object.entries(catalog)) {
      const text = entry.translation ?? '';
      // The same message in both catalogs must read the same.
      if (all.has(id) && all.get(id) !== text) throw new Error(`${locale}: "${id}" is translated differently in the two catalogs`);
      all.set(id, text);
    }
  }
  return [...all].map(([id, text]) => ({ id, text }));
};

describe('locales', () => {
  it('are complete: every message of the English catalog is translated in every locale', () => {
    const source = msgids('en').map((m) => m.id);
    expect(source.length).toBeGreaterThan(20);
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const catalog = msgids(locale);
      expect(catalog.map((m) => m.id).sort()).toEqual([...source].sort());
      expect(catalog.filter((m) => m.text === '').map((m) => m.id)).toEqual([]);
    }
  });

  it('keep the placeholders of each message', () => {
    // The arguments of an ICU message, also those inside plural/select branches, but not the branches'
    // own text (`one {Once}` is wording, not a placeholder). Tags like <0> are plain text to the parser.
    const argumentsOf = (tokens: Token[]): string[] =>
      tokens.flatMap((t) => ('arg' in t ? [t.arg, ...('cases' in t ? t.cases.flatMap((c) => argumentsOf(c.tokens)) : [])] : []));
    const placeholders = (s: string) => [...new Set(argumentsOf(parse(s)))].sort();
    // Explicit ids (the report's "report.*" descriptors) are not English text: compare with the English catalog.
    const english = new Map(msgids('en').map((m) => [m.id, m.text || m.id]));
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      for (const m of msgids(locale)) expect(placeholders(m.text), `${locale}: ${m.id}`).toEqual(placeholders(english.get(m.id) ?? m.id));
    }
  });
});

describe('locale-aware paths', () => {
  it('treat the locale prefix as optional and English as unprefixed', () => {
    expect(localeOfPath('/es/app')).toBe('es');
    expect(localeOfPath('/es')).toBe('es');
    expect(localeOfPath('/app')).toBeUndefined();
    expect(localeOfPath('/en/app')).toBeUndefined();
    expect(localeOfPath('/escape')).toBeUndefined();
    expect(stripLocale('/es/app/tests')).toBe('/app/tests');
    expect(stripLocale('/es')).toBe('/');
    expect(stripLocale('/app')).toBe('/app');
    expect(withLocale('/app', 'es')).toBe('/es/app');
    expect(withLocale('/', 'es')).toBe('/es');
    expect(withLocale('/app', 'en')).toBe('/app');
  });

  it('work the same for every locale and every route of docs/requirements.md §2, the staff area included', () => {
    const routes = [
      '/',
      '/auth',
      '/app',
      '/app/tests',
      '/app/profile',
      '/app/reports',
      '/app/symptoms',
      '/admin',
      '/admin/login',
      '/admin/report',
      '/admin/hospital-select',
      '/admin/manage',
    ];
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      for (const route of routes) {
        const prefixed = withLocale(route, locale);
        expect(prefixed).toBe(route === '/' ? `/${locale}` : `/${locale}${route}`);
        expect(localeOfPath(prefixed)).toBe(locale);
        expect(stripLocale(prefixed)).toBe(route);
        expect(localeOfPath(route)).toBeUndefined();
      }
    }
    // A path that merely starts with a locale's letters is not prefixed.
    expect(localeOfPath('/frames')).toBeUndefined();
    expect(localeOfPath('/hi-there')).toBeUndefined();
    expect(localeOfPath('/ar/')).toBe('ar');
  });
});
