/**
 * The windows the extension-host suites run in. A window's folders are fixed for its life (adding
 * a first folder restarts the extension host), so each kind is a run of its own, and a suite file
 * says by its name which window it needs:
 *   *.test.ts            the sample workspace folder (most suites)
 *   *.multiroot.test.ts  a workspace of two folders, `alpha` and `beta` (a .code-workspace file)
 *   *.nofolder.test.ts   a window with no folder open
 *   *.untrusted.test.ts  the sample workspace folder in Restricted Mode (workspace trust on, folder not trusted)
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type WindowKind = 'folder' | 'multi-root' | 'no-folder' | 'untrusted';
const WINDOW_KINDS: readonly WindowKind[] = ['folder', 'multi-root', 'no-folder', 'untrusted'];

/** What a workbench window opens. */
export type WindowTarget = { folder: string } | { workspace: string } | { empty: true };

/** The window a compiled suite file (`x.test.js`, `x.multiroot.test.js`, …) runs in; null for other files. */
export function windowOfSuite(file: string): WindowKind | null {
  if (file.endsWith('.multiroot.test.js')) return 'multi-root';
  if (file.endsWith('.nofolder.test.js')) return 'no-folder';
  if (file.endsWith('.untrusted.test.js')) return 'untrusted';
  if (file.endsWith('.test.js')) return 'folder';
  return null;
}

export function parseWindowKinds(list: string | undefined): WindowKind[] {
  if (list === undefined || list.trim() === '') return [...WINDOW_KINDS];
  return list.split(',').map((k) => {
    const kind = WINDOW_KINDS.find((w) => w === k.trim());
    if (!kind) throw new Error(`unknown extension-host window '${k}'; use ${WINDOW_KINDS.join(', ')}`);
    return kind;
  });
}

/**
 * Two copies of `source` as the folders `alpha` and `beta` of `<runDir>/mr/multi.code-workspace`;
 * `settings` are the workspace's settings (a multi-root workspace keeps them in that file).
 */
export function prepareMultiRootWorkspace(runDir: string, source: string, settings: Record<string, unknown>): string {
  const dir = join(runDir, 'mr');
  mkdirSync(dir, { recursive: true });
  for (const name of ['alpha', 'beta']) cpSync(source, join(dir, name), { recursive: true });
  const file = join(dir, 'multi.code-workspace');
  writeFileSync(file, JSON.stringify({ folders: [{ path: 'alpha' }, { path: 'beta' }], settings }, null, 2));
  return file;
}
