/**
 * The Search port on Node: ripgrep when a binary is given (VS Code ships one), otherwise a walk
 * of the tree in plain JS. Both skip `.git`, `node_modules` and `.vtcode`, include hidden files,
 * do not follow symlinks, skip binary files, honour `.gitignore` files (the fallback understands
 * the common subset, see core/tools/glob.ts) and return matches sorted by path.
 */
import { spawn } from 'node:child_process';
import { constants as fsConstants, promises as fsp } from 'node:fs';
import { posix as path } from 'node:path';
import { createInterface } from 'node:readline';
import { compileGlob, parseGitignore, type Glob, type IgnoreRules } from '../core/tools/glob';
import { NotRegularFileError, type FindFilesRequest, type FindFilesResult, type GrepMatch, type GrepRequest, type GrepResult, type Search } from '../core/ports';
import { readRegularFile, specialKindOf } from './fs';

// .vtcode holds the agent's own session logs and plans: searching them feeds its transcript back to it.
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules', '.vtcode']);
const BINARY_SNIFF_BYTES = 8000;

export interface NodeSearchOptions {
  /** Path of an `rg` binary; without it the JS fallback is used. */
  rgPath?: string;
}

export function createNodeSearch(options: NodeSearchOptions = {}): Search {
  const rg = options.rgPath;
  if (rg === undefined) return jsSearch;
  return {
    grep: (req) => rgGrep(rg, req),
    findFiles: (req) => rgFindFiles(rg, req),
  };
}

// ---------------------------------------------------------------------------------------------
// ripgrep

/**
 * Where VS Code keeps its ripgrep below `vscode.env.appRoot`: older releases ship
 * `@vscode/ripgrep/bin/rg` (desktop builds unpack it next to the asar archive), 1.10x and later
 * `@vscode/ripgrep-universal/bin/<platform>-<arch>/rg`.
 */
export function ripgrepCandidates(appRoot: string, platform: string = process.platform, arch: string = process.arch): string[] {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  return ['node_modules', 'node_modules.asar.unpacked'].flatMap((modules) => [
    path.join(appRoot, modules, '@vscode/ripgrep/bin', exe),
    path.join(appRoot, modules, '@vscode/ripgrep-universal/bin', `${platform}-${arch}`, exe),
  ]);
}

/** The first executable ripgrep VS Code ships, or `undefined` (then the JS fallback serves). */
export async function locateRipgrep(appRoot: string): Promise<string | undefined> {
  for (const candidate of ripgrepCandidates(appRoot)) {
    try {
      await fsp.access(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      continue;
    }
  }
  return undefined;
}


interface SearchScope {
  cwd: string;
  target: string;
}

async function scopeOf(root: string): Promise<SearchScope> {
  const stat = await fsp.stat(root);
  // ripgrep opens a path it is given even when it is a FIFO, and then waits for a writer.
  if (!stat.isDirectory() && !stat.isFile()) throw new NotRegularFileError(root, specialKindOf(stat));
  return stat.isDirectory() ? { cwd: root, target: '.' } : { cwd: path.dirname(root), target: path.basename(root) };
}

/**
 * ripgrep's `-g GLOB` would re-include files that .gitignore excludes, so include globs are
 * applied differently: name-only globs become a file type (types respect ignore rules and let rg
 * skip files early), and every include glob is also checked on the results here, which covers
 * path globs and keeps the semantics identical to the JS walker.
 */
function commonRgArgs(include: readonly string[], exclude: readonly string[]): string[] {
  const args = ['--no-config', '--hidden', '--no-require-git', '--sort', 'path'];
  const nameOnly = include.filter((g) => !g.replace(/\/+$/, '').includes('/'));
  if (include.length > 0 && nameOnly.length === include.length) {
    for (const g of nameOnly) args.push('--type-add', `vtplaninclude:${g}`);
    args.push('--type', 'vtplaninclude');
  }
  for (const g of [...exclude, ...ALWAYS_SKIPPED]) args.push('-g', `!${g}`);
  return args;
}

function includeFilter(scope: SearchScope, include: readonly string[]): (abs: string) => boolean {
  if (include.length === 0) return () => true;
  const globs = include.map(compileGlob);
  return (abs) => {
    const rel = scope.target === '.' ? path.relative(scope.cwd, abs) : path.basename(abs);
    return globs.some((g) => g.matches(rel));
  };
}

interface RgRun {
  stderr: string;
  code: number | null;
}

/** Runs rg, feeding each stdout line to `onLine`; `onLine` returns false to stop rg early. */
function runRg(rg: string, args: string[], cwd: string, signal: AbortSignal | undefined, onLine: (line: string) => boolean): Promise<RgRun> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error('the search was cancelled'));
      return;
    }
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stopped = false;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      child.kill('SIGKILL');
    };
    const onAbort = (): void => stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (!stopped && !onLine(line)) stop();
    });
    child.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new Error(`could not start ripgrep (${rg}): ${err.message}`));
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(new Error('the search was cancelled'));
      else resolve({ stderr, code: stopped ? 0 : code });
    });
  });
}

