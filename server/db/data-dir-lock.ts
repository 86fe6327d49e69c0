// The embedded database (PGlite) belongs to one process: two processes that open the same data folder
// corrupt it for good (issue 45: two `npm start` seconds apart left a database that never opened
// again). Before anything opens the folder, a process takes `DATA_DIR/eddy.lock`; a second one is
// refused with who holds it, and each process removes only the lock it took.
//
// Why by hand: no lock library for Node takes an OS lock without a native build, and the common one
// (proper-lockfile) decides staleness by a timestamp it refreshes from a timer, which PGlite stalls
// while it works (its WebAssembly runs on the main thread): a slow migration would hand the folder
// over while its owner still writes. Here a lock is stale only when its owner is provably gone.
//
// The protocol, every step one system call that either wins or fails for all processes at once:
// - take: the lock's content is written to a file of our own, then hard-linked to `eddy.lock`:
//   link() fails if the name exists, and a reader never sees a half-written lock;
// - held by a live process: refused (DatabaseInUseError);
// - left by a dead process (killed, a power cut): whoever first creates `eddy.lock.takeover-<its
//   token>`, by the same exclusive link, may replace it; the winner checks the lock still holds that
//   token and renames its own over it. Every token is new, so a lock once replaced never comes back,
//   and a slow process that wins the takeover file later finds another token and steps back. A
//   takeover file left by a process that died in between is itself taken over the same way;
// - release: only if the lock still holds our token (at close, or at the process's exit).
import { createHash, randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { errorCode } from '../lib/errors.ts';

export class DatabaseInUseError extends Error {}

/** What a lock file holds (JSON). Only `pid` is certain: a lock written by an older Eddy holds just that. */
export interface LockHolder {
  pid: number;
  /** Random, new for every lock: tells this lock from any other, even one of the same process id. */
  token: string;
  startedAt?: string;
  /** The script that took it (`build/server/main.js`, `server/cli/admin.ts`), for the refusal. */
  command?: string;
  host?: string;
  /** Linux: the kernel's boot id; a lock of an earlier boot has no live owner. */
  boot?: string;
  /** Linux: the owner's start time (clock ticks since boot), so a reused process id is told apart. */
  procStart?: string;
}

export interface DataDirLock {
  file: string;
  holder: LockHolder;
  /** Removes the lock if it is still ours; safe to call more than once. */
  release(): void;
}

export const LOCK_FILE = 'eddy.lock';

/** Tokens of the locks (and takeover files) this process holds or is taking now. */
const ours = new Set<string>();
/** Locks to remove if the process exits without closing its database (process.exit, an error). */
const heldFiles = new Map<string, string>();
let exitHookInstalled = false;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readOr(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

function linuxBootId(): string | undefined {
  return readOr('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
}

/** Field 22 of /proc/<pid>/stat (start time); the command name before it may hold spaces and parentheses. */
function procStart(pid: number): string | undefined {
  let stat: string | undefined;
  try {
    stat = readOr(`/proc/${pid}/stat`);
  } catch {
    return undefined;
  }
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function describeSelf(): LockHolder {
  const script = process.argv[1];
  const boot = linuxBootId();
  const start = procStart(process.pid);
  return {
    pid: process.pid,
    token: randomUUID(),
    startedAt: new Date().toISOString(),
    ...(script ? { command: path.relative(process.cwd(), script) || script } : {}),
    host: hostname(),
    ...(boot === undefined ? {} : { boot }),
    ...(start === undefined ? {} : { procStart: start }),
  };
}

const DETAILS = ['startedAt', 'command', 'host', 'boot', 'procStart'] as const;

/**
 * The holder a lock file names. A file without a readable token (an older Eddy's bare pid, an empty or
 * foreign file) is named by a digest of its content, so that it too can be replaced exactly once.
 */
export function parseHolder(raw: string): LockHolder {
  const digest = `content-${createHash('sha256').update(raw).digest('hex').slice(0, 16)}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed === 'number') return { pid: parsed, token: digest };
  if (typeof parsed !== 'object' || parsed === null) return { pid: Number.NaN, token: digest };
  const fields = new Map<string, unknown>(Object.entries(parsed));
  const pid = fields.get('pid');
  const token = fields.get('token');
  const details: Partial<Record<(typeof DETAILS)[number], string>> = {};
  for (const key of DETAILS) {
    const value = fields.get(key);
    if (typeof value === 'string') details[key] = value;
  }
  return {
    pid: typeof pid === 'number' ? pid : Number.NaN,
    // The token becomes part of a file name.
    token: typeof token === 'string' && /^[\w-]{1,64}$/.test(token) ? token : digest,
    ...details,
  };
}

export type Liveness = 'alive' | 'dead' | 'unknown';

/**
 * Whether the lock's owner still runs. 'unknown' (another host's process, which no local check can
 * see) counts as alive: refusing wrongly costs a deleted file, taking over wrongly costs the database.
 */
export function liveness(holder: LockHolder): Liveness {
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return 'dead';
  if (holder.host !== undefined && holder.host !== hostname()) return 'unknown';
  if (holder.boot !== undefined) {
    // The same machine, restarted: nothing of before the restart runs.
    const boot = linuxBootId();
    if (boot !== undefined && boot !== holder.boot) return 'dead';
  }
  // Our own process id: one of our own locks, or one left by an earlier process that had the same id
  // (a container's server is always pid 1).
  if (holder.pid === process.pid) return ours.has(holder.token) ? 'alive' : 'dead';
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: it runs, as another user.
    if (errorCode(err) !== 'EPERM') return 'dead';
  }
  if (holder.procStart !== undefined) {
    const now = procStart(holder.pid);
    if (now !== undefined && now !== holder.procStart) return 'dead'; // the id was given to a new process
  }
  return 'alive';
}

/** Writes `body` to a file of our own and links it to `file`; false if `file` exists. */
function createExclusive(file: string, body: string, token: string): boolean {
  const own = `${file}.${token}.new`;
  writeFileSync(own, body, { flag: 'wx' });
  try {
    linkSync(own, file);
    return true;
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(own);
  }
}

/** Replaces `file` with `body` in one step (rename over it). */
function replace(file: string, body: string, token: string): void {
  const own = `${file}.${token}.new`;
  writeFileSync(own, body, { flag: 'wx' });
  try {
    renameSync(own, file);
  } catch (err) {
    unlinkSync(own);
    throw err;
  }
}

function releaseIfOurs(file: string, token: string): void {
  const raw = readOr(file);
  // Nobody else can replace a lock of a live process, so what we read is what we unlink.
  if (raw !== undefined && parseHolder(raw).token === token) unlinkSync(file);
}

/** Makes `file` ours; returns the live holder instead when another process has it. */
async function take(file: string, me: LockHolder, body: string): Promise<LockHolder | undefined> {
  // A takeover in progress lasts a few system calls; 400 looks at 5–25 ms apart is seconds.
  for (let attempt = 0; attempt < 400; attempt++) {
    if (createExclusive(file, body, me.token)) return undefined;
    const raw = readOr(file);
    if (raw === undefined) continue; // released just now: try again
    const holder = parseHolder(raw);
    if (liveness(holder) !== 'dead') return holder;
    const claim = `${file}.takeover-${holder.token}`;
    const claimant = await take(claim, me, body);
    if (claimant) {
      // Another live process is replacing it: see what it leaves.
      await sleep(5 + Math.random() * 20);
      continue;
    }
    try {
      const now = readOr(file);
      if (now !== undefined && parseHolder(now).token === holder.token) {
        replace(file, body, me.token);
        return undefined;
      }
      // Replaced or released by another process meanwhile: start again.
    } finally {
      releaseIfOurs(claim, me.token);
    }
  }
  throw new Error(`Could not take ${file}: it keeps changing hands. Is another process starting and stopping Eddy in a loop?`);
}

function describeHolder(holder: LockHolder): string {
  const parts = [
    holder.command,
    holder.startedAt ? `started ${holder.startedAt}` : undefined,
    holder.host && holder.host !== hostname() ? `on ${holder.host}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** The refusal: who holds the folder, what to do, and when the check cannot be sure, how to undo a wrong one. */
export function inUseMessage(dataDir: string, file: string, holder: LockHolder): string {
  const who = Number.isInteger(holder.pid) ? `process ${holder.pid}` : 'another process';
  const lines = [
    `The embedded database in ${dataDir} is in use by ${who}${describeHolder(holder)}. Stop the server (or that command) first, or set DATA_DIR to another folder: one process at a time can use an embedded database (several servers share PostgreSQL, DATABASE_URL).`,
  ];
  if (holder.host !== undefined && holder.host !== hostname()) {
    lines.push(
      `That process runs on another machine or container (${holder.host}), which this one cannot check: if Eddy no longer runs there on this folder, delete ${file}.`,
    );
  } else if (holder.procStart === undefined) {
    // An older Eddy's lock, or a system without /proc: the process id may have been given to another program.
    lines.push(`If process ${holder.pid} is not Eddy (ps -p ${holder.pid}), delete ${file}.`);
  }
  return lines.join('\n');
}

/**
 * Takes `dataDir` for this process, before anything in it is opened. Throws DatabaseInUseError,
 * naming the holder, when another live process has it.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const file = path.join(dataDir, LOCK_FILE);
  const me = describeSelf();
  const body = `${JSON.stringify(me, null, 2)}\n`;
  ours.add(me.token);
  let holder: LockHolder | undefined;
  try {
    holder = await take(file, me, body);
  } catch (err) {
    ours.delete(me.token);
    throw err;
  }
  if (holder) {
    ours.delete(me.token);
    throw new DatabaseInUseError(inUseMessage(dataDir, file, holder));
  }
  heldFiles.set(file, me.token);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A process that ends without closing its database (process.exit after an error, the shutdown's
    // 10 s limit) has stopped writing: its lock goes with it. Only synchronous work runs here.
    process.on('exit', () => {
      for (const [f, token] of heldFiles) {
        try {
          releaseIfOurs(f, token);
        } catch {
          // Nothing more can be done while exiting; the next process finds the lock's owner gone.
        }
      }
    });
  }
  return {
    file,
    holder: me,
    release() {
      if (heldFiles.get(file) !== me.token) return;
      releaseIfOurs(file, me.token);
      heldFiles.delete(file);
      ours.delete(me.token);
    },
  };
}
