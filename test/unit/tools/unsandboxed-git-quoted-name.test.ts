import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { runCommandTool } from '../../../src/core/tools';
import { createNodeShell } from '../../../src/node/shell';
import { ctxFor, makeWorkspace } from './helpers';

// RO-1, RO-2: without an OS sandbox, plan mode refuses git while the repository's configuration
// names a program. The shell removes quotes and backslashes from the program's name, so a quoted
// `"git"` is git too and must meet the same check (it ran the program before).

test('RO-1, RO-2: without a sandbox, a quoted or escaped git name meets the repository-config check; the program does not run', async () => {
  for (const command of ['"git" log -p -1', "g'i't log -p -1", '\\git log -p -1']) {
    const own = makeWorkspace();
    try {
      const git = (...args: string[]) => spawnSync('git', args, { cwd: own.root, encoding: 'utf8' });
      git('init', '-q');
      own.write('a.txt', 'alpha\n');
      own.write('.gitattributes', 'a.txt diff=vt\n');
      git('add', '.');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-qm', 'init');
      const marker = path.join(own.outside, 'textconv-ran');
      fs.appendFileSync(path.join(own.root, '.git', 'config'), `[diff "vt"]\n\ttextconv = touch ${marker} && cat\n`);
      const ctx = ctxFor(own, { mode: 'plan' });
      ctx.ports = { ...ctx.ports, shell: createNodeShell({ bwrap: null }) };
      const r = await runCommandTool.run({ command }, ctx);
      assert.equal(r.error?.code, 'refused', `${command}: ${r.content}`);
      assert.match(r.content, /the repository's \.git\/config sets `textconv`, a program git would run/, command);
      assert.equal(fs.existsSync(marker), false, `${command}: the textconv program did not run`);
    } finally {
      own.cleanup();
    }
  }
});
