import { test } from 'node:test';
import { posix } from 'node:path';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkCommand, checkCommandInWorkspace, checkCommandPaths } from '../../../src/core/policy';
import { corpus } from './corpus';

// The check is lexical: it cannot see symlinks, so `cat link` where `link` points outside the
// workspace is allowed here (the core has no file system by design). See src/core/policy/paths.ts.

const ROOT = '/work/ws';
const paths = (c: string) => checkCommandPaths(c, ROOT);

/** [command, reason pattern] pairs the rule must refuse. */
const REFUSED: [string, RegExp][] = [
  // absolute paths outside the root, as arguments, option values and redirection targets
  ['cat /etc/hosts', /^`\/etc\/hosts` is outside the workspace \(\/work\/ws\); commands may only name paths inside it/],
  ['head -n 5 /etc/passwd', /`\/etc\/passwd` is outside the workspace/],
  ['ls /', /`\/` is outside the workspace/],
  ['cat /work/wsx/a', /`\/work\/wsx\/a` is outside/],
  ['cat --file=/etc/x', /`\/etc\/x` is outside/],
  ['tar -C/etc -c x', /`\/etc` is outside/],
  ['tar -cf/tmp/x.tar src', /`\/tmp\/x.tar` is outside/],
  ['gcc -I../other/include a.c', /`\.\.\/other\/include` resolves to \/work\/other\/include/],
  ['dd if=/etc/hosts of=x', /`\/etc\/hosts` is outside/],
  ['FOO=/etc/x make', /`\/etc\/x` is outside/],
  ['cat < /etc/hosts', /^redirection `<\/etc\/hosts`: `\/etc\/hosts` is outside/],
  ['echo x > /tmp/y', /^redirection `> \/tmp\/y`: `\/tmp\/y` is outside/],
  ['echo x >| /tmp/y', /^redirection `>\| \/tmp\/y`/],
  ['echo x &> /tmp/y', /^redirection `&> \/tmp\/y`/],
  ['curl file:///etc/hosts', /`\/etc\/hosts` is outside/],
  ['git --git-dir=/x/.git log', /`\/x\/.git` is outside/],
  ['find / -name x', /`\/` is outside/],
  // `..` escapes
  [
    'rg password ../other-repo',
    /^`\.\.\/other-repo` resolves to \/work\/other-repo, outside the workspace \(\/work\/ws\)/,
  ],
  ['cat src/../../x', /resolves to \/work\/x, outside/],
  ['git -C ../other status', /`\.\.\/other` resolves to \/work\/other/],
  ['grep -e x ../y', /`\.\.\/y` resolves to \/work\/y/],
  // home folders
  ['cat ~/.ssh/id_rsa', /^`~\/\.ssh\/id_rsa` names a home folder, outside the workspace/],
  ['ls ~root', /`~root` names a home folder/],
  ['cat ~', /`~` names a home folder/],
  // expansions the scan cannot resolve
  ['cat $HOME/.ssh/id_rsa', /^`\$HOME\/\.ssh\/id_rsa` expands a shell variable the workspace check cannot resolve/],
  ['cat "${HOME}"', /`\$HOME` expands a shell variable/],
  ['ls ${X:-/etc}', /`\$\{X:-\/etc\}` expands a shell variable/],
  ['grep $PATTERN src', /`\$PATTERN` expands a shell variable/],
  ['$PAGER README.md', /program name `PAGER` comes from a shell variable/],
  ['cat $(echo /etc/hosts)', /command substitution .* produces paths the workspace check cannot see/],
  ['cat "`echo x`"', /command substitution/],
  ['diff <(ls) a', /process substitution/],
  ['cat {/etc/hosts,README.md}', /brace expansion .* list the paths one by one/],
  // cd, pushd
  ['cd / && ls', /^segment 1 of 2 \(`cd \/`\): `\/` is outside the workspace/],
  ['cd .. && ls', /^segment 1 of 2 \(`cd \.\.`\): `\.\.` resolves to \/work, outside/],
  ['cd', /^`cd` without a folder goes to the home folder/],
  ['cd - && ls', /`cd -` returns to a folder the workspace check cannot see/],
  ['cd ~ && ls', /`~` names a home folder/],
  ['cd src && cd ../.. && ls', /segment 2 of 3 \(`cd \.\.\/\.\.`\): `\.\.\/\.\.` resolves to \/work/],
  ['pushd /tmp', /`\/tmp` is outside/],
  // globs that can match `..` under /bin/sh, and names read from input
  ['ls .*', /the glob `\.\*` can match `\.\.`/],
  ['cat src/.?*', /the glob `src\/\.\?\*` can match/],
  ['find . | xargs cat', /`xargs` takes the file names it passes from its input/],
  ['sort --files0-from=-', /reads file names from a list the workspace check cannot see/],
  // an argument the check cannot tell from a path is read as one, and the reason says so
  ['paste -d / a b', /`\/` is outside the workspace .*\(every argument of `paste` counts as a possible path\)$/],
  // what the scan cannot read at all
  ['cat a\nb', /^the workspace check cannot read the command: the command contains a line break/],
  ["cat 'unbalanced", /^the workspace check cannot read the command: .*unbalanced single quote/],
];

