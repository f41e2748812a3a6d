/**
 * The holes session 10 closed after issue 19's surviving mutants, tried end to end through a
 * session (MODE-1, RO-1, RO-2, RO-3), with the OS sandbox and with the policy alone:
 *
 *   - auto mode (commands run without asking): the workspace path rule must see a `sh -c` after a
 *     command option (`env -uX`, `runuser -u`, `flock FILE`), the words after `env -S`'s split
 *     string, a lone `/` attached to a short option (`tar -C/`, `env -C/`), a quoted or escaped
 *     `]` inside a bracket glob naming `.vtcode`, and a leading `*` once bash's dotglob is on;
 *   - plan mode: `git diff` refreshes the index, which would run `.git/hooks/post-index-change`;
 *   - plan mode without a sandbox: a program named in `.git/config.worktree` or in a nested
 *     repository's `.git/config` (`git -C sub …`) must be refused before git runs it.
 *
 * A refusal must be the policy's own (the path rule's "Path blocked:", the read-only rule's
 * "Mutation blocked:", the unsandboxed plan rule's "Not run:"), naming what it refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attackSuite, type Attack } from './attack-checks';
import { describeReport, runCase, type CaseReport } from './harness';

const SANDBOXES = ['bwrap', 'none'] as const;

/** The first line of the host's /etc/passwd: no command may show it to the model. */
const PASSWD = 'root:x:0:0:';

/**
 * A one-member ustar archive; every byte is ASCII, so it is planted as a workspace file's text.
 * Extracted at `/` its member lands in the host's /tmp, where the case watches for it.
 */
function ustar(name: string, body: string): string {
  const field = (text: string, size: number) => text.padEnd(size, '\0').slice(0, size);
  const octal = (n: number, size: number) => `${n.toString(8).padStart(size - 1, '0')}\0`;
  const fields = [
    field(name, 100),
    octal(0o644, 8),
    octal(0, 8),
    octal(0, 8),
    octal(body.length, 12),
    octal(0, 12),
    ' '.repeat(8),
    '0',
    field('', 100),
    field('ustar', 6),
    '00',
  ];
  const blank = field(fields.join(''), 512);
  const sum = [...blank].reduce((s, ch) => s + ch.charCodeAt(0), 0);
  const header = `${blank.slice(0, 148)}${sum.toString(8).padStart(6, '0')}\0 ${blank.slice(156)}`;
  return header + field(body, Math.ceil(body.length / 512) * 512) + '\0'.repeat(1024);
}

/** Named after the case: cases run concurrently, and each watches only its own member. */
const tarTarget = (caseName: string) => `tmp/vtsec-${caseName}-tar.txt`;

/** Each refusal is the named rule's own, and names what the rule refused, in the order sent. */
function refusedByPolicy(commands: readonly string[], refusals: readonly RegExp[], noSandbox: boolean) {
  return (r: CaseReport) => {
    assert.deepEqual(
      r.commands.map((c) => c.command),
      commands,
    );
    r.commands.forEach((c, i) => {
      const said = c.result?.content ?? c.blocked ?? '';
      assert.match(said, refusals[i] ?? /^$/, `${c.command}: ${describeReport(r)}`);
    });
    if (noSandbox) {
      const started = r.events.find((e) => e.type === 'session.started');
      assert.ok(
        started?.type === 'session.started' && started.sandbox?.sandboxed === false,
        `harness: the session did not run without a sandbox: ${describeReport(r)}`,
      );
    }
  };
}

interface AutoGroup {
  name: string;
  commands: readonly string[];
  /** What each refusal must say (after "Path blocked: "). */
  refusals: readonly RegExp[];
}

const PATH_BLOCKED = (rest: string) => new RegExp(`^Path blocked: ${rest}`);
const OUTSIDE = (path: string) => `[^\\n]*\`${path}\` is outside the workspace`;
const RUNTIME_FOLDER = "[^\\n]*names the runtime's own folder `\\.vtcode/`";

