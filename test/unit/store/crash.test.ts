import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { validatePlan } from '../../../src/core/plan';

const KILLS = 20;

function bigPlan(label: string): string {
  // Large enough (~300 KB) that a kill regularly lands while a temp file is being written.
  const assumptions = Array.from({ length: 4000 }, (_, i) => `- ${label} assumption ${i}: \`module_${i}\` keeps its behaviour.`).join('\n');
  return `# Plan ${label}

## Summary
Variant ${label} of the crash-safety plan.

## Scope
- In: src/a.ts

## Implementation Steps
1. Update \`parse_${label}\` -> files: [src/a.ts] -> verify: [npm test]

## Test Cases and Validation
- \`npm test\`

## Assumptions and Defaults
${assumptions}
`;
}

function runUntilKilled(args: string[], delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crash-writer.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited ${code}: ${stderr}`))));
  });
}

test('STORE-2: a writer SIGKILLed at random moments always leaves the old or the new valid plan, never a partial file', { timeout: 120_000 }, async () => {
  const root = fs.mkdtempSync(join(os.tmpdir(), 'vtplan-crash-'));
  try {
    const a = bigPlan('A');
    const b = bigPlan('B');
    fs.writeFileSync(join(root, 'a.txt'), a);
    fs.writeFileSync(join(root, 'b.txt'), b);
    const target = join(root, '.vtcode/plans/crash.md');
    const seen = new Set<string>();
    for (let k = 0; k < KILLS; k++) {
      await runUntilKilled([root, target, join(root, 'a.txt'), join(root, 'b.txt')], Math.floor(Math.random() * 40));
      const content = fs.readFileSync(target, 'utf8');
      assert.ok(content === a || content === b, `after kill ${k + 1} the file is exactly one of the two plans (length ${content.length})`);
      assert.equal(validatePlan(content).ready, true);
      assert.equal(fs.statSync(target).mode & 0o777, 0o600);
      seen.add(content === a ? 'A' : 'B');
    }
    // Stray temp files from killed writers never look like plans.
    const names = fs.readdirSync(join(root, '.vtcode/plans'));
    assert.deepEqual(names.filter((n) => n.endsWith('.md')), ['crash.md']);
    console.log(`kills: ${KILLS}, plans seen: ${[...seen].join(', ')}, interrupted temp files left: ${names.filter((n) => n.endsWith('.tmp')).length}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
