/**
 * A FIFO, socket, device or directory where the runtime expects one of its files (plan, tracker,
 * session log) or where a tool reads a workspace file is refused with a clear error instead of
 * being opened and waited on. Reading a FIFO with plain `readFile` blocks until a writer appears,
 * i.e. forever: every call here runs against a deadline that, when missed, unblocks the FIFO and
 * fails the test, so a regression fails instead of hanging the suite.
 */
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { captureIO } from '../../fixtures/cli';
import { PlanStore } from '../../../src/core/plan/store';
import type { EventInput } from '../../../src/core/session/events';
import { handOff } from '../../../src/core/session/handoff';
import { initialState } from '../../../src/core/session/state';
import { NotRegularFileError, type FileSystem } from '../../../src/core/ports';
import { writePrivateAtomic } from '../../../src/core/store/atomic';
import { executeTrackerCall } from '../../../src/core/tracker';
import { loadTracker } from '../../../src/core/tracker/store';
import { grepTool, readFileTool } from '../../../src/core/tools';
import { nodeFileSystem } from '../../../src/node/fs';
import { jsSearch } from '../../../src/node/search';
import { nodeWriter } from '../../../src/node/writer';
import { ctxFor, makeWorkspace, type Workspace } from '../tools/helpers';

const DEADLINE_MS = 3_000;
const T = { timeout: 15_000 };

const workspaces: Workspace[] = [];
const servers: Server[] = [];
after(() => {
  for (const s of servers) s.close();
  for (const w of workspaces) w.cleanup();
});

function workspace(): Workspace {
  const ws = makeWorkspace();
  workspaces.push(ws);
  return ws;
}

const fifos = new Set<string>();
function mkfifo(path: string): string {
  fs.mkdirSync(join(path, '..'), { recursive: true });
  execFileSync('mkfifo', [path]);
  fifos.add(path);
  return path;
}

/** Opening the FIFO for writing wakes a reader stuck in open(); closing it gives that reader EOF. */
function unblockFifos(): void {
  for (const f of fifos) {
    try {
      fs.closeSync(fs.openSync(f, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
    } catch {
      // Already removed with its workspace.
    }
  }
}

async function within<V>(what: string, work: Promise<V>): Promise<V> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      unblockFifos();
      reject(new Error(`${what} did not return within ${DEADLINE_MS} ms: it is waiting on a FIFO`));
    }, DEADLINE_MS);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function refused(found: string, path?: string): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof NotRegularFileError, `NotRegularFileError expected, got ${String(err)}`);
    assert.equal(err.found, found);
    if (path !== undefined) assert.equal(err.path, path);
    assert.match(err.message, /not a regular file/);
    return true;
  };
}

test(
  'node FileSystem.readText refuses a FIFO, a socket, a device, a directory and a symlink; reads regular files as before',
  T,
  async () => {
    const ws = workspace();
    const fifo = mkfifo(join(ws.root, 'pipe'));
    await assert.rejects(within('readText(FIFO)', nodeFileSystem.readText(fifo)), refused('fifo', fifo));
    assert.match(
      String(
        await within(
          'readText(FIFO)',
          nodeFileSystem.readText(fifo).catch((e: Error) => e.message),
        ),
      ),
      /it is a FIFO \(named pipe\), not a regular file/,
    );

    const sock = join(ws.base, 's.sock');
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    await assert.rejects(within('readText(socket)', nodeFileSystem.readText(sock)), refused('socket'));

    await assert.rejects(
      within('readText(/dev/zero)', nodeFileSystem.readText('/dev/zero')),
      refused('character device'),
    );
    await assert.rejects(within('readText(dir)', nodeFileSystem.readText(ws.root)), refused('directory'));

    const target = ws.write('real.md', 'real');
    fs.symlinkSync(target, join(ws.root, 'link.md'));
    await assert.rejects(nodeFileSystem.readText(join(ws.root, 'link.md')), refused('symlink'));

    assert.equal(await nodeFileSystem.readText(target), 'real');
    assert.equal(await nodeFileSystem.readText(join(ws.root, 'missing.md')), null);
  },
);