function rgFailure(run: RgRun): Error {
  const first = run.stderr.trim().split('\n').slice(0, 6).join('\n');
  return new Error(first === '' ? `ripgrep failed with exit code ${run.code ?? 'unknown'}` : first);
}

function parseRgMatch(value: unknown): { path: string; line: number; text: string } | null {
  if (typeof value !== 'object' || value === null) return null;
  const msg = value as { type?: unknown; data?: { path?: { text?: unknown }; lines?: { text?: unknown }; line_number?: unknown } };
  if (msg.type !== 'match') return null;
  const p = msg.data?.path?.text;
  const line = msg.data?.line_number;
  const text = msg.data?.lines?.text;
  if (typeof p !== 'string' || typeof line !== 'number') return null;
  return { path: p, line, text: typeof text === 'string' ? text.replace(/\r?\n$/, '') : '' };
}

async function rgGrep(rg: string, req: GrepRequest): Promise<GrepResult> {
  const scope = await scopeOf(req.root);
  const include = req.include ?? [];
  const wanted = includeFilter(scope, include);
  const args = ['--json', ...commonRgArgs(include, req.exclude ?? [])];
  args.push(req.caseInsensitive ? '--ignore-case' : '--case-sensitive');
  if (req.fixed) args.push('--fixed-strings');
  args.push('-e', req.pattern, '--', scope.target);
  const matches: GrepMatch[] = [];
  let limitReached = false;
  const run = await runRg(rg, args, scope.cwd, req.signal, (line) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return true;
    }
    const m = parseRgMatch(parsed);
    if (m === null) return true;
    const abs = path.join(scope.cwd, m.path);
    if (!wanted(abs)) return true;
    if (matches.length >= req.maxResults) {
      limitReached = true;
      return false;
    }
    matches.push({ path: abs, line: m.line, text: m.text });
    return true;
  });
  // Exit 1 = no match; 2 = an error, which still may come with matches (an unreadable file).
  if (run.code === 2 && matches.length === 0) throw rgFailure(run);
  if (run.code !== 0 && run.code !== 1 && run.code !== 2) throw rgFailure(run);
  return { matches, limitReached };
}

async function rgFindFiles(rg: string, req: FindFilesRequest): Promise<FindFilesResult> {
  const scope = await scopeOf(req.root);
  const wanted = includeFilter(scope, [req.glob]);
  const args = ['--files', ...commonRgArgs([req.glob], []), '--', scope.target];
  const files: string[] = [];
  let limitReached = false;
  const run = await runRg(rg, args, scope.cwd, req.signal, (line) => {
    const abs = path.join(scope.cwd, line);
    if (line === '' || !wanted(abs)) return true;
    if (files.length >= req.maxResults) {
      limitReached = true;
      return false;
    }
    files.push(abs);
    return true;
  });
  if (run.code === 2 && files.length === 0) throw rgFailure(run);
  return { files, limitReached };
}

// ---------------------------------------------------------------------------------------------
// Pure JS fallback

interface IgnoreLayer {
  /** Absolute folder holding the `.gitignore`. */
  base: string;
  rules: IgnoreRules;
}

