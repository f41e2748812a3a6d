/**
 * Activation stays lean (issue 14 item 1): the plan model carries markdown-it, so it is its own
 * bundle (dist/plan-model.js, loaded when a plan file is first opened) and nothing the
 * activation bundle imports may pull markdown-it in (e.g. through the tracker's index).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
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

test('activation bundle: markdown-it and the plan parser stay out; the plan-model bundle has them', async () => {
  const activation = await bundledInputs('src/extension/main.ts', [
    'vscode',
    './session-runtime.js',
    './plan-model.js',
  ]);
  assert.deepEqual(
    activation.filter((p) => /node_modules\/markdown-it\/|src\/core\/plan\/(?:parse|validate)\.ts$/.test(p)),
    [],
  );
  const planModel = await bundledInputs('src/extension/plan-model.ts', ['vscode']);
  assert.ok(
    planModel.some((p) => /node_modules\/markdown-it\//.test(p)),
    'the plan model parses with markdown-it',
  );
});
