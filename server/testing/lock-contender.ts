// One of several processes that try to take a data folder at the same moment, for
// server/db/data-dir-lock.db.test.ts: `node lock-contender.ts <dataDir> [jitter]`. It takes the
// folder's lock through the code every opener uses, prints `won` or `refused <message>`, and holds
// the lock until its standard input closes.
//
// With `jitter`, every file system call of the lock's protocol first waits 0–3 ms: the moments
// between one process's read and its next step, which on an idle machine last microseconds, become
// long enough for the others to act in them, so a protocol that relied on luck would lose the folder
// to two processes here. (Node's ESM bindings of `node:fs` follow the patched functions after
// syncBuiltinESMExports.)
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const [dataDir, mode] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: lock-contender.ts <dataDir> [jitter]');

if (mode === 'jitter') {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const jittered =
    <A extends unknown[], R>(f: (...args: A) => R) =>
    (...args: A): R => {
      Atomics.wait(pause, 0, 0, Math.random() * 3);
      return f(...args);
    };
  fs.readFileSync = jittered(fs.readFileSync) as typeof fs.readFileSync;
  fs.writeFileSync = jittered(fs.writeFileSync);
  fs.linkSync = jittered(fs.linkSync);
  fs.renameSync = jittered(fs.renameSync);
  fs.unlinkSync = jittered(fs.unlinkSync);
  syncBuiltinESMExports();
}

const { DatabaseInUseError, lockDataDir } = await import('../db/data-dir-lock.ts');
try {
  const lock = await lockDataDir(dataDir);
  process.stdout.write('won\n');
  process.stdin.resume();
  process.stdin.on('end', () => {
    lock.release();
    process.exit(0);
  });
} catch (err) {
  if (!(err instanceof DatabaseInUseError)) throw err;
  process.stdout.write(`refused ${err.message}\n`);
}
