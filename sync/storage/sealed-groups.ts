// Documents sealed together (docs/architecture.md §4 "On the device"). One WebCrypto call per
// document was the floor of what encryption at rest cost a screen and a first pull (bench:
// encryptedQueryRatio, firstSync10kMs): each call hops to the browser's crypto thread and back.
// So a large write seals its documents in groups, one AES-GCM ciphertext per group, and each row's
// sealed field holds a reference into its group instead of its own ciphertext. Where the groups are
// kept is the inner storage's business (dexie-bulk-read.ts keeps them beside the rows and writes
// them in the same transaction); this module is what the encryption wrapper and that storage share.

/**
 * The stored field that holds the encrypted paths of a document. One underscore: schema fields of
 * the app cannot start with one (RxDB reserves them), and RxDB's Dexie storage renames fields that
 * start with two.
 */
export const SEALED_FIELD = '_sealed';

/** Marks a sealed field that refers into a group; never the first character of base64url. */
const REF_MARK = '~';

/** Where the inner storage keeps the groups of one storage instance. */
export interface SealedGroupStore {
  /** A group to be stored by the write of the rows that refer to it, in that write's transaction. */
  stage(groupId: string, sealed: string): void;
  /** Forgets a staged group once its write has ended (stored or not). */
  unstage(groupId: string): void;
  /** Stored groups' ciphertexts, in order (read together), each undefined when no row refers to it any more. */
  read(groupIds: readonly string[]): Promise<(string | undefined)[]>;
}

const stores = new WeakMap<object, SealedGroupStore>();

/** Called by a storage that can keep groups, for each instance it creates. */
export function provideSealedGroups(instance: object, store: SealedGroupStore): void {
  stores.set(instance, store);
}

export function sealedGroupsOf(instance: object): SealedGroupStore | undefined {
  return stores.get(instance);
}

/** A fresh group id: random, so a group is never written twice and never reused. */
export const newGroupId = (): string => crypto.randomUUID().replaceAll('-', '');

export const groupRef = (groupId: string, index: number): string => `${REF_MARK}${groupId}.${index}`;

/** The group and position a sealed field refers to, or undefined for a document sealed alone. */
export function parseGroupRef(sealed: unknown): { groupId: string; index: number } | undefined {
  if (typeof sealed !== 'string' || !sealed.startsWith(REF_MARK)) return undefined;
  const dot = sealed.lastIndexOf('.');
  const index = Number(sealed.slice(dot + 1));
  if (dot < 2 || !Number.isSafeInteger(index) || index < 0) return undefined;
  return { groupId: sealed.slice(REF_MARK.length, dot), index };
}

/** The additional data a group is sealed with: its own id, so a group cannot pass for another. */
export const groupAdditionalData = (groupId: string): string => `\u0000group:${groupId}`;