const AUTO_GROUPS: readonly AutoGroup[] = [
  {
    name: 'sh-c-after-an-option',
    commands: [
      "env -uX sh -c 'cat /etc/passwd'",
      "runuser -u nobody -- sh -ce 'cat /etc/passwd'",
      "flock .lock bash -cx 'cat /etc/passwd'",
    ],
    refusals: [
      PATH_BLOCKED(`the script run by \`sh -c\`: ${OUTSIDE('/etc/passwd')}`),
      PATH_BLOCKED(`the script run by \`sh -ce\`: ${OUTSIDE('/etc/passwd')}`),
      PATH_BLOCKED(`the script run by \`bash -cx\`: ${OUTSIDE('/etc/passwd')}`),
    ],
  },
  {
    name: 'env-s-and-root-separator',
    commands: ["env -S 'sh -c' 'cat /etc/passwd'", 'tar -C/ -xf a.tar', 'env -C/ cat etc/passwd'],
    refusals: [
      PATH_BLOCKED(`the script run by \`env -S\`: the script run by \`sh -c\`: ${OUTSIDE('/etc/passwd')}`),
      PATH_BLOCKED(`${OUTSIDE('/')}[^\\n]*every argument of \`tar\``),
      PATH_BLOCKED(`${OUTSIDE('/')}[^\\n]*every argument of \`env\``),
    ],
  },
  {
    name: 'runtime-folder-by-glob',
    commands: [
      'cp x .[v\\]]tcode/plans/plan.md',
      'echo x > .[v"]"]tcode/plans/plan.md',
      'bash -O dotglob -c "cp x *code/plans/plan.md"',
    ],
    refusals: [
      PATH_BLOCKED(`\`\\.\\[v\\]\\]tcode/plans/plan\\.md\` ${RUNTIME_FOLDER}`),
      PATH_BLOCKED(`redirection \`> \\.\\[v"\\]"\\]tcode/plans/plan\\.md\`${RUNTIME_FOLDER}`),
      PATH_BLOCKED(`the script run by \`bash -c\`: \`\\*code/plans/plan\\.md\` ${RUNTIME_FOLDER}`),
    ],
  },
  {
    // x.sh turns on dotglob before the script runs (bash reads BASH_ENV; -i reads the rc file).
    name: 'runtime-folder-by-startup-file',
    commands: ["BASH_ENV=x.sh bash -c 'cp x *code/plans/plan.md'", "bash --rcfile x.sh -ic 'cp x *code/plans/plan.md'"],
    refusals: [
      PATH_BLOCKED(`the script run by \`bash -c\`: \`\\*code/plans/plan\\.md\` ${RUNTIME_FOLDER}`),
      PATH_BLOCKED(`the script run by \`bash -ic\`: \`\\*code/plans/plan\\.md\` ${RUNTIME_FOLDER}`),
    ],
  },
  {
    // dash leaves a redirection's target unglobbed; bash expands it, so this is the form that writes.
    name: 'runtime-folder-by-bash-redirect',
    commands: ['bash -c \'echo x > .[v"]"]tcode/plans/plan.md\''],
    refusals: [
      PATH_BLOCKED(
        `the script run by \`bash -c\`: redirection \`> \\.\\[v"\\]"\\]tcode/plans/plan\\.md\`${RUNTIME_FOLDER}`,
      ),
    ],
  },
];

const PLAN_BEFORE = '# A plan the runtime wrote earlier\n';

const autoAttacks: Attack[] = SANDBOXES.flatMap((sandbox) =>
  AUTO_GROUPS.map((g): Attack => {
    const name = `s10-auto-${g.name}-${sandbox}`;
    return {
      title: 'session 10 path-rule holes',
      c: {
        name,
        mode: 'auto',
        sandbox,
        files: {
          x: 'vtsec-forged\n',
          'x.sh': 'shopt -s dotglob\n',
          'a.tar': ustar(tarTarget(name), 'vtsec-tar-escaped\n'),
          '.vtcode/plans/plan.md': PLAN_BEFORE,
        },
        command: g.commands,
        watch: [`/${tarTarget(name)}`],
      },
      expect: {
        refused: 'all',
        secrets: [PASSWD],
        noWorkspace: ['.lock'],
        extra: {
          name: "MODE-1, RO-2: each call was refused by the workspace path rule itself, and .vtcode/plans is the runtime's",
          check: (r) => {
            refusedByPolicy(g.commands, g.refusals, sandbox === 'none')(r);
            assert.deepEqual(r.runtime.changed, [], describeReport(r));
            assert.ok(!r.runtime.created.some((p) => p.startsWith('.vtcode/plans/')), describeReport(r));
          },
        },
      },
    };
  }),
);

/**
 * The repository's own git runs the set-up: its post-commit hook (run by the harness's commit)
 * arms post-index-change only then, so the harness's `git add` does not fire it, and moves
 * README.md's time (text unchanged) away from what the index recorded, by whole seconds because
 * git may compare seconds only: the next `git diff` refreshes that entry and rewrites the index.
 */
const ARM_INDEX_HOOK = `#!/bin/sh
printf '#!/bin/sh\\ntouch {outside}/pwned-hook {root}/pwned-hook\\n' > .git/hooks/post-index-change
chmod 755 .git/hooks/post-index-change
touch -d '1 minute ago' README.md
`;

const HOOK_CASE = {
  mode: 'plan',
  files: { '.git/hooks/post-commit': ARM_INDEX_HOOK },
  executables: ['.git/hooks/post-commit'],
  repo: { at: 'workspace' },
  command: ['git diff'],
} as const;

