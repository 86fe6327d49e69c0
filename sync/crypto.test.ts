import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { decryptJson, decryptString, DecryptionError, destroyDataKey, encryptJson, encryptString, findDataKey, getDataKey } from './crypto.ts';

describe('data key and AES-GCM', () => {
  it('creates one non-extractable key, keeps it across calls and destroys it', async () => {
    const [a, b] = await Promise.all([getDataKey(), getDataKey()]);
    expect(a).toBe(b);
    expect(a.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', a)).rejects.toThrow();
    expect(await findDataKey()).toBeDefined();
    await destroyDataKey();
    expect(await findDataKey()).toBeUndefined();
    const c = await getDataKey();
    expect(c).not.toBe(a);
  });

  it('round-trips, and rejects tampering, a wrong key and a wrong binding', async () => {
    const key = await getDataKey();
    const sealed = await encryptJson(key, { value: 347, type: 'Fasting' }, 'doc-1');
    expect(sealed).not.toContain('347');
    expect(await decryptJson(key, sealed, 'doc-1')).toEqual({ value: 347, type: 'Fasting' });
    // Same plaintext twice gives different ciphertexts (fresh IV).
    expect(await encryptString(key, 'x')).not.toBe(await encryptString(key, 'x'));

    const flipped = sealed.slice(0, 20) + (sealed[20] === 'A' ? 'B' : 'A') + sealed.slice(21);
    await expect(decryptString(key, flipped, 'doc-1')).rejects.toBeInstanceOf(DecryptionError);
    await expect(decryptString(key, sealed, 'doc-2')).rejects.toBeInstanceOf(DecryptionError);
    const other = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    await expect(decryptString(other, sealed, 'doc-1')).rejects.toBeInstanceOf(DecryptionError);
  });
});
