import { existsSync } from 'node:fs';
import path from 'node:path';

// The server runs both from source (server/) and compiled (build/server/); files that are not
// compiled (migrations, the built web app) are found from the project root either way.
function findProjectRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`No package.json above ${start}`);
    dir = up;
  }
  return dir;
}

export const projectRoot = findProjectRoot(import.meta.dirname);
export const migrationsFolder = path.join(projectRoot, 'server', 'db', 'migrations');
export const webRoot = path.join(projectRoot, 'dist');