/** Commands the rule must allow. */
const ALLOWED = [
  'cat README.md',
  'cat /work/ws/src/a.ts',
  'ls /work/ws',
  'ls -la',
  'cat ./src/../package.json',
  '/usr/bin/env node scripts/x.js',
  './node_modules/.bin/tsc -p .',
  '../bin/tool --version',
  'ls > /dev/null 2>&1',
  'cat /dev/stdin',
  'echo x >> out.txt',
  'tail -f /dev/null',
  'curl https://example.com/a/../b',
  'git clone git@github.com:a/b.git vendor/b',
  // patterns and scripts are not paths
  "rg -n 'foo/bar' src",
  'grep -r "../" src',
  'grep -rn -e /etc -e ../x src',
  'rg -g "!../x" -e "/api" src',
  'git grep -n "/usr/lib" -- src',
  "sed -n '/^## /p' README.md",
  "awk -F/ '{print $1}' data.txt",
  "find . -path '/etc/*' -name '..'",
  'echo /etc/hosts',
  "printf '%s\\n' /etc",
  "tr '/' '.' < list.txt",
  'cut -d/ -f2 paths.txt',
  "jq '{name, version}' package.json",
  'sort -k1.5 -t/ names.txt',
  'npm test -- --grep "a/b"',
  // revisions that look like paths only at a glance
  'git log --oneline @{u}..HEAD',
  'git diff HEAD~1 -- src/main.ts',
  'git show HEAD:package.json',
  'ls *.md src/*.ts',
  'ls src/.eslintrc*',
];

test('RO-2, MODE-1: commands naming a path outside the workspace (lexically) are refused: every refused command names its path and why', () => {
  for (const [command, reason] of REFUSED) {
    const v = paths(command);
    assert.equal(v.allowed, false, command);
    assert.match(v.reason ?? '', reason, command);
    assert.ok(
      v.segments.some((s) => !s.allowed && s.reason !== null),
      command,
    );
  }
});

test('RO-2, MODE-1: the lexical workspace path rule: paths inside the workspace, the program word, devices, URLs and patterns are allowed', () => {
  for (const command of ALLOWED) {
    const v = paths(command);
    assert.equal(v.reason, null, command);
    assert.equal(v.allowed, true, command);
  }
});

test('RO-2: cd is tracked within the line: only `cd DIR &&` moves the folder later paths resolve from', () => {
  assert.equal(paths('cd src && cat ../package.json').allowed, true);
  assert.equal(paths('cd src/core && cat ../../README.md && cd .. && ls').allowed, true);
  assert.equal(paths('cd /work/ws/src && cat ../package.json').allowed, true);
  assert.match(paths('cd /work/ws && cat ../x').reason ?? '', /`\.\.\/x` resolves to \/work\/x, outside/);
  assert.match(
    paths('cd /work/ws/src && cat ../../x').reason ?? '',
    /`\.\.\/\.\.\/x` resolves to \/work\/x from `src`, outside/,
  );
  // `cd` may fail before `;` or `||`, runs in a subshell inside a pipeline or parentheses: the old folder stays possible.
  for (const command of [
    'cd src; cat ../package.json',
    'cd src || cat ../x',
    'cd src && ls || cat ../x',
    'cd src | cat ../x',
    '(cd src && ls) && cat ../x',
    '(cd src) && cat ../x',
  ]) {
    const v = paths(command);
    assert.equal(v.allowed, false, command);
    assert.match(v.reason ?? '', /resolves to \/work\/(package\.json|x), outside/, command);
  }
  // `pushd` moves like `cd`; `popd` may return to any folder the line was in.
  assert.equal(paths('pushd src && cat ../package.json').allowed, true);
  assert.equal(paths('pushd src && popd && cat ../x').allowed, false);
  const deep = paths('cd src && cd core && cat ../../../x');
  assert.match(deep.reason ?? '', /`\.\.\/\.\.\/\.\.\/x` resolves to \/work\/x from `src\/core`, outside/);
});

test('RO-2, MODE-1: the lexical workspace path rule: a script handed to another shell is checked too', () => {
  for (const [command, reason] of [
    [`sh -c 'cat /etc/hosts'`, /^the script run by `sh -c`: `\/etc\/hosts` is outside the workspace/],
    [
      `bash -lc "cd .. && ls"`,
      /^the script run by `bash -lc`: segment 1 of 2 \(`cd \.\.`\): `\.\.` resolves to \/work, outside/,
    ],
    [`env FOO=1 sh -c 'cat ~/.ssh/id_rsa'`, /^the script run by `sh -c`: `~\/\.ssh\/id_rsa` names a home folder/],
    [`timeout 5 /bin/bash -c 'rg x ../other'`, /^the script run by `bash -c`: `\.\.\/other` resolves to \/work\/other/],
    [`eval cat /etc/passwd`, /^the script run by `eval`: `\/etc\/passwd` is outside/],
    [
      `npm test && sh -c 'sh -c "cat /etc/hosts"'`,
      /^segment 2 of 2 .*the script run by `sh -c`: the script run by `sh -c`: `\/etc\/hosts` is outside/,
    ],
  ] as const) {
    const v = paths(command);
    assert.equal(v.allowed, false, command);
    assert.match(v.reason ?? '', reason, command);
  }
  for (const command of [
    `sh -c 'npm test -- --grep greet'`,
    `bash -c "cd src && ls"`,
    `env sh -c 'echo $HOME'`,
    `bash scripts/build.sh`,
    `eval echo hi`,
  ]) {
    assert.deepEqual([command, paths(command).reason], [command, null]);
  }
});