test(
  'node AppendFileSystem refuses a FIFO at the log path for one append and for a kept append handle',
  T,
  async () => {
    const ws = workspace();
    const fifo = mkfifo(join(ws.root, '.vtcode/sessions/x.jsonl'));
    await assert.rejects(within('appendText(FIFO)', nodeFileSystem.appendText(fifo, '{}\n', 0o600)), refused('fifo'));
    await assert.rejects(within('openAppend(FIFO)', nodeFileSystem.openAppend(fifo, 0o600)), refused('fifo'));
    // A reader on the other end must not change the answer (a non-blocking open would then succeed).
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      await assert.rejects(
        within('appendText(FIFO with a reader)', nodeFileSystem.appendText(fifo, '{}\n', 0o600)),
        refused('fifo'),
      );
      await assert.rejects(
        within('openAppend(FIFO with a reader)', nodeFileSystem.openAppend(fifo, 0o600)),
        refused('fifo'),
      );
    } finally {
      fs.closeSync(reader);
    }
    const file = join(ws.root, 'log.jsonl');
    await nodeFileSystem.appendText(file, 'a\n', 0o600);
    const handle = await nodeFileSystem.openAppend(file, 0o600);
    await handle.append('b\n');
    await handle.append('c\n');
    await handle.sync();
    await handle.close();
    assert.equal(fs.readFileSync(file, 'utf8'), 'a\nb\nc\n');
  },
);

test(
  'STORE-1, TRK-7: a FIFO at a plan, tracker or session log path is refused with a clear error, not waited on',
  T,
  async () => {
    const ws = workspace();
    const root = ws.root;
    const plan = mkfifo(join(root, '.vtcode/plans/add-a-flag.md'));
    const store = new PlanStore(nodeFileSystem, root);
    await assert.rejects(within('PlanStore.load', store.load('add-a-flag')), refused('fifo', plan));
    await assert.rejects(
      within('PlanStore.save', store.save('# Add a flag\n\nbody', { slug: 'add-a-flag' })),
      refused('fifo', plan),
    );
    await assert.rejects(
      within('writePrivateAtomic', writePrivateAtomic(nodeFileSystem, { root, path: plan, content: 'x' })),
      /is a special file \(a FIFO, socket or device\), expected a regular file/,
    );
    assert.equal(fs.lstatSync(plan).isFIFO(), true, 'the FIFO is left as it was');

    const sidecar = mkfifo(join(root, '.vtcode/plans/add-a-flag.tasks.md'));
    await assert.rejects(
      within(
        'loadTracker(sidecar)',
        loadTracker(nodeFileSystem, { root, planFile: '.vtcode/plans/add-a-flag.md', planActive: true }),
      ),
      refused('fifo', sidecar),
    );
    const global = mkfifo(join(root, '.vtcode/tasks/current_task.md'));
    await assert.rejects(within('loadTracker(global)', loadTracker(nodeFileSystem, { root })), refused('fifo', global));
    // task_tracker turns the refusal into its own failure result instead of throwing.
    const call = await within('task_tracker list', executeTrackerCall(nodeFileSystem, { root }, { action: 'list' }));
    assert.equal(call.ok, false);
    assert.equal(!call.ok && call.error.code, 'store_not_a_file');

    // The session log is read through the same port call (core/session/log.ts).
    const log = mkfifo(join(root, '.vtcode/sessions/20260101-000000-abcdef.jsonl'));
    await assert.rejects(within('readText(session log)', nodeFileSystem.readText(log)), refused('fifo', log));
  },
);

test(
  'GATE-3: approving a plan whose file became a FIFO fails cleanly with the reason; nothing hangs, no mode change',
  T,
  async () => {
    const ws = workspace();
    mkfifo(join(ws.root, '.vtcode/plans/p.md'));
    const emitted: EventInput[] = [];
    const state = {
      ...initialState({ id: 's', workspace: ws.root, provider: 'openai', model: 'm', agent: 'plan' }),
      pendingApproval: { planFile: '.vtcode/plans/p.md' },
    };
    const r = await within(
      'handOff',
      handOff(
        { fs: nodeFileSystem, root: ws.root, emit: async (e) => void emitted.push(e), state: () => state },
        'execute',
      ),
    );
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.step, 'validate');
    assert.match(!r.ok ? r.reason : '', /cannot be read, so it was not approved: .*FIFO/);
    assert.deepEqual(
      emitted.map((e) => e.type),
      ['notice'],
    );
  },
);