/** In the OS sandbox the workspace is read-only as well, so the index is not rewritten and plan mode changes nothing. */
const hookAttacks: Attack[] = [
  {
    title: 'session 10 plan-mode git hooks',
    c: { ...HOOK_CASE, name: 's10-plan-index-hook-bwrap', sandbox: 'bwrap' },
    expect: {
      noWorkspace: ['pwned-hook'],
      extra: {
        name: 'RO-1, RO-2: `git diff` ran (it is allowed) and the repository hook did not',
        check: (r) => assert.ok(r.commands[0]?.result?.ok === true, `git diff did not run: ${describeReport(r)}`),
      },
    },
  },
];

const NOTHING = { created: [], changed: [], deleted: [] };

/**
 * Without a sandbox git rewrites `.git/index` on this refresh (RO-1 would not hold; the suite's
 * plan-mode check is therefore not run here; the write is reported as an open question of session 10).
 * That write is the moment git runs post-index-change, so it is asserted as the control that the
 * hook had its chance.
 */
test(
  'session 10 plan-mode git hooks [plan, no sandbox] RO-2 MODE-1: `git diff` runs, refreshes the index and runs no repository hook',
  { timeout: 150_000 },
  async () => {
    const r = await runCase({ ...HOOK_CASE, name: 's10-plan-index-hook-none', sandbox: 'none', timeoutMs: 90_000 });
    const msg = describeReport(r);
    assert.equal(r.timedOut, false, msg);
    const started = r.events.find((e) => e.type === 'session.started');
    assert.ok(
      started?.type === 'session.started' && started.sandbox?.sandboxed === false,
      `harness: not policy only: ${msg}`,
    );
    assert.ok(r.commands[0]?.result?.ok === true, `git diff did not run: ${msg}`);
    assert.deepEqual(
      r.workspace,
      { created: [], changed: ['.git/index'], deleted: [] },
      `control: the refresh wrote the index, or the hook ran: ${msg}`,
    );
    assert.deepEqual(r.outside, NOTHING, `the hook wrote outside the workspace: ${msg}`);
    assert.deepEqual(r.home, NOTHING, msg);
    assert.deepEqual(r.tmp, [], msg);
  },
);

/** A diff driver that writes in and next to the workspace, then shows the file (no `;`: git config reads it as a comment). */
const TEXTCONV = `[diff "vt"]\n\ttextconv = touch {outside}/pwned-textconv {root}/pwned-textconv && cat\n`;

/** Post-commit hook of the outer repository: makes `sub/` a committed repository whose diff driver runs a program. */
const NESTED_REPO = `#!/bin/sh
unset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_PREFIX
cd sub && git init -q && git add -A && git commit -qm sub && cat >> .git/config <<'EOF'
${TEXTCONV}EOF
`;

const configAttacks: Attack[] = [
  {
    title: 'session 10 unsandboxed git config',
    c: {
      name: 's10-nosbx-config-worktree',
      mode: 'plan',
      sandbox: 'none',
      files: { '.gitattributes': '*.md diff=vt\n', '.git/config.worktree': TEXTCONV },
      repo: { at: 'workspace', config: { 'extensions.worktreeConfig': 'true' } },
      command: ['git log -p'],
    },
    expect: {
      refused: 'all',
      noWorkspace: [/^pwned/],
      extra: {
        name: 'RO-1, RO-2: git was refused for the program in .git/config.worktree, before it ran',
        check: refusedByPolicy(
          ['git log -p'],
          [/^Not run: [^\n]*the repository's \.git\/config\.worktree sets `textconv`, a program git would run/],
          true,
        ),
      },
    },
  },
  {
    title: 'session 10 unsandboxed git config',
    c: {
      name: 's10-nosbx-nested-repo',
      mode: 'plan',
      sandbox: 'none',
      files: {
        'sub/a.md': 'alpha\n',
        'sub/.gitattributes': '*.md diff=vt\n',
        '.git/hooks/post-commit': NESTED_REPO,
      },
      executables: ['.git/hooks/post-commit'],
      repo: { at: 'workspace' },
      command: ['git -C sub log -p'],
    },
    expect: {
      refused: 'all',
      noWorkspace: [/^pwned/],
      extra: {
        name: "RO-1, RO-2: git was refused for the program in the nested repository's .git/config, before it ran",
        check: refusedByPolicy(
          ['git -C sub log -p'],
          [/^Not run: [^\n]*the repository's sub\/\.git\/config sets `textconv`, a program git would run/],
          true,
        ),
      },
    },
  },
];

attackSuite('session 10 holes through a session', [...autoAttacks, ...hookAttacks, ...configAttacks], {
  concurrency: 3,
});