test('RO-2: a chain names the failing segment; good input in other segments is kept', () => {
  const v = paths('ls src && cat /etc/hosts | head -3');
  assert.equal(v.allowed, false);
  assert.match(v.reason ?? '', /^segment 2 of 3 \(`cat \/etc\/hosts`\): /);
  assert.deepEqual(
    v.segments.map((s) => [s.command, s.allowed]),
    [
      ['ls src', true],
      ['cat /etc/hosts', false],
      ['head -3', true],
    ],
  );
});

test('RO-2: a root that is not an absolute path refuses with a reason instead of guessing', () => {
  const v = checkCommandPaths('ls', 'relative/root');
  assert.equal(v.allowed, false);
  assert.match(v.reason ?? '', /workspace root `relative\/root` is not an absolute path/);
  assert.equal(checkCommandPaths('cat /etc/hosts', '/').allowed, true);
  assert.equal(checkCommandPaths('cat ../x', '/work/ws/').allowed, false);
});

test('RO-2, MODE-1: the path rule binds in plan, build and auto; in plan mode the read-only policy still speaks first', () => {
  for (const mode of ['plan', 'build', 'auto'] as const) {
    const v = checkCommandInWorkspace('cat /etc/hosts', mode, ROOT);
    assert.equal(v.allowed, false, mode);
    assert.equal(v.refusedBy, 'paths', mode);
    assert.equal(v.class, 'inspection');
    assert.match(v.reason ?? '', /^`\/etc\/hosts` is outside the workspace/);
    assert.deepEqual(v.segments, [{ command: 'cat /etc/hosts', allowed: false, reason: v.reason }]);
  }
  const mutation = checkCommandInWorkspace('rm -rf /etc', 'plan', ROOT);
  assert.equal(mutation.refusedBy, 'policy');
  assert.equal(mutation.class, 'mutation');
  assert.match(mutation.reason ?? '', /`rm` creates, changes or deletes files/);
  assert.equal(checkCommandInWorkspace('rm -rf build', 'auto', ROOT).allowed, true);
  assert.equal(checkCommandInWorkspace('rm -rf ../build', 'auto', ROOT).refusedBy, 'paths');
});

test('RO-2: the read-only corpus under the workspace rule: only the commands naming outside paths or the runtime folder change verdict', () => {
  // Deliberate: these were "allowed" by the read-only policy alone and stay so there (checkCommand);
  // they name paths outside the workspace or `.vtcode/` beyond its plans, so run_command refuses them.
  const outside = ['tree -a -L 2 .vtcode', 'sort -t: -k3 -n /etc/passwd', 'git -C ../other status'];
  const changed = corpus('readonly.txt').filter(
    (c) => checkCommand(c, 'plan').allowed && !checkCommandInWorkspace(c, 'plan', ROOT).allowed,
  );
  assert.deepEqual(changed, outside);
  for (const c of corpus('mutating.txt')) assert.equal(checkCommandInWorkspace(c, 'plan', ROOT).allowed, false, c);
});

const DEVICES = ['/dev/null', '/dev/stdin', '/dev/stdout', '/dev/stderr'];
const outsidePath = fc
  .array(fc.oneof(fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/), fc.constantFrom('work', 'ws', 'dev', 'null', '..')), {
    minLength: 1,
    maxLength: 4,
  })
  .map((parts) => `/${parts.join('/')}`)
  .filter((p) => {
    const n = posix.normalize(p);
    return n !== ROOT && !n.startsWith(`${ROOT}/`) && !DEVICES.includes(p);
  });

test('RO-2: property: any absolute path outside the workspace in an argument position of cat/ls/head is refused', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('cat', 'ls', 'head', 'head -n 3', 'ls -la', 'cat -n'),
      outsidePath,
      fc.constantFrom('', ' README.md', ' -- src'),
      fc.constantFrom('', 'cd src && ', 'ls && '),
      (program, path, more, prefix) => {
        const v = paths(`${prefix}${program} ${path}${more}`);
        return !v.allowed && (v.reason ?? '').includes(`\`${path}\` is outside the workspace (/work/ws)`);
      },
    ),
    { numRuns: 500 },
  );
});

test('RO-2: the path check never throws and always reports at least one segment, whatever the input', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (command) => {
      const v = paths(command);
      return v.segments.length > 0 && (v.allowed ? v.reason === null : typeof v.reason === 'string');
    }),
    { numRuns: 2000 },
  );
});
