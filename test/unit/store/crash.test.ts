import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { validatePlan } from '../../../src/core/plan';
import { seededRandom } from '../../fixtures/seeded-random';

const KILLS = 12;

function bigPlan(label: string): string {
  // Long enough that the seeded cut points fall on many different lines.
  const assumptions = Array.from(
    { length: 400 },
    (_, i) => `- ${label} assumption ${i}: \`module_${i}\` keeps its behaviour.`,
  ).join('\n');
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

/**
 * Runs the writer until it reports that write number `killAt` is part-way (`cut` characters on
 * disk), then SIGKILLs it. Resolves with the path that was being written.
 */
function killMidWrite(args: string[]): Promise<{ path: string; written: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crash-writer.ts'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let inWrite: { path: string; written: number } | null = null;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /^in-write (.+) (\d+)$/m.exec(stdout);
      if (m && inWrite === null) {
        inWrite = { path: m[1] as string, written: Number(m[2]) };
        child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL' && inWrite !== null) resolve(inWrite);
      else
        reject(new Error(`writer exited (code ${code}, signal ${signal}) before a kill landed mid-write: ${stderr}`));
    });
  });
}

test(
  'STORE-2: a writer SIGKILLed part-way through a write (seeded write and cut) always leaves the old or the new valid plan, never a partial file',
  { timeout: 120_000 },
  async () => {
    const root = fs.mkdtempSync(join(os.tmpdir(), 'vtplan-crash-'));
    const random = seededRandom(19);
    try {
      const a = bigPlan('A');
      const b = bigPlan('B');
      fs.writeFileSync(join(root, 'a.txt'), a);
      fs.writeFileSync(join(root, 'b.txt'), b);
      const target = join(root, '.vtcode/plans/crash.md');
      const seen = new Set<string>();
      for (let k = 0; k < KILLS; k++) {
        // Writes 1 and 2 give the target its first content; later ones replace it.
        const killAt = 3 + Math.floor(random() * 6);
        const cut = 1 + Math.floor(random() * (a.length - 2));
        const killed = await killMidWrite([
          root,
          target,
          join(root, 'a.txt'),
          join(root, 'b.txt'),
          String(killAt),
          String(cut),
        ]);
        // The kill landed in the write window: the interrupted file holds exactly the first `cut` characters.
        assert.equal(killed.written, cut);
        assert.equal(
          fs.readFileSync(killed.path, 'utf8').length,
          cut,
          `kill ${k + 1}: the interrupted write is on disk, part-way`,
        );
        const content = fs.readFileSync(target, 'utf8');
        assert.ok(
          content === a || content === b,
          `after kill ${k + 1} (write ${killAt}, ${cut} characters) the file is exactly one of the two plans (length ${content.length})`,
        );
        assert.equal(validatePlan(content).ready, true);
        assert.equal(fs.statSync(target).mode & 0o777, 0o600);
        seen.add(content === a ? 'A' : 'B');
      }
      // Stray temp files from killed writers never look like plans.
      const names = fs.readdirSync(join(root, '.vtcode/plans'));
      assert.deepEqual(
        names.filter((n) => n.endsWith('.md')),
        ['crash.md'],
      );
      assert.deepEqual([...seen].sort(), ['A', 'B'], 'kills landed while either plan was being replaced');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
);
