// Runs inside the real extension host (see scripts/bench.mjs), once a launch. Activation = loading
// the bundle + the `extension.activate()` round trip, which includes VS Code preparing the
// ExtensionContext (storage over RPC) and our activate(). The same is measured for an extension
// that does nothing (bench/exthost/empty-extension, installed into the same host), so every
// launch gives one sample of each under the same load. A copy of the empty extension under
// another id is activated first and not counted: the first activation in a host pays for warming
// it; and which of the two measured goes first alternates by launch.
import * as assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

const MEASURED = ['vtcode.vtcode-planning', 'vtcode-bench.empty'] as const;

type Id = (typeof MEASURED)[number] | 'vtcode-bench.warmup';

interface Sample {
  id: Id;
  /** require() of the main module. */
  loadMs: number;
  /** What the extension's own activate() reported (ours measures itself; the empty one does nothing). */
  activateMs: number;
  /** extension.activate() as VS Code runs it, the module already loaded. */
  roundTripMs: number;
  /** Of the round trip: VS Code's part before the extension's activate() began. */
  beforeMs: number;
  /** Of the round trip: from activate() returning to the awaiting caller running again. */
  afterMs: number;
  /** Which of the two went first in this launch. */
  first: boolean;
}

async function measure(id: Id, first: boolean): Promise<Sample> {
  const ext = vscode.extensions.getExtension<{ activationMs: number; activationStartedAt: number }>(id);
  assert.ok(ext, `${id} is installed`);
  assert.equal(ext.isActive, false, `nothing activated ${id} before the measurement`);
  const t0 = performance.now();
  // The CommonJS loader VS Code itself uses, so the module cache is shared with activate().
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(join(ext.extensionPath, ext.packageJSON.main as string));
  const loadMs = performance.now() - t0;
  const t1 = performance.now();
  const api = await ext.activate();
  const t2 = performance.now();
  return {
    id,
    loadMs,
    activateMs: api.activationMs,
    roundTripMs: t2 - t1,
    beforeMs: api.activationStartedAt - t1,
    afterMs: t2 - (api.activationStartedAt + api.activationMs),
    first,
  };
}

suite('activation figure', () => {
  test('time to load and activate vtcode.vtcode-planning, and an empty extension beside it', async () => {
    const out = process.env.VTPLAN_BENCH_OUT;
    assert.ok(out, 'VTPLAN_BENCH_OUT is set');
    const launch = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean).length / MEASURED.length : 0;
    const order = launch % 2 === 0 ? MEASURED : [...MEASURED].reverse();
    const samples: Sample[] = [];
    await measure('vtcode-bench.warmup', true);
    for (const [i, id] of order.entries()) samples.push(await measure(id, i === 0));
    for (const s of samples) appendFileSync(out, `${JSON.stringify(s)}\n`);
  });
});
