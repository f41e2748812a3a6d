/**
 * Differential check of the workspace path rule's `cd` tracking against the shell that really
 * runs commands (/bin/sh): RO-2, MODE-1, a command may only name paths inside the workspace (lexically: a symlink inside it is not resolved). Generated
 * lines of `cd DIR` and `realpath -m PATH` joined by `&&`, `||`, `;`, `|` (some in parentheses,
 * some `cd`s failing) run in a real folder tree; whenever the check allows a line, every path
 * /bin/sh actually resolved must lie inside the workspace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { checkCommandPaths } from '../../../src/core/policy';

test('RO-2, MODE-1: allowed cd chains resolve inside the workspace under the real /bin/sh', () => {
  const base = fs.realpathSync(fs.mkdtempSync(join(os.tmpdir(), 'vtplan-cd-')));
  const root = join(base, 'ws');
  for (const dir of ['a/b', 'c']) fs.mkdirSync(join(root, dir), { recursive: true });
  try {
    const folder = fc.constantFrom('a', 'b', 'a/b', 'c', 'missing', '..', 'a/..', `${root}/a`, `${root}/a/b`, '.');
    const target = fc.constantFrom('x', '../x', '../../x', 'a/../x', '../ws/x', '../../ws/x', `${root}/x`);
    const segment = fc.oneof(
      folder.map((d) => `cd ${d}`),
      target.map((p) => `realpath -m ${p}`),
    );
    const joiner = fc.constantFrom(' && ', ' || ', '; ', ' | ');
    const line = fc
      .tuple(fc.array(fc.tuple(segment, joiner), { minLength: 1, maxLength: 4 }), target, fc.boolean())
      .map(([parts, last, group]) => {
        const body = parts.map(([s, j]) => `${s}${j}`).join('');
        const head =
          group && parts.length > 1
            ? `(${body.slice(0, -parts[parts.length - 1]![1].length)})${parts[parts.length - 1]![1]}`
            : body;
        return `${head}realpath -m ${last}`;
      });
    const sh = (command: string) => {
      const r = spawnSync('/bin/sh', ['-c', command], {
        cwd: root,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });
      // A missing `realpath` would print nothing and so pass every line: the commands must really run.
      assert.doesNotMatch(r.stderr, /not found|No such file or directory.*realpath/, `${command}: ${r.stderr}`);
      return r.stdout.split('\n').filter((l) => l !== '');
    };
    // Positive control: the shell resolves a path in this tree and reports it.
    assert.deepEqual(sh('cd a && realpath -m ../x'), [`${root}/x`]);
    let allowedRuns = 0;
    let resolvedPaths = 0;
    fc.assert(
      fc.property(line, (command) => {
        if (!checkCommandPaths(command, root).allowed) return true;
        allowedRuns += 1;
        const resolved = sh(command);
        resolvedPaths += resolved.length;
        const outside = resolved.filter((p) => p !== root && !p.startsWith(`${root}/`));
        assert.deepEqual(outside, [], `${command} resolved ${outside.join(', ')}`);
        return true;
      }),
      { numRuns: 400, seed: 19 },
    );
    assert.ok(allowedRuns > 50, `only ${allowedRuns} generated lines were allowed`);
    assert.ok(
      resolvedPaths >= allowedRuns,
      `the allowed lines resolved only ${resolvedPaths} paths in ${allowedRuns} runs`,
    );
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});
