/**
 * The Shell port on Node. Every agent command runs inside the OS sandbox (sandbox.ts: bubblewrap)
 * when this machine has one, with the allow-listed environment of core/policy/command-env.ts in
 * every case. Where no sandbox can be had, the command runs directly with a private throwaway
 * HOME and temp folder, and `isolation()` says so, so plan mode keeps to inspection commands.
 *
 * The command runs in its own process group, so a timeout or an abort kills everything it started
 * (pipelines, `npm test` children; bwrap's `--die-with-parent` takes the sandbox down with it).
 * stdin is closed; pagers are disabled so `git log` cannot wait for a keypress.
 */
import { execFile, spawn, type ChildProcessByStdio, type StdioOptions } from 'node:child_process';
import type { Readable } from 'node:stream';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandEnvironment } from '../core/policy/command-env';
import type { CapturedStream, Isolation, Shell, ShellRequest, ShellResult } from '../core/ports';
import { findProgram, prepareWorkspace, probeSandbox, SANDBOX_SCRATCH, sandboxLayout } from './sandbox';

/** Grace period between SIGTERM and SIGKILL for the process group. */
const KILL_GRACE_MS = 500;

/** Keeps the first and the last `maxBytes / 2` bytes of a stream. */
class HeadTailBuffer {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const headRoom = Math.ceil(this.maxBytes / 2) - this.headBytes;
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const tailMax = Math.floor(this.maxBytes / 2);
    while (this.tailBytes > tailMax && this.tail.length > 0) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailBytes - tailMax;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  result(): CapturedStream {
    const omittedBytes = this.total - this.headBytes - this.tailBytes;
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    const text = omittedBytes > 0 ? `${head}\n[… ${omittedBytes} bytes of output omitted …]\n${tail}` : head + tail;
    return { text, totalBytes: this.total, omittedBytes };
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

interface Launch {
  program: string;
  args: string[];
  env: Record<string, string>;
}

const O_CLOEXEC = 0o2000000;

/**
 * Descriptors this process holds that a child would inherit: Node opens its own files
 * close-on-exec, but one handed down by the editor or a terminal is not, and neither `spawn` nor
 * bwrap closes it, so a command could read or write through it (a directory descriptor would
 * even reach outside the sandbox). Linux only: elsewhere there is no /proc and no sandbox.
 */
function inheritableDescriptors(): number[] {
  let fds: number[];
  try {
    fds = readdirSync('/proc/self/fdinfo')
      .map(Number)
      .filter((fd) => fd > 2);
  } catch {
    return [];
  }
  return fds.filter((fd) => {
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
      return flags !== null && (parseInt(flags[1] ?? '0', 8) & O_CLOEXEC) === 0;
    } catch {
      return false; // closed meanwhile (the listing's own descriptor)
    }
  });
}

/** stdio for `spawn`: the three streams, and /dev/null over every descriptor that would leak. */
function childStdio(devNull: number): StdioOptions {
  const leaked = inheritableDescriptors();
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
  for (const fd of leaked) {
    while (stdio.length < fd) stdio.push('ignore');
    stdio[fd] = devNull;
  }
  return stdio;
}

function runProcess(launch: Launch, request: ShellRequest): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const devNull = openSync('/dev/null', 'r');
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(launch.program, launch.args, {
        cwd: request.cwd,
        detached: true,
        stdio: childStdio(devNull) as ['ignore', 'pipe', 'pipe'],
        env: launch.env,
      });
    } finally {
      closeSync(devNull);
    }
    const stdout = new HeadTailBuffer(request.maxOutputBytes);
    const stderr = new HeadTailBuffer(request.maxOutputBytes);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const terminate = (): void => {
      killGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      terminate();
    }, request.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      terminate();
    };
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });

    const cleanup = (): void => {
      clearTimeout(timer);
      if (killTimer !== undefined) clearTimeout(killTimer);
      if (drainTimer !== undefined) clearTimeout(drainTimer);
      request.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err) => {
      cleanup();
      reject(new Error(`could not start ${launch.program} in ${request.cwd}: ${err.message}`));
    });
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    const finish = (): void => {
      if (settled || exit === undefined) return;
      settled = true;
      cleanup();
      resolve({
        exitCode: exit.code,
        signal: exit.signal,
        timedOut,
        aborted,
        stdout: stdout.result(),
        stderr: stderr.result(),
        durationMs: Date.now() - started,
      });
    };
    // A background child may keep the pipes open after the shell has ended: the group is
    // killed once the shell exits, and a child that left the group cannot hold the call either.
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      killGroup(child.pid, 'SIGKILL');
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, KILL_GRACE_MS);
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      finish();
    });
  });
}

/** The user's git identity, read once outside the sandbox (which hides ~/.gitconfig). */
async function gitIdentity(): Promise<{ name?: string; email?: string }> {
  const get = (key: string) =>
    new Promise<string | undefined>((resolve) => {
      execFile('git', ['config', '--get', key], { encoding: 'utf8', timeout: 5_000 }, (err, stdout) =>
        resolve(err === null && stdout.trim() !== '' ? stdout.trim() : undefined),
      );
    });
  const [name, email] = await Promise.all([get('user.name'), get('user.email')]);
  return { ...(name ? { name } : {}), ...(email ? { email } : {}) };
}

export interface NodeShellOptions {
  /** The bwrap program; `null` runs without a sandbox. Default: `bwrap` on PATH. */
  bwrap?: string | null;
}

export function createNodeShell(options: NodeShellOptions = {}): Shell {
  let isolation: Promise<Isolation> | undefined;
  let identity: Promise<{ name?: string; email?: string }> | undefined;
  const bwrap = options.bwrap === undefined ? findProgram('bwrap', process.env.PATH ?? '') : options.bwrap;
  const probe = (): Promise<Isolation> => (isolation ??= probeSandbox(bwrap));
  return {
    isolation: probe,
    async run(request: ShellRequest): Promise<ShellResult> {
      const gitId = request.mode === 'plan' ? {} : await (identity ??= gitIdentity());
      if ((await probe()).sandboxed && bwrap !== null) {
        if (request.mode !== 'plan') prepareWorkspace(request.root);
        const layout = sandboxLayout({
          root: request.root,
          cwd: request.cwd,
          mode: request.mode,
          network: request.network,
          path: process.env.PATH ?? '',
          home: process.env.HOME,
        });
        const env = commandEnvironment(process.env, {
          mode: request.mode,
          root: request.root,
          scratch: SANDBOX_SCRATCH,
          gitIdentity: gitId,
          toolchain: layout.toolchain,
        });
        return runProcess(
          { program: bwrap, args: [...layout.args, '--', '/bin/sh', '-c', request.command], env },
          request,
        );
      }
      const scratch = mkdtempSync(join(tmpdir(), 'vtplan-cmd-'));
      try {
        mkdirSync(join(scratch, 'home'));
        const env = commandEnvironment(process.env, {
          mode: request.mode,
          root: request.root,
          scratch,
          gitIdentity: gitId,
        });
        return await runProcess({ program: '/bin/sh', args: ['-c', request.command], env }, request);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  };
}

/** The shell the extension and the CLI use: bwrap from PATH when it works here. */
export const nodeShell: Shell = createNodeShell();
