import { randomBytes } from 'node:crypto';

// Access keys are read off paper and typed on a phone: 20 characters from a 32-symbol alphabet
// without look-alikes (no I, O, 0, 1), in groups of five: 100 bits of randomness.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function randomAccessKey(): string {
  // 256 is a multiple of 32, so `b % 32` is uniform.
  const chars = [...randomBytes(20)].map((b) => ALPHABET[b % 32]).join('');
  return chars.match(/.{5}/g)?.join('-') ?? chars;
}

/** Keys are compared without dashes, spaces or letter case. */
export const normaliseAccessKey = (key: string): string => key.replace(/[\s-]/g, '').toUpperCase();
