/**
 * Activation stays lean (issue 14 item 1, issue 16 item 1): the plan model carries markdown-it, so
 * it is its own bundle (dist/plan-model.js, loaded when a plan file is first opened), and the
 * workbench (settings, session host, chat and Tasks models, zod) is dist/workbench.js, loaded on
 * first use. Nothing the activation bundle imports may pull markdown-it or zod back in (e.g.
 * through the tracker's index, or a value import of a workbench module).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const root = join(import.meta.dirname, '../../..');

async function bundledInputs(entry: string, external: string[]): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'cjs',
    external,
    logLevel: 'silent',
  });
  return Object.values(result.metafile.outputs).flatMap((o) => Object.keys(o.inputs));
}

test('activation bundle: markdown-it, the plan parser, zod and the planning gates stay out; the plan-model and workbench bundles have them', async () => {
  // The externals of the `extension` bundle in scripts/build.mjs.
  const activation = await bundledInputs('src/extension/main.ts', [
    'vscode',
    './workbench.js',
    './plan-model.js',
    './gate-tools.js',
  ]);
  assert.deepEqual(
    activation.filter((p) =>
      /node_modules\/(?:markdown-it|zod)\/|src\/core\/plan\/(?:parse|validate)\.ts$|src\/protocol\.ts$|src\/core\/gates\//.test(
        p,
      ),
    ),
    [],
  );
  const workbench = await bundledInputs('src/extension/workbench.ts', [
    'vscode',
    './session-runtime.js',
    './plan-model.js',
  ]);
  assert.ok(
    workbench.some((p) => /node_modules\/zod\//.test(p)),
    'the workbench parses settings and webview messages with zod',
  );
  const planModel = await bundledInputs('src/extension/plan-model.ts', ['vscode']);
  assert.ok(
    planModel.some((p) => /node_modules\/markdown-it\//.test(p)),
    'the plan model parses with markdown-it',
  );
});

test('every bundle the extension loads on demand ships in the .vsix (.vscodeignore)', () => {
  const shipped = new Set(
    readFileSync(join(root, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('!dist/'))
      .map((line) => line.slice('!dist/'.length)),
  );
  const dir = join(root, 'src/extension');
  const loaded = new Set(
    readdirSync(dir)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => [...readFileSync(join(dir, name), 'utf8').matchAll(/import\('\.\/([\w-]+\.js)'\)/g)])
      .map((m) => m[1] ?? ''),
  );
  assert.ok(loaded.has('gate-tools.js') && loaded.has('session-runtime.js'), 'the lazy bundles are found');
  assert.deepEqual(
    [...loaded].filter((file) => !shipped.has(file)),
    [],
  );
});
