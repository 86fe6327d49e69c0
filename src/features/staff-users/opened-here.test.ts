import { describe, expect, it } from 'vitest';
import { matchesSearch } from './opened-here.tsx';

describe('matchesSearch (the offline search of the patients opened on this device)', () => {
  const maria = { hospNo: 'HN-100001', name: 'María López' };
  it('finds a part of the name or of the hospital number, in any case', () => {
    expect(matchesSearch(maria, 'lóp')).toBe(true);
    expect(matchesSearch(maria, 'MARÍA')).toBe(true);
    expect(matchesSearch(maria, 'hn-1000')).toBe(true);
    expect(matchesSearch(maria, '  100001 ')).toBe(true);
  });
  it('finds every patient for an empty search and none for another', () => {
    expect(matchesSearch(maria, '')).toBe(true);
    expect(matchesSearch(maria, 'Aisha')).toBe(false);
  });
});
