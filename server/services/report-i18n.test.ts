// Server-side translation of the report: a catalog written the way `lingui extract` writes explicit
// ids, read with Lingui's PO format and compiled with its message compiler.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PDF_LABELS } from '../../report/labels.ts';
import { reportTranslator, resolveReportLocale } from './report-i18n.ts';

function catalogs(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'eddy-locales-'));
  const po = (locale: string, body: string) => {
    mkdirSync(path.join(dir, locale));
    writeFileSync(path.join(dir, locale, 'messages.po'), `msgid ""\nmsgstr ""\n"Language: ${locale}\\n"\n\n${body}`);
  };
  po('en', '#. js-lingui-explicit-id\nmsgid "report.pdf.pageOf"\nmsgstr "Page {page} of {pages}"\n');
  po(
    'es',
    [
      '#. js-lingui-explicit-id\nmsgid "report.pdf.pageOf"\nmsgstr "Página {page} de {pages}"\n',
      '#. js-lingui-explicit-id\nmsgid "report.pdf.title"\nmsgstr "Informe de diabetes"\n',
      '#. js-lingui-explicit-id\nmsgid "report.pdf.average"\nmsgstr ""\n',
      'msgid "Log in"\nmsgstr "Iniciar sesión"\n',
    ].join('\n'),
  );
  return dir;
}

describe('reportTranslator', () => {
  const dir = catalogs();

  it('translates from the locale’s PO catalog, placeholders filled in', async () => {
    const t = await reportTranslator('es', dir);
    expect(t(PDF_LABELS.title)).toBe('Informe de diabetes');
    expect(t(PDF_LABELS.pageOf, { page: 2, pages: 5 })).toBe('Página 2 de 5');
  });

  it('falls back to the English source for untranslated and missing messages', async () => {
    const t = await reportTranslator('es', dir);
    expect(t(PDF_LABELS.average)).toBe('Average glucose'); // msgstr ""
    expect(t(PDF_LABELS.periodValue, { from: 'a', to: 'b', days: 3 })).toBe('a – b (3 days)'); // not in the catalog
  });

  it('resolves the catalog and the formatting locale', () => {
    expect(resolveReportLocale('es', dir)).toEqual({ catalog: 'es', intl: 'es' });
    expect(resolveReportLocale('es-MX', dir)).toEqual({ catalog: 'es', intl: 'es-MX' });
    expect(resolveReportLocale('en-GB', dir)).toEqual({ catalog: 'en', intl: 'en-GB' });
    expect(resolveReportLocale('fr', dir)).toEqual({ catalog: 'en', intl: 'en' });
    expect(resolveReportLocale(undefined, dir)).toEqual({ catalog: 'en', intl: 'en' });
    expect(resolveReportLocale('%%%', dir)).toEqual({ catalog: 'en', intl: 'en' });
  });

  it('reads the project’s own catalogs', async () => {
    const t = await reportTranslator('en');
    expect(t(PDF_LABELS.pageOf, { page: 1, pages: 1 })).toBe('Page 1 of 1');
  });
});
