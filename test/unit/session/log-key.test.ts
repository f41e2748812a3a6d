/**
 * STORE-2: the session-log key (VS Code extension and vtplan alike) lives in a private file outside the workspace, made once per
 * workspace and never through a symlink; a key store others can read is refused, not repaired.
 */
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOG_KEY_BYTES } from '../../../src/core/session/log';
import { loadLogKey, LogKeyError, logKeyDir, workspaceKeyId } from '../../../src/node/log-key';

const dirs: string[] = [];
function temp(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup() {
  const state = temp('vtp-state-');
  const root = temp('vtp-ws-');
  const env = { XDG_STATE_HOME: state, HOME: temp('vtp-home-') };
  const file = join(state, 'vtplan', 'log-keys', createHash('sha256').update(root).digest('hex'));
  return { state, root, env, file };
}

test('STORE-2: the key file is made once per workspace, 0600 in a 0700 folder under $XDG_STATE_HOME, outside the workspace', () => {
  const { state, root, env, file } = setup();
  const key = loadLogKey(root, env);
  assert.equal(key.length, LOG_KEY_BYTES);
  assert.ok(fs.existsSync(file));
  assert.ok(!file.startsWith(root));
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(fs.statSync(join(state, 'vtplan', 'log-keys')).mode & 0o777, 0o700);
  assert.match(fs.readFileSync(file, 'utf8'), /^[0-9a-f]{64}\n$/);
  assert.deepEqual(fs.readdirSync(join(state, 'vtplan', 'log-keys')), [workspaceKeyId(root)], 'no temp file is left');
  assert.deepEqual(fs.readdirSync(root), [], 'nothing in the workspace');

  assert.deepEqual(loadLogKey(root, env), key, 'the same key next time');
  const link = join(temp('vtp-link-'), 'ws');
  fs.symlinkSync(root, link);
  assert.deepEqual(loadLogKey(link, env), key, 'keyed by the real path');
  const other = temp('vtp-ws2-');
  assert.notDeepEqual(loadLogKey(other, env), key, 'another workspace, another key');
});

test("STORE-2: a symlink at the key file's path is refused and not followed, dangling or not", () => {
  const { root, env, file } = setup();
  fs.mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  const elsewhere = join(temp('vtp-elsewhere-'), 'key');
  fs.symlinkSync(elsewhere, file);
  assert.throws(
    () => loadLogKey(root, env),
    (err: unknown) => err instanceof LogKeyError && /is a symbolic link/.test(err.message),
  );
  assert.equal(fs.existsSync(elsewhere), false, 'nothing was written through the link');
  fs.writeFileSync(elsewhere, `${'a'.repeat(64)}\n`, { mode: 0o600 });
  assert.throws(() => loadLogKey(root, env), /is a symbolic link/);
});

test('STORE-2: a key store others can read, or a damaged key, is refused with what to do', () => {
  const { state, root, env, file } = setup();
  loadLogKey(root, env);
  fs.chmodSync(file, 0o644);
  assert.throws(() => loadLogKey(root, env), /mode is 644, others may read it; make it private \(chmod 600\)/);
  fs.chmodSync(file, 0o600);
  fs.writeFileSync(file, 'not a key\n');
  assert.throws(() => loadLogKey(root, env), /is damaged \(not 64 hex digits\); remove it/);
  fs.chmodSync(join(state, 'vtplan', 'log-keys'), 0o755);
  assert.throws(() => loadLogKey(root, env), /session-log folder .* mode is 755/);
});

test('STORE-2: without an absolute XDG_STATE_HOME the key folder is ~/.local/state/vtplan/log-keys', () => {
  assert.equal(logKeyDir({ HOME: '/home/ada' }), '/home/ada/.local/state/vtplan/log-keys');
  assert.equal(
    logKeyDir({ HOME: '/home/ada', XDG_STATE_HOME: 'relative/state' }),
    '/home/ada/.local/state/vtplan/log-keys',
  );
  assert.equal(logKeyDir({ HOME: '/home/ada', XDG_STATE_HOME: '/var/state' }), '/var/state/vtplan/log-keys');
});
