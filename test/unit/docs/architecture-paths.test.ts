/**
 * docs/architecture.md tells a newcomer which file to open for each rule and which files a new
 * tool, provider or setting touches. A file moved or renamed without the doc would send them to
 * nothing, so every repository path the doc names must exist.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(import.meta.dirname, '..', '..', '..');
const DOC = 'docs/architecture.md';

/** Names in the repository's top folder: a path in the diagram counts when it starts with one. */
const TOP_LEVEL = new Set(readdirSync(REPO));

const PATH_LIKE = /^[\w.<>-]+(\/[\w.<>-]+)*\/?$/;
const FILE_EXTENSION = /\.(ts|tsx|mjs|js|json|md|css)$/;

/**
 * Whether a backticked span names a repository path: it has a folder part or a file extension.
 * Spans starting with `.vtcode/` name the runtime's files in a user's workspace, not this repo.
 */
function isRepoPath(span: string): boolean {
  if (!PATH_LIKE.test(span) || span.startsWith('.vtcode/')) return false;
  return span.includes('/') || FILE_EXTENSION.test(span);
}

/** A placeholder (`src/core/tools/<name>.ts`) is checked up to the folder that holds it. */
function existingPart(path: string): string {
  const placeholder = path.indexOf('<');
  return placeholder === -1 ? path : path.slice(0, path.lastIndexOf('/', placeholder) + 1);
}

/** Every repository path the doc names: inline code spans, and paths written inside the diagram. */
function namedPaths(markdown: string): string[] {
  const paths: string[] = [];
  const parts = markdown.split(/^```.*$/m);
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      for (const token of part.match(/[\w.-]+\/[\w./<>-]*/g) ?? [])
        if (TOP_LEVEL.has(token.split('/')[0]!)) paths.push(token);
      return;
    }
    for (const [, span] of part.matchAll(/`([^`\n]+)`/g)) if (isRepoPath(span!)) paths.push(span!);
  });
  return paths;
}

test('every repository path named in docs/architecture.md exists', () => {
  const paths = namedPaths(readFileSync(join(REPO, DOC), 'utf8'));
  assert.ok(paths.length > 50, `expected the doc to name its files, found ${paths.length} paths`);
  const missing = paths.filter((p) => !existsSync(join(REPO, existingPart(p))));
  assert.deepEqual(missing, [], `${DOC} names paths that do not exist: ${missing.join(', ')}`);
});

test('the path reader finds inline paths and diagram paths, and skips everything else', () => {
  const sample = [
    'Open `src/core/ports.ts` and `package.json`; not `vtplan.provider`, `zod`, `vtplan run --jsonl`',
    'nor `.vtcode/plans/<slug>.md`. A placeholder: `src/core/tools/<name>.ts`.',
    '```',
    ' Session    src/core/session/session.ts  -> lib/nowhere.ts',
    '```',
  ].join('\n');
  assert.deepEqual(namedPaths(sample), [
    'src/core/ports.ts',
    'package.json',
    'src/core/tools/<name>.ts',
    'src/core/session/session.ts',
  ]);
  assert.equal(existingPart('src/core/tools/<name>.ts'), 'src/core/tools/');
});
