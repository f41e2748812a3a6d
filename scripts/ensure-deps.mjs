// Installs the project's npm dependencies when a fresh clone has none yet (or the lock file
// changed since the last install), so `npm start` and `npm test` work as the first commands on a
// new machine. Imports nothing from node_modules.
//
// The decision compares the lock file's content with a hash recorded after the last install, not
// modification times: a checkout, a `git worktree add` or a `touch` changes the lock's mtime
// without changing what is installed, and an `npm ci` triggered by that would wipe a
// node_modules that another checkout shares through a symlink.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const lockHash = (root) =>
  createHash('sha256')
    .update(readFileSync(join(root, 'package-lock.json')))
    .digest('hex');

/** The hash file lives inside node_modules, so it goes whenever the install goes. */
const stampFile = (root) => join(root, 'node_modules', '.vtplan-lock-sha256');

export function dependenciesCurrent(root) {
  const stamp = stampFile(root);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === lockHash(root);
}

export function ensureDependencies(root) {
  if (dependenciesCurrent(root)) return;
  console.log('== installing npm dependencies (npm ci)');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('npm ci failed; see the output above.');
    process.exit(r.status ?? 1);
  }
  writeFileSync(stampFile(root), `${lockHash(root)}\n`);
}