async function readGitignore(dir: string): Promise<IgnoreLayer | null> {
  try {
    // Non-blocking: a FIFO planted as `.gitignore` must not stall the walk.
    const bytes = await readRegularFile(path.join(dir, '.gitignore'), { followSymlink: true });
    return bytes === null ? null : { base: dir, rules: parseGitignore(bytes.toString('utf8')) };
  } catch {
    return null;
  }
}

/** `.gitignore` files of the folders above the search root apply too, as with ripgrep. */
async function ancestorLayers(dir: string): Promise<IgnoreLayer[]> {
  const chain: string[] = [];
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    chain.unshift(d);
    if (d === '/') break;
  }
  const layers = await Promise.all(chain.map(readGitignore));
  return layers.filter((l): l is IgnoreLayer => l !== null);
}

function ignored(layers: readonly IgnoreLayer[], abs: string, isDir: boolean): boolean {
  let verdict = false;
  for (const layer of layers) {
    const decided = layer.rules.decide(path.relative(layer.base, abs), isDir);
    if (decided !== undefined) verdict = decided;
  }
  return verdict;
}

interface WalkFilter {
  include: Glob[];
  exclude: Glob[];
  signal?: AbortSignal;
}

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error('the search was cancelled');
}

/** Files below `root` (or `root` itself when it is a file), in path order. */
async function* walk(root: string, filter: WalkFilter): AsyncGenerator<string> {
  checkAbort(filter.signal);
  const stat = await fsp.lstat(root);
  if (!stat.isDirectory()) {
    const name = path.basename(root);
    if (stat.isFile() && (filter.include.length === 0 || filter.include.some((g) => g.matches(name)))) yield root;
    return;
  }
  const layers = await ancestorLayers(root);
  yield* walkDir(root, root, layers, filter);
}

async function* walkDir(searchRoot: string, dir: string, parentLayers: readonly IgnoreLayer[], filter: WalkFilter): AsyncGenerator<string> {
  checkAbort(filter.signal);
  const own = await readGitignore(dir);
  const layers = own === null ? parentLayers : [...parentLayers, own];
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (ALWAYS_SKIPPED.has(entry.name)) continue;
    const abs = path.join(dir, entry.name);
    const rel = path.relative(searchRoot, abs);
    const isDir = entry.isDirectory();
    if (!isDir && !entry.isFile()) continue;
    if (ignored(layers, abs, isDir)) continue;
    if (filter.exclude.some((g) => g.matches(rel))) continue;
    if (isDir) {
      yield* walkDir(searchRoot, abs, layers, filter);
    } else if (filter.include.length === 0 || filter.include.some((g) => g.matches(rel))) {
      yield abs;
    }
  }
}

function isBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compilePattern(req: GrepRequest): RegExp {
  const source = req.fixed ? escapeRegExp(req.pattern) : req.pattern;
  try {
    return new RegExp(source, req.caseInsensitive ? 'i' : '');
  } catch (err) {
    throw new Error(`invalid regular expression: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The fallback on its own, for hosts without ripgrep and for tests comparing the two. */
export const jsSearch: Search = {
  async grep(req) {
    const regex = compilePattern(req);
    const filter: WalkFilter = { include: (req.include ?? []).map(compileGlob), exclude: (req.exclude ?? []).map(compileGlob), signal: req.signal };
    const matches: GrepMatch[] = [];
    for await (const file of walk(req.root, filter)) {
      let buffer: Buffer;
      try {
        // The walk lists regular files only, but one can be swapped for a FIFO before it is read.
        const bytes = await readRegularFile(file, { followSymlink: false });
        if (bytes === null) continue;
        buffer = bytes;
      } catch {
        continue;
      }
      if (isBinary(buffer)) continue;
      const lines = buffer.toString('utf8').split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      for (const [i, raw] of lines.entries()) {
        const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (!regex.test(text)) continue;
        if (matches.length >= req.maxResults) return { matches, limitReached: true };
        matches.push({ path: file, line: i + 1, text });
      }
    }
    return { matches, limitReached: false };
  },
  async findFiles(req) {
    const glob = compileGlob(req.glob);
    const files: string[] = [];
    for await (const file of walk(req.root, { include: [glob], exclude: [], signal: req.signal })) {
      if (files.length >= req.maxResults) return { files, limitReached: true };
      files.push(file);
    }
    return { files, limitReached: false };
  },
};
