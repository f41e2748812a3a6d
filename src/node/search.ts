/**
 * The Search port on Node: ripgrep when a binary is given (VS Code ships one), otherwise a walk
 * of the tree in plain JS. Both skip `.git`, `node_modules` and `.vtcode`, include hidden files,
 * do not follow symlinks, skip binary files, honour `.gitignore` files (the fallback reads them with
 * the `ignore` library, see core/tools/glob.ts) and return matches sorted by path.
 */
import { spawn } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  lstatSync,
  promises as fsp,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  type Dirent,
} from 'node:fs';
import { posix as path, win32 } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { compileGlob, parseGitignore, type Glob, type IgnoreRules } from '../core/tools/glob';
import { excerptAround } from '../core/tools/text';
import {
  NotRegularFileError,
  type FindFilesRequest,
  type FindFilesResult,
  type GrepMatch,
  type GrepRequest,
  type GrepResult,
  type Search,
} from '../core/ports';
import { openRegularSync, specialKindOf } from './fs';
import { errorMessage } from '../core/errors';

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
export function ripgrepCandidates(
  appRoot: string,
  platform: string = process.platform,
  arch: string = process.arch,
): string[] {
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

/**
 * The first executable `rg` in the folders of `pathEnv` (the CLI's PATH), or `undefined` (then
 * the JS fallback serves).
 */
export function ripgrepOnPath(pathEnv: string | undefined, platform: string = process.platform): string | undefined {
  const native = platform === 'win32' ? win32 : path;
  for (const dir of (pathEnv ?? '').split(native.delimiter)) {
    // Empty and relative entries name the current folder, which must not decide what runs.
    if (!native.isAbsolute(dir)) continue;
    const candidate = native.join(dir, platform === 'win32' ? 'rg.exe' : 'rg');
    try {
      accessSync(candidate, fsConstants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
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
  const args = ['--no-config', '--hidden', '--no-require-git'];
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

/**
 * Runs rg, feeding each stdout line (its bytes, without the line break) to `onLine`; `onLine`
 * returns false to stop rg early. Once stopped (by `onLine` or the stop signal) rg gets SIGKILL,
 * output still in the pipe is dropped unread, and the search settles at once: on a loaded machine
 * the kernel took up to 200 ms to tear a killed rg down, and SIGKILL cannot be refused. Node reaps
 * the process when it is gone.
 */
function runRg(
  rg: string,
  args: string[],
  cwd: string,
  signal: AbortSignal | undefined,
  onLine: (line: Buffer) => boolean,
): Promise<RgRun> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error('the search was cancelled'));
      return;
    }
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stopped = false;
    let settled = false;
    const settle = (outcome: Error | RgRun): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', stop);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const ended = (code: number | null): void => {
      if (signal?.aborted) settle(new Error('the search was cancelled'));
      else settle({ stderr, code: stopped ? 0 : code });
    };
    function stop(): void {
      if (stopped) return;
      stopped = true;
      child.stdout.destroy();
      child.stderr.destroy();
      child.kill('SIGKILL');
      ended(null);
    }
    signal?.addEventListener('abort', stop, { once: true });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    const lines = new LineSplitter();
    const deliver = (line: Buffer): boolean => !stopped && onLine(line);
    child.stdout.on('data', (chunk: Buffer) => {
      if (!lines.push(chunk, deliver)) stop();
    });
    child.stdout.on('end', () => {
      if (!lines.end(deliver)) stop();
    });
    child.on('error', (err) => settle(new Error(`could not start ripgrep (${rg}): ${err.message}`)));
    child.on('close', ended);
  });
}

/** Cuts a byte stream into lines without decoding it; a line's pieces are joined once, at its end. */
class LineSplitter {
  private pending: Buffer[] = [];

  /** Feeds the complete lines of `chunk` to `onLine` until it returns false (then returns false). */
  push(chunk: Buffer, onLine: (line: Buffer) => boolean): boolean {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.pending = [];
      start = nl + 1;
      if (!onLine(withoutCr(line))) return false;
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
    return true;
  }

