// `npm test`'s first step: `npm run checks` (types, lint and format, the message catalogues, the
// licences, and the build). On CI's PostgreSQL pass (DATABASE_URL set), right after the embedded
// pass ran them on the same checkout, the checks that read only the code say the same again (78 s on
// the 2-core machine, about twice that on CI's): there only the build is made sure of, as the
// browser suite and the fault runs need it. CHECKS_ALL=1 runs them all there too. The Vitest and
// Playwright configurations narrow that pass the same way (TESTING.md).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const onPostgres = Boolean(process.env['DATABASE_URL']) && process.env['CHECKS_ALL'] !== '1';
if (onPostgres)
  process.stdout.write('checks: types, lint, catalogues and licences left to the embedded pass (DATABASE_URL is set; CHECKS_ALL=1 runs them here too)\n');
const run = spawnSync('npm', ['run', onPostgres ? 'build:cached' : 'checks'], { cwd: path.resolve(import.meta.dirname, '..'), stdio: 'inherit' });
process.exit(run.status ?? 1);
