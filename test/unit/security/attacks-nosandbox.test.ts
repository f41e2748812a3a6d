/**
 * Plan mode where no OS sandbox can be had (macOS, Windows, containers without user namespaces):
 * the CLI runs with a PATH on which `bwrap` is not found, so `isolation()` says "policy only" and
 * plan mode runs only what the policy classes as inspection (run-command.ts). The read-only and
 * stay-inside promises then rest on the policy alone, so every inspection command it admits must
 * be harmless without a sandbox: no write, no read through a symlink or a parent repository, no
 * program started by repository config. (Auto mode without a sandbox is policy-only by design and
 * says so in the session header; it is not judged here.)
 */
import * as assert from 'node:assert/strict';
import { attackSuite, type Attack } from './attack-checks';
import {
  EXEC_FILES,
  EXEC_REPO,
  OUTSIDE_LINKS as LINKS,
  PARENT_REPO as PARENT,
  PARENT_SECRET,
  PATH_SHIM_EXECUTABLES,
  PATH_SHIMS,
  PATH_WITH_WORKSPACE_BIN,
} from './attack-fixtures';
import { describeReport, type CaseReport } from './harness';
const FILES = { 'a.txt': 'a\nb\nx\n', 'a.hex': '68690a\n', 'p.yaml': 'a: 1\n' };

const policyOnly = {
  name: 'harness: the session really ran without a sandbox ("policy only")',
  check: (r: CaseReport) => {
    const started = r.events.find((e) => e.type === 'session.started');
    assert.ok(started?.type === 'session.started' && started.sandbox?.sandboxed === false, describeReport(r));
  },
};

const attacks: Attack[] = [
  {
    title: 'no sandbox: symlinks',
    c: {
      name: 'nosbx-symlinks',
      mode: 'plan',
      sandbox: 'none',
      symlinks: LINKS,
      command: [
        'cat link',
        'grep -R . .',
        'head -n 3 link-dir/secret.env',
        'sed -n p id-link',
        'cat link-dir/canary.txt',
        'jq -R . link',
      ],
    },
    expect: { extra: policyOnly },
  },
  {
    title: 'no sandbox: parent repository',
    c: {
      name: 'nosbx-parent-repo',
      mode: 'plan',
      sandbox: 'none',
      repo: PARENT,
      command: [
        'git log -p',
        'git show HEAD',
        'git log -p --all',
        'git show HEAD --stat',
        "git grep -n PARENT_SECRET -- ':/'",
        'git show HEAD:../secret.txt',
      ],
    },
    expect: { secrets: [PARENT_SECRET], extra: policyOnly },
  },
  {
    title: 'no sandbox: repository config runs programs',
    c: {
      name: 'nosbx-git-config-exec',
      mode: 'plan',
      sandbox: 'none',
      repo: EXEC_REPO,
      files: EXEC_FILES,
      command: ['git show HEAD', 'git log -p -1', 'git status', 'git diff HEAD', 'git log -1'],
    },
    expect: { noWorkspace: [/^pwned/], extra: policyOnly },
  },
  {
    title: 'no sandbox: PATH into the workspace',
    c: {
      name: 'nosbx-path-shims',
      mode: 'plan',
      sandbox: 'none',
      env: { PATH: PATH_WITH_WORKSPACE_BIN },
      files: PATH_SHIMS,
      executables: PATH_SHIM_EXECUTABLES,
      command: ['cat README.md', 'ls', 'git status'],
    },
    expect: { noWorkspace: [/^pwned/], extra: policyOnly },
  },
  {
    title: 'no sandbox: named forms',
    c: {
      name: 'nosbx-named-writers',
      mode: 'plan',
      sandbox: 'none',
      files: FILES,
      command: [
        "sed ':x w out-sed.txt' a.txt",
        "sed -n '1r {outside}/canary.txt' a.txt",
        'uniq --group a.txt out-uniq.txt',
        'xxd -r -ps a.hex out.bin',
        "yq --in-place '.a = 2' p.yaml",
        'awk \'BEGIN{ARGV[1]="{outside}/canary.txt"; ARGC=2} {print}\'',
      ],
    },
    expect: { refused: 'all', noWorkspace: [/^out/], extra: policyOnly },
  },
  {
    title: 'no sandbox: named forms',
    c: {
      name: 'nosbx-named-secrets',
      mode: 'plan',
      sandbox: 'none',
      files: FILES,
      // ps E / -E print the environment on macOS, where there is no sandbox (RO-2).
      command: ['printenv', 'env', 'ps axeww', 'ps -Eww -A', 'ps auxE', 'ps E', 'jq -n env', 'git var -l', 'npm test'],
    },
    expect: { refused: 'all', extra: policyOnly },
  },
];

attackSuite('plan mode without an OS sandbox (policy only)', attacks, { concurrency: 4 });