  /** The last line when the stream did not end with a line break. */
  end(onLine: (line: Buffer) => boolean): boolean {
    if (this.pending.length === 0) return true;
    const line = Buffer.concat(this.pending);
    this.pending = [];
    return onLine(withoutCr(line));
  }
}

function withoutCr(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === 13 ? line.subarray(0, line.length - 1) : line;
}

function rgFailure(run: RgRun): Error {
  const first = run.stderr.trim().split('\n').slice(0, 6).join('\n');
  return new Error(first === '' ? `ripgrep failed with exit code ${run.code ?? 'unknown'}` : first);
}

interface RgMatchMessage {
  type?: unknown;
  data?: {
    path?: { text?: unknown };
    lines?: { text?: unknown };
    line_number?: unknown;
    submatches?: Array<{ start?: unknown; end?: unknown }>;
  };
}

/** A `match` message of `rg --json`, its line cut to `maxLineChars` around the first submatch. */
function parseRgMatch(value: unknown, maxLineChars: number): { path: string; line: number; text: string } | null {
  if (typeof value !== 'object' || value === null) return null;
  const msg = value as RgMatchMessage;
  if (msg.type !== 'match') return null;
  const p = msg.data?.path?.text;
  const line = msg.data?.line_number;
  const raw = msg.data?.lines?.text;
  if (typeof p !== 'string' || typeof line !== 'number') return null;
  const text = typeof raw === 'string' ? raw.replace(/\r?\n$/, '') : '';
  if (text.length <= maxLineChars) return { path: p, line, text };
  const first = msg.data?.submatches?.[0];
  const start = typeof first?.start === 'number' ? first.start : 0;
  const end = typeof first?.end === 'number' ? first.end : 0;
  return { path: p, line, text: excerptAround(text, ...charOffsets(text, start, end), maxLineChars) };
}

/**
 * Submatch offsets count UTF-8 bytes of the line; these are its UTF-16 offsets. Up to the first
 * non-ASCII character the two agree, so a minified line needs no re-encoding (that took tens of
 * milliseconds for a 5 MB line, with the event loop held).
 */
function charOffsets(text: string, start: number, end: number): [number, number] {
  if (!/[\u0080-\uffff]/.test(text.slice(0, end))) return [Math.min(start, text.length), Math.min(end, text.length)];
  const bytes = Buffer.from(text, 'utf8');
  const chars = (offset: number): number => bytes.subarray(0, offset).toString('utf8').length;
  return [chars(start), chars(end)];
}

/**
 * Orders paths as a walk that sorts each folder's entries by name does (ripgrep's `--sort path`
 * and the JS fallback): component by component, so `a/b` comes before `a.txt`.
 */
