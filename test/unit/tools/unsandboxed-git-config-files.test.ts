import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { runCommandTool } from '../../../src/core/tools';
import { createNodeShell } from '../../../src/node/shell';
import { ctxFor, makeWorkspace } from './helpers';

// Without an OS sandbox, plan mode refuses git while the repository's configuration names a
// program (RO-1, RO-2). git reads that configuration from more than `.git/config`: the
// per-worktree file `.git/config.worktree` (with `extensions.worktreeConfig`), and the config of
// the common folder that `.git/commondir` names. Each must be judged like `.git/config`.

function unsandboxedPlan(own: ReturnType<typeof makeWorkspace>) {
  const ctx = ctxFor(own, { mode: 'plan' });
  ctx.ports = { ...ctx.ports, shell: createNodeShell({ bwrap: null }) };
  return ctx;
}

function committedRepository(own: ReturnType<typeof makeWorkspace>): void {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: own.root, encoding: 'utf8' });
  git('init', '-q');
  own.write('a.txt', 'alpha\n');
  own.write('.gitattributes', 'a.txt diff=vt\n');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-qm', 'init');
}

test('RO-1, RO-2: without a sandbox, plan mode refuses git while .git/config.worktree names a program; the program does not run', async () => {
  const own = makeWorkspace();
  try {
    committedRepository(own);
    spawnSync('git', ['config', 'extensions.worktreeConfig', 'true'], { cwd: own.root });
    const marker = path.join(own.outside, 'textconv-ran');
    fs.writeFileSync(
      path.join(own.root, '.git', 'config.worktree'),
      `[diff "vt"]\n\ttextconv = touch ${marker}; cat\n`,
    );
    const r = await runCommandTool.run({ command: 'git log -p -1' }, unsandboxedPlan(own));
    assert.equal(r.error?.code, 'refused', r.content);
    assert.match(r.content, /the repository's \.git\/config\.worktree sets `textconv`, a program git would run/);
    assert.equal(fs.existsSync(marker), false, 'the textconv program did not run');
  } finally {
    own.cleanup();
  }
});

test('RO-1, RO-2: without a sandbox, plan mode refuses git while .git/commondir moves the repository configuration elsewhere', async () => {
  const own = makeWorkspace();
  try {
    committedRepository(own);
    // The common folder holds the config git reads; it may sit anywhere, so it is not looked into.
    const common = path.join(own.root, 'common');
    fs.cpSync(path.join(own.root, '.git'), common, { recursive: true });
    const marker = path.join(own.outside, 'textconv-ran');
    fs.appendFileSync(path.join(common, 'config'), `[diff "vt"]\n\ttextconv = touch ${marker}; cat\n`);
    fs.writeFileSync(path.join(own.root, '.git', 'commondir'), `${common}\n`);
    const r = await runCommandTool.run({ command: 'git log -p -1' }, unsandboxedPlan(own));
    assert.equal(r.error?.code, 'refused', r.content);
    assert.match(r.content, /\.git\/commondir` names another folder whose configuration git reads/);
    assert.equal(fs.existsSync(marker), false, 'the textconv program did not run');
  } finally {
    own.cleanup();
  }
});

test('RO-1, RO-2: without a sandbox, plan mode refuses git while a nested repository config names a program (`git -C sub`, `cd sub && git`)', async () => {
  const own = makeWorkspace();
  try {
    own.write('sub/a.txt', 'alpha\n');
    own.write('sub/.gitattributes', 'a.txt diff=vt\n');
    const git = (...args: string[]) => spawnSync('git', args, { cwd: path.join(own.root, 'sub'), encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-qm', 'init');
    const ctx = unsandboxedPlan(own);
    assert.ok(
      (await runCommandTool.run({ command: 'git -C sub log -1' }, ctx)).ok,
      'a plain nested repository is fine',
    );
    const marker = path.join(own.outside, 'textconv-ran');
    git('config', 'diff.vt.textconv', `touch ${marker}; cat`);
    for (const command of ['git -C sub log -p -1', 'cd sub && git log -p -1']) {
      const r = await runCommandTool.run({ command }, ctx);
      assert.equal(r.error?.code, 'refused', command);
      assert.match(r.content, /the repository's sub\/\.git\/config sets `textconv`, a program git would run/, command);
    }
    assert.equal(fs.existsSync(marker), false, 'the textconv program did not run');
  } finally {
    own.cleanup();
  }
});

test('RO-1, RO-2: without a sandbox, plan mode refuses git while a nested `.git` is a pointer to a repository elsewhere', async () => {
  const own = makeWorkspace();
  try {
    spawnSync('git', ['init', '-q', path.join(own.outside, 'real')]);
    own.write('sub/.git', `gitdir: ${path.join(own.outside, 'real', '.git')}\n`);
    const r = await runCommandTool.run({ command: 'git -C sub status --short' }, unsandboxedPlan(own));
    assert.equal(r.error?.code, 'refused', r.content);
    assert.match(
      r.content,
      /`sub\/\.git` is not a folder \(a worktree or submodule pointer leads to a repository elsewhere\)/,
    );
  } finally {
    own.cleanup();
  }
});

test('RO-1, RO-2: without a sandbox, a program key or include written on the line of its section header (git reads it so) still refuses git', async () => {
  const own = makeWorkspace();
  try {
    committedRepository(own);
    const configPath = path.join(own.root, '.git', 'config');
    const plain = fs.readFileSync(configPath, 'utf8');
    const marker = path.join(own.outside, 'textconv-ran');
    const ctx = unsandboxedPlan(own);
    for (const [lines, reason] of [
      [`[diff "vt"] textconv = touch ${marker}; cat\n`, 'sets `textconv`, a program git would run'],
      [`[diff "v]t"] textconv = touch ${marker}; cat\n`, 'sets `textconv`, a program git would run'],
      [`[core][diff "vt"]\tTextConv=touch ${marker}; cat\n`, 'sets `TextConv`, a program git would run'],
      [`[core] [include] path = ../other.cfg\n`, 'includes other config files'],
      [`[core] [alias] lg = !touch ${marker}\n`, 'defines aliases'],
    ] as const) {
      fs.writeFileSync(configPath, plain + lines);
      const r = await runCommandTool.run({ command: 'git log -p -1' }, ctx);
      assert.equal(r.error?.code, 'refused', lines);
      assert.ok(r.content.includes(`the repository's .git/config ${reason}`), `${lines}: ${r.content}`);
    }
    assert.equal(fs.existsSync(marker), false, 'the textconv program did not run');
  } finally {
    own.cleanup();
  }
});

test('RO-1, RO-2: without a sandbox, plan-mode `git diff` runs no hook of the repository (the index refresh would run post-index-change)', async () => {
  const own = makeWorkspace();
  try {
    committedRepository(own);
    const marker = path.join(own.outside, 'hook-ran');
    fs.writeFileSync(path.join(own.root, '.git', 'hooks', 'post-index-change'), `#!/bin/sh\ntouch '${marker}'\n`, {
      mode: 0o755,
    });
    const later = Date.now() / 1000 + 60;
    fs.utimesSync(path.join(own.root, 'a.txt'), later, later);
    const r = await runCommandTool.run({ command: 'git diff' }, unsandboxedPlan(own));
    assert.ok(r.ok, r.content);
    assert.equal(fs.existsSync(marker), false, 'the hook did not run');
  } finally {
    own.cleanup();
  }
});

test('RO-1, RO-2: without a sandbox, plan mode refuses git while a repository config file is a link (git reads what it leads to)', async () => {
  const own = makeWorkspace();
  try {
    committedRepository(own);
    const marker = path.join(own.outside, 'textconv-ran');
    const config = path.join(own.root, '.git', 'config');
    const real = path.join(own.root, '.git', 'config.real');
    fs.writeFileSync(real, `${fs.readFileSync(config, 'utf8')}[diff "vt"]\n\ttextconv = touch ${marker}; cat\n`);
    fs.rmSync(config);
    fs.symlinkSync('config.real', config);
    const r = await runCommandTool.run({ command: 'git log -p -1' }, unsandboxedPlan(own));
    assert.equal(r.error?.code, 'refused', r.content);
    assert.match(r.content, /`\.git\/config` is not a plain file, and git would read the config it leads to/);
    assert.equal(fs.existsSync(marker), false, 'the textconv program did not run');
  } finally {
    own.cleanup();
  }
});

test('RO-1, RO-2: without a sandbox, only config inside a `.git` folder is judged: project files named config, a folder named config and program words inside values leave git allowed', async () => {
  const own = makeWorkspace();
  try {
    committedRepository(own);
    spawnSync('git', ['config', 'remote.origin.url', 'https://example.org/repo?tool=x&command=y'], { cwd: own.root });
    // A submodule named `config` keeps its repository in the folder `.git/modules/config`.
    own.write('.git/modules/config/config', '[core]\n\tbare = false\n');
    for (const name of ['config', 'config.worktree', 'deploy/config'])
      own.write(name, '[alias]\n\tlg = !touch pwned\n[core]\n\teditor = vim\n[include]\n\tpath = x\n');
    const r = await runCommandTool.run({ command: 'git log -1' }, unsandboxedPlan(own));
    assert.ok(r.ok, r.content);
  } finally {
    own.cleanup();
  }
});
