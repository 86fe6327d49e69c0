import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { CSV_LABELS, TYPE_LABELS } from '../../report/labels.ts';
import { reportTranslate } from './report-translate.ts';

describe('report translate', () => {
  it('uses the catalog where it has the id, English from the descriptor where not, placeholders filled', () => {
    // A compiled catalog entry, as `lingui compile` and the Vite plugin produce them.
    const i18n = setupI18n({ locale: 'es', messages: { es: { [CSV_LABELS.value.id]: ['Valor (', ['unit'], ')'] } } });
    const t = reportTranslate(i18n);
    expect(t(CSV_LABELS.value, { unit: 'mmol/L' })).toBe('Valor (mmol/L)');
    expect(t(TYPE_LABELS.Postprandial)).toBe('Postprandial');
    expect(t({ id: 'x.missing', message: 'Readings: {count}' }, { count: 3 })).toBe('Readings: 3');
  });
});