function comparePaths(a: string, b: string): number {
  const pa = a.split('/');
  const pb = b.split('/');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] as string;
    const y = pb[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

interface Collected<T> {
  items: T[];
  limitReached: boolean;
  run: RgRun;
}

/**
 * Up to `max` results sorted by path, from rg running on all its threads: `--sort path` would
 * make it walk in one thread (1.5-2× slower on a whole-tree search with two cores). When more
 * than `max` exist, the ones returned are the first rg found, not the first in path order (rg is
 * stopped once one more than `max` came). An rg error that came with no result at all throws.
 */
async function sortedResults<T>(
  rg: string,
  args: string[],
  scope: SearchScope,
  signal: AbortSignal | undefined,
  max: number,
  parse: (line: Buffer) => T | null,
  order: (a: T, b: T) => number,
): Promise<Collected<T>> {
  const items: T[] = [];
  let limitReached = false;
  const run = await runRg(rg, args, scope.cwd, signal, (line) => {
    const item = parse(line);
    if (item === null) return true;
    if (items.length >= max) {
      limitReached = true;
      return false;
    }
    items.push(item);
    return true;
  });
  // Exit 1 = no match; 2 = an error, which still may come with results (an unreadable file).
  if (run.code === 2 && items.length === 0) throw rgFailure(run);
  return { items: items.sort(order), limitReached, run };
}

async function rgGrep(rg: string, req: GrepRequest): Promise<GrepResult> {
  const scope = await scopeOf(req.root);
  const include = req.include ?? [];
  const wanted = includeFilter(scope, include);
  const args = ['--json', ...commonRgArgs(include, req.exclude ?? [])];
  args.push(req.caseInsensitive ? '--ignore-case' : '--case-sensitive');
  if (req.fixed) args.push('--fixed-strings');
  args.push('-e', req.pattern, '--', scope.target);
  const parse = (line: Buffer): GrepMatch | null => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.toString('utf8'));
    } catch {
      return null;
    }
    const m = parseRgMatch(parsed, req.maxLineChars);
    if (m === null) return null;
    const abs = path.join(scope.cwd, m.path);
    return wanted(abs) ? { path: abs, line: m.line, text: m.text } : null;
  };
  const byPathThenLine = (a: GrepMatch, b: GrepMatch): number => comparePaths(a.path, b.path) || a.line - b.line;
  const found = await sortedResults(rg, args, scope, req.signal, req.maxResults, parse, byPathThenLine);
  const { code } = found.run;
  if (code !== 0 && code !== 1 && code !== 2) throw rgFailure(found.run);
  return { matches: found.items, limitReached: found.limitReached };
}

async function rgFindFiles(rg: string, req: FindFilesRequest): Promise<FindFilesResult> {
  const scope = await scopeOf(req.root);
  const wanted = includeFilter(scope, [req.glob]);
  const args = ['--files', ...commonRgArgs([req.glob], []), '--', scope.target];
  const parse = (bytes: Buffer): string | null => {
    const line = bytes.toString('utf8');
    const abs = path.join(scope.cwd, line);
    return line !== '' && wanted(abs) ? abs : null;
  };
  const found = await sortedResults(rg, args, scope, req.signal, req.maxResults, parse, comparePaths);
  return { files: found.items, limitReached: found.limitReached };
}

// ---------------------------------------------------------------------------------------------
// Pure JS fallback

/**
 * The fallback reads synchronously, one file after another: an asynchronous read costs four
 * thread-pool round trips a file (open, fstat, read, close), which made a 100,000-file search
 * twenty times slower than ripgrep. It gives the event loop a turn every SLICE_MS, so a stop
 * signal still ends it at once and the host stays responsive.
 */
const SLICE_MS = 10;
/** Files are read in chunks of this size: a large file never sits in memory whole. */
const CHUNK_BYTES = 1024 * 1024;

class Slicer {
  private since = performance.now();
  constructor(private readonly signal: AbortSignal | undefined) {
    checkAbort(signal);
  }

  /** Throws once the search is stopped; yields to the event loop when the current slice is used up. */
  async tick(): Promise<void> {
    checkAbort(this.signal);
    if (performance.now() - this.since < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
    checkAbort(this.signal);
  }
}

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error('the search was cancelled');
}

