/**
 * The Shell port on Node: `/bin/sh -c COMMAND` in its own process group, so a timeout or an
 * abort kills everything the command started (pipelines, `npm test` children), not just the
 * shell. stdin is closed; pagers are disabled so `git log` cannot wait for a keypress.
 */
import { spawn } from 'node:child_process';
import { withPlanCommandEnv } from '../core/policy/command-env';
import type { CapturedStream, Shell, ShellRequest, ShellResult } from '../core/ports';

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

export const nodeShell: Shell = {
  run(request: ShellRequest): Promise<ShellResult> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const child = spawn('/bin/sh', ['-c', request.command], {
        cwd: request.cwd,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: request.readOnly ? withPlanCommandEnv(process.env) : { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
      });
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
        reject(new Error(`could not start /bin/sh in ${request.cwd}: ${err.message}`));
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
  },
};
