// Runs inside the real extension host (see scripts/bench.mjs). Activation = loading the bundle +
// the activate() call, the two parts VS Code's "Running Extensions" view reports. The full
// `extension.activate()` round trip also includes VS Code preparing the ExtensionContext
// (storage over RPC), which no extension controls; it is printed beside it for context.
import * as assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

suite('activation figure', () => {
  test('time to load and activate vtcode.vtcode-planning', async () => {
    const ext = vscode.extensions.getExtension<{ activationMs: number }>('vtcode.vtcode-planning');
    assert.ok(ext, 'extension loaded');
    assert.equal(ext.isActive, false, 'nothing activated the extension before the measurement');
    const t0 = performance.now();
    // The CommonJS loader VS Code itself uses, so the module cache is shared with activate().
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(join(ext.extensionPath, 'dist', 'extension.js'));
    const loadMs = performance.now() - t0;
    const t1 = performance.now();
    const api = await ext.activate();
    const roundTripMs = performance.now() - t1;
    const out = process.env.VTPLAN_BENCH_OUT;
    assert.ok(out, 'VTPLAN_BENCH_OUT is set');
    appendFileSync(out, `${JSON.stringify({ loadMs, activateMs: api.activationMs, roundTripMs })}\n`);
  });
});