test(
  'read_file and grep on a FIFO in the workspace fail with not_a_file and return; a grep walk past a FIFO (and a FIFO .gitignore) finishes',
  T,
  async () => {
    const ws = workspace();
    mkfifo(join(ws.root, 'pipe.txt'));
    ws.write('a.txt', 'needle\n');
    const ctx = ctxFor(ws, { search: jsSearch });

    const read = await within('read_file', readFileTool.run({ path: 'pipe.txt' }, ctx));
    assert.equal(read.ok, false);
    assert.equal(read.error?.code, 'not_a_file');

    const grepOne = await within('grep path=FIFO', grepTool.run({ pattern: 'needle', path: 'pipe.txt' }, ctx));
    assert.equal(grepOne.ok, false);
    assert.equal(grepOne.error?.code, 'not_a_file');

    mkfifo(join(ws.root, '.gitignore'));
    const grepAll = await within('grep over a folder with FIFOs', grepTool.run({ pattern: 'needle' }, ctx));
    assert.equal(grepAll.ok, true, grepAll.content);
    assert.match(grepAll.content, /a\.txt:1: needle/);
  },
);

test(
  'read_file: a file swapped for a FIFO after the tool looked at it is still refused by the port, not waited on',
  T,
  async () => {
    const ws = workspace();
    const fifo = mkfifo(join(ws.root, 'swapped.txt'));
    // The tool's lstat sees a regular file (as it would have a moment before the swap).
    const lying: FileSystem = {
      ...nodeFileSystem,
      lstat: async (p) => {
        const s = await nodeFileSystem.lstat(p);
        return p === fifo && s ? { ...s, kind: 'file' } : s;
      },
    };
    const ctx = ctxFor(ws);
    ctx.ports = { ...ctx.ports, fs: lying };
    const r = await within('read_file on a swapped FIFO', readFileTool.run({ path: 'swapped.txt' }, ctx));
    assert.equal(r.ok, false);
    assert.equal(r.error?.code, 'not_a_file');
    assert.match(r.content, /FIFO/);
  },
);

test('Writer: an existing FIFO at the target is refused, not replaced', T, async () => {
  const ws = workspace();
  const fifo = mkfifo(join(ws.root, 'out.txt'));
  await assert.rejects(within('nodeWriter.writeText', nodeWriter.writeText(fifo, 'x')), refused('fifo'));
  assert.equal(fs.lstatSync(fifo).isFIFO(), true);
  assert.deepEqual(
    fs.readdirSync(ws.root).filter((n) => n.includes('vtplan-tmp')),
    [],
  );
});

test(
  'ADD-2: `vtplan validate FIFO` exits 2 with a clear message; a symlink to a plan is still followed',
  T,
  async () => {
    const ws = workspace();
    mkfifo(join(ws.root, 'plan.md'));
    const io = captureIO({ cwd: ws.root });
    const code = await within('vtplan validate FIFO', runCli(['validate', 'plan.md'], io));
    assert.equal(code, 2);
    assert.equal(io.out, '');
    assert.match(io.err, /cannot read plan\.md: it is a FIFO \(named pipe\), not a regular file/);

    io.err = '';
    const dirCode = await runCli(['validate', '.'], io);
    assert.equal(dirCode, 2);
    assert.match(io.err, /it is a directory/);

    ws.write('real.md', '# T\n');
    fs.symlinkSync(join(ws.root, 'real.md'), join(ws.root, 'linked.md'));
    io.err = '';
    const linkCode = await runCli(['validate', 'linked.md'], io);
    assert.equal(linkCode, 1, io.err);
  },
);

test(
  'the deadline helper itself: a plain readFile on a FIFO is caught as hanging (so the tests above can fail)',
  T,
  async () => {
    const ws = workspace();
    const fifo = mkfifo(join(ws.root, 'probe'));
    await assert.rejects(
      within('fs.promises.readFile(FIFO)', fs.promises.readFile(fifo, 'utf8')),
      /did not return within/,
    );
  },
);
