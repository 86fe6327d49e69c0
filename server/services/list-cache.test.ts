import { describe, expect, it } from 'vitest';
import { ListCache } from './list-cache.ts';

const bytes = (n: number, fill = 'x') => Buffer.from(fill.repeat(n));

describe('ListCache', () => {
  it('gives back a list only for the stamp it was made at', () => {
    const cache = new ListCache(1000);
    cache.set('glucose:p1', '3:7:9', bytes(10));
    expect(cache.get('glucose:p1', '3:7:9')?.toString()).toBe('x'.repeat(10));
    expect(cache.get('glucose:p1', '4:8:10')).toBeUndefined();
    expect(cache.get('glucose:p2', '3:7:9')).toBeUndefined();
    cache.set('glucose:p1', '4:8:10', bytes(20, 'y'));
    expect(cache.get('glucose:p1', '3:7:9')).toBeUndefined();
    expect(cache.get('glucose:p1', '4:8:10')?.toString()).toBe('y'.repeat(20));
    expect(cache.bytes).toBe(20);
  });

  it('keeps within its bytes by dropping the least recently used lists', () => {
    const cache = new ListCache(100);
    cache.set('a', 's', bytes(25));
    cache.set('b', 's', bytes(25));
    cache.set('c', 's', bytes(25));
    cache.set('d', 's', bytes(25));
    expect(cache.bytes).toBe(100);
    // a is used, so b is now the oldest.
    expect(cache.get('a', 's')).toBeDefined();
    cache.set('e', 's', bytes(25));
    expect(cache.bytes).toBe(100);
    expect(cache.get('b', 's')).toBeUndefined();
    for (const k of ['a', 'c', 'd', 'e']) expect(cache.get(k, 's')).toBeDefined();
  });

  it('does not keep a list larger than a quarter of it, and with no bytes keeps nothing', () => {
    const cache = new ListCache(100);
    cache.set('big', 's', bytes(26));
    expect(cache.get('big', 's')).toBeUndefined();
    expect(cache.bytes).toBe(0);
    const none = new ListCache(0);
    none.set('a', 's', bytes(1));
    expect(none.get('a', 's')).toBeUndefined();
  });
});
