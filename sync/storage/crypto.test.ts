import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { decryptJson, decryptString, DecryptionError, destroyDataKey, encryptJson, encryptString, findDataKey, getDataKey, base64url } from './crypto.ts';

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

describe('IVs', () => {
  it('never repeats an IV, also across refills of the pool they are taken from', async () => {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const sealed = await Promise.all(Array.from({ length: 9000 }, (_, i) => encryptString(key, `reading ${i}`, 'id')));
    // The first 16 characters of base64url(iv ‖ …) are the IV's 12 bytes.
    expect(new Set(sealed.map((s) => s.slice(0, 16))).size).toBe(sealed.length);
    expect(await decryptString(key, sealed[8999] ?? '', 'id')).toBe('reading 8999');
  });
});

describe('base64url', () => {
  it("the codec agrees with Node's base64url for every length and byte", () => {
    for (let length = 0; length <= 70; length++) {
      const bytes = new Uint8Array(length);
      for (let i = 0; i < length; i++) bytes[i] = (i * 151 + length * 17) % 256;
      const text = Buffer.from(bytes).toString('base64url');
      expect(base64url.encode(bytes)).toBe(text);
      expect([...base64url.decode(text)]).toEqual([...bytes]);
    }
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(base64url.encode(all)).toBe(Buffer.from(all).toString('base64url'));
    expect([...base64url.decode(Buffer.from(all).toString('base64url'))]).toEqual([...all]);
  });

  it('refuses text that is not base64url instead of decoding it to other bytes', () => {
    for (const bad of ['abc!', 'ab+c', 'ab/c', 'abcd=', 'a', 'abcde', 'ab c', 'abé0']) expect(() => base64url.decode(bad), bad).toThrow();
    expect([...base64url.decode('')]).toEqual([]);
  });

  it('a corrupted ciphertext is refused, not decoded to something else', async () => {
    const key = await getDataKey();
    const sealed = await encryptString(key, 'x', 'doc-1');
    await expect(decryptString(key, `${sealed}!`, 'doc-1')).rejects.toThrow(DecryptionError);
    await expect(decryptString(key, sealed.slice(0, -1), 'doc-1')).rejects.toThrow(DecryptionError);
  });
});
