import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import { createNodeSearch } from '../../../src/node/search';
import { nodeShell } from '../../../src/node/shell';
import { nodeWriter } from '../../../src/node/writer';
import type { ToolContext } from '../../../src/core/tools';
import type { AgentMode } from '../../../src/core/vocabulary';
import type { Search } from '../../../src/core/ports';

export interface Workspace {
  /** Realpath of a fresh temp folder holding `ws/` (the workspace) and `outside/`. */
  base: string;
  root: string;
  outside: string;
  write(rel: string, content: string | Buffer): string;
  read(rel: string): string;
  exists(rel: string): boolean;
  cleanup(): void;
}

export function makeWorkspace(): Workspace {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vtplan-tools-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  return {
    base,
    root,
    outside,
    write(rel, content) {
      const p = path.join(root, rel);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
      return p;
    },
    read: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
    exists: (rel) => fs.existsSync(path.join(root, rel)),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

export interface CtxOptions {
  mode?: AgentMode;
  previewBytes?: number;
  search?: Search;
  signal?: AbortSignal;
  confirm?: (command: string, signal: AbortSignal) => Promise<boolean>;
  commandTimeoutMs?: number;
}

export function ctxFor(ws: Workspace, o: CtxOptions = {}): ToolContext {
  const ctx: ToolContext = {
    root: ws.root,
    mode: o.mode ?? 'plan',
    ports: { fs: nodeFileSystem, shell: nodeShell, search: o.search ?? createNodeSearch(), writer: nodeWriter },
    signal: o.signal ?? new AbortController().signal,
    previewBytes: o.previewBytes ?? 32 * 1024,
    commandTimeoutMs: o.commandTimeoutMs ?? 10_000,
    commandNetwork: 'default',
  };
  if (o.confirm !== undefined) ctx.confirm = o.confirm;
  return ctx;
}

/**
 * The ripgrep binary VS Code ships (installed by scripts/harness/setup.sh into .cache/), an `rg`
 * on PATH, or VTPLAN_RG.
 */
export function findRipgrep(): string | undefined {
  const candidates: string[] = [];
  if (process.env.VTPLAN_RG) candidates.push(process.env.VTPLAN_RG);
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir !== '') candidates.push(path.join(dir, 'rg'));
  const vscodeModules = path.resolve(
    __dirname,
    '../../../.cache/cs/node_modules/code-server/lib/vscode/node_modules/@vscode',
  );
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  candidates.push(
    path.join(vscodeModules, 'ripgrep/bin/rg'),
    path.join(vscodeModules, `ripgrep-universal/bin/${process.platform}-${arch}/rg`),
  );
  return candidates.find((c) => {
    try {
      fs.accessSync(c, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