/** The text of a regular file, or null (missing, not a regular file, unreadable): for `.gitignore`. */
function readSmallRegularFile(file: string, followSymlink: boolean): string | null {
  let fd: number;
  try {
    // Non-blocking: a FIFO planted as `.gitignore` must not stall the walk.
    fd = openRegularSync(file, fsConstants.O_RDONLY, { followSymlink });
  } catch {
    return null;
  }
  try {
    return readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

interface IgnoreLayer {
  /** Absolute folder holding the `.gitignore`, without a trailing slash ('' for `/`). */
  base: string;
  rules: IgnoreRules;
}

function readGitignore(dir: string): IgnoreLayer | null {
  const text = readSmallRegularFile(path.join(dir, '.gitignore'), true);
  return text === null ? null : { base: dir === '/' ? '' : dir, rules: parseGitignore(text) };
}

/** `.gitignore` files of the folders above the search root apply too, as with ripgrep. */
function ancestorLayers(dir: string): IgnoreLayer[] {
  const chain: string[] = [];
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    chain.unshift(d);
    if (d === '/') break;
  }
  return chain.map(readGitignore).filter((l): l is IgnoreLayer => l !== null);
}

function ignored(layers: readonly IgnoreLayer[], abs: string, isDir: boolean): boolean {
  let verdict = false;
  for (const layer of layers) {
    const decided = layer.rules.decide(abs.slice(layer.base.length + 1), isDir);
    if (decided !== undefined) verdict = decided;
  }
  return verdict;
}

interface WalkFilter {
  include: Glob[];
  exclude: Glob[];
}

/**
 * Files below `root` (or `root` itself when it is a file), in path order, and `null` after each
 * folder read: the caller's chance to yield to the event loop while nothing matches.
 */
function* walk(root: string, filter: WalkFilter): Generator<string | null> {
  const top = path.normalize(root).replace(/(.)\/+$/, '$1');
  const stat = lstatSync(top);
  if (!stat.isDirectory()) {
    const name = path.basename(top);
    if (stat.isFile() && (filter.include.length === 0 || filter.include.some((g) => g.matches(name)))) yield top;
    return;
  }
  yield* walkDir(top === '/' ? '' : top, top === '/' ? '' : top, ancestorLayers(top), filter);
}

/** `root` and `dir` are absolute without a trailing slash ('' for `/`); paths are built by concatenation. */
function* walkDir(
  root: string,
  dir: string,
  parentLayers: readonly IgnoreLayer[],
  filter: WalkFilter,
): Generator<string | null> {
  const own = readGitignore(dir === '' ? '/' : dir);
  const layers = own === null ? parentLayers : [...parentLayers, own];
  let entries: Dirent[];
  try {
    entries = readdirSync(dir === '' ? '/' : dir, { withFileTypes: true });
  } catch {
    return;
  }
  yield null;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (ALWAYS_SKIPPED.has(entry.name)) continue;
    const isDir = entry.isDirectory();
    if (!isDir && !entry.isFile()) continue;
    const abs = `${dir}/${entry.name}`;
    if (ignored(layers, abs, isDir)) continue;
    const rel = abs.slice(root.length + 1);
    if (filter.exclude.some((g) => g.matches(rel))) continue;
    if (isDir) {
      yield* walkDir(root, abs, layers, filter);
    } else if (filter.include.length === 0 || filter.include.some((g) => g.matches(rel))) {
      yield abs;
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The pattern as UTF-8 bytes when it is plain text: case-sensitive, no metacharacter, no line
 * break, no U+FFFD (which the decoder makes of invalid bytes). A file without those bytes has no
 * matching line, so it is never decoded: most searches a planning agent runs are identifiers, and
 * decoding every file was most of the fallback's time and of the garbage that grew its heap.
 */
function literalOf(req: GrepRequest): Buffer | null {
  const { pattern } = req;
  if (req.caseInsensitive || pattern === '' || /[\n\r\uFFFD]/.test(pattern)) return null;
  if (!req.fixed && /[\\^$.|?*+()[\]{}]/.test(pattern)) return null;
  return Buffer.from(pattern, 'utf8');
}

function isBinary(chunk: Buffer, n: number): boolean {
  return chunk.subarray(0, Math.min(n, BINARY_SNIFF_BYTES)).includes(0);
}

/**
 * Whether the file holds `needle` (false for a binary file or a failed read), read a chunk at a
 * time; each chunk starts with the previous one's last `needle.length - 1` bytes, so a needle
 * across a chunk boundary is found too.
 */
async function containsBytes(fd: number, needle: Buffer, scan: Scan): Promise<boolean> {
  const chunk = scan.chunk;
  const overlap = needle.length - 1;
  let kept = 0;
  for (let position = 0; ;) {
    let n: number;
    try {
      n = readSync(fd, chunk, kept, chunk.length - kept, position);
    } catch {
      return false;
    }
    if (n === 0) return false;
    if (position === 0 && isBinary(chunk, n)) return false;
    position += n;
    const end = kept + n;
    if (chunk.subarray(0, end).includes(needle)) return true;
    kept = Math.min(overlap, end);
    chunk.copyWithin(0, end - kept, end);
    await scan.slicer.tick();
  }
}

function compilePattern(req: GrepRequest): RegExp {
  const source = req.fixed ? escapeRegExp(req.pattern) : req.pattern;
  try {
    return new RegExp(source, req.caseInsensitive ? 'i' : '');
  } catch (err) {
    throw new Error(`invalid regular expression: ${errorMessage(err)}`);
  }
}

interface Scan {
  regex: RegExp;
  /** The UTF-8 bytes every matching line contains, when the pattern is plain text (literalOf). */
  literal: Buffer | null;
  maxLineChars: number;
  chunk: Buffer;
  slicer: Slicer;
  /** Takes one match; returns false when no more are wanted. */
  emit(match: GrepMatch): boolean;
}

/**
 * Feeds the matching lines of one file to `scan.emit`, reading it a chunk at a time (memory stays
 * at one chunk plus the longest line). Binary files (a NUL in the first bytes, as ripgrep judges)
 * and anything that is not a regular file when opened are skipped. Returns false once `emit` did.
 */
async function scanFile(file: string, scan: Scan): Promise<boolean> {
  let fd: number;
  try {
    // The walk lists regular files only, but one can be swapped for a FIFO before it is read.
    fd = openRegularSync(file, fsConstants.O_RDONLY, { followSymlink: false });
  } catch {
    return true;
  }
  try {
    if (scan.literal !== null && !(await containsBytes(fd, scan.literal, scan))) return true;
    const decoder = new StringDecoder('utf8');
    let carry = '';
    let lineNo = 0;
    const line = (raw: string): boolean => {
      lineNo += 1;
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const found = scan.regex.exec(text);
      if (found === null) return true;
      return scan.emit({
        path: file,
        line: lineNo,
        text: excerptAround(text, found.index, found.index + found[0].length, scan.maxLineChars),
      });
    };
    for (let first = true, position = 0; ; first = false) {
      let n: number;
      try {
        n = readSync(fd, scan.chunk, 0, scan.chunk.length, position);
      } catch {
        return true;
      }
      if (n === 0) break;
      position += n;
      if (first && isBinary(scan.chunk, n)) return true;
      const text = carry + decoder.write(scan.chunk.subarray(0, n));
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        if (!line(text.slice(start, nl))) return false;
        start = nl + 1;
      }
      carry = text.slice(start);
      await scan.slicer.tick();
    }
    carry += decoder.end();
    return carry === '' || line(carry);
  } finally {
    closeSync(fd);
  }
}

/** The fallback on its own, for hosts without ripgrep and for tests comparing the two. */
export const jsSearch: Search = {
  async grep(req) {
    const regex = compilePattern(req);
    const slicer = new Slicer(req.signal);
    const filter: WalkFilter = {
      include: (req.include ?? []).map(compileGlob),
      exclude: (req.exclude ?? []).map(compileGlob),
    };
    const matches: GrepMatch[] = [];
    let limitReached = false;
    const scan: Scan = {
      regex,
      literal: literalOf(req),
      maxLineChars: req.maxLineChars,
      chunk: Buffer.allocUnsafe(CHUNK_BYTES),
      slicer,
      emit(match) {
        if (matches.length >= req.maxResults) {
          limitReached = true;
          return false;
        }
        matches.push(match);
        return true;
      },
    };
    for (const file of walk(req.root, filter)) {
      await slicer.tick();
      if (file !== null && !(await scanFile(file, scan))) break;
    }
    return { matches, limitReached };
  },
  async findFiles(req) {
    const glob = compileGlob(req.glob);
    const slicer = new Slicer(req.signal);
    const files: string[] = [];
    for (const file of walk(req.root, { include: [glob], exclude: [] })) {
      await slicer.tick();
      if (file === null) continue;
      if (files.length >= req.maxResults) return { files, limitReached: true };
      files.push(file);
    }
    return { files, limitReached: false };
  },
};
