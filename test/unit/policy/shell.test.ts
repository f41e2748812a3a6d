import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkCommand } from '../../../src/core/policy';
import { corpus } from './corpus';

const plan = (c: string) => checkCommand(c, 'plan');

test('RO-2, RO-3: every command of the mutating corpus is rejected in plan mode', () => {
  const commands = corpus('mutating.txt');
  assert.ok(commands.length >= 250, `corpus has ${commands.length} commands, want at least 250`);
  const allowed = commands.filter((c) => plan(c).allowed);
  console.log(`security corpus: ${commands.length - allowed.length}/${commands.length} mutating commands rejected`);
  assert.deepEqual(allowed, []);
});

test('RO-2: at least 98 % of the everyday read-only corpus is allowed in plan mode', () => {
  const commands = corpus('readonly.txt');
  assert.ok(commands.length >= 150, `corpus has ${commands.length} commands, want at least 150`);
  const rejected = commands.filter((c) => !plan(c).allowed);
  const share = (commands.length - rejected.length) / commands.length;
  console.log(
    `read-only corpus: ${commands.length - rejected.length}/${commands.length} allowed (${(share * 100).toFixed(1)} %); rejected: ${rejected.join(' | ')}`,
  );
  assert.ok(share >= 0.98, `only ${(share * 100).toFixed(1)} % allowed`);
});

test('RO-2: the verdict names the failing segment of a chain and says why', () => {
  const v = plan('git status && rm -rf build');
  assert.equal(v.allowed, false);
  assert.equal(v.class, 'mutation');
  assert.equal(v.reason, 'segment 2 of 2 (`rm -rf build`): `rm` creates, changes or deletes files');
  assert.deepEqual(v.segments, [
    { command: 'git status', allowed: true, reason: null },
    { command: 'rm -rf build', allowed: false, reason: '`rm` creates, changes or deletes files' },
  ]);
});

test('RO-2: && chains, | pipelines and static ; chains pass when every segment is read-only', () => {
  for (const c of ['cd src && rg -n foo .', 'rg --files | head -20', 'git status; git log -1', 'cat a 2>&1 | wc -l']) {
    const v = plan(c);
    assert.equal(v.allowed, true, `${c}: ${v.reason}`);
    assert.equal(v.reason, null);
  }
});

test('RO-2: build/test commands are allowed and classified as verification', () => {
  for (const c of [
    'cargo check',
    'cargo test -p core',
    'cargo clippy -- -D warnings',
    'cargo nextest run',
    'npm test',
    'pnpm test',
    'yarn test',
  ]) {
    assert.deepEqual([plan(c).allowed, plan(c).class], [true, 'verification'], c);
  }
  assert.equal(plan('rg foo && cargo test').class, 'verification');
  assert.equal(plan('cargo metadata --format-version 1').class, 'inspection');
});

test('RO-2 [seed wins]: git -C DIR reads another repository, -c stays rejected', () => {
  assert.equal(plan('git -C ../lib log --oneline -3').allowed, true);
  const c = plan('git -c core.pager=cat log');
  assert.equal(c.allowed, false);
  assert.match(c.reason ?? '', /-c/);
});

test('RO-2 [seed wins]: version/help probes of any program, but not fed by a pipe or file', () => {
  for (const c of ['cargo --version', 'python3 -V', 'bash --help', 'kubectl --help', 'foo -h --version'])
    assert.equal(plan(c).allowed, true, c);
  for (const c of ['python3 -V extra', 'sh -h', 'shutdown -h', 'printf x | python3 --version', 'node --version < x.js'])
    assert.equal(plan(c).allowed, false, c);
});

test('RO-2: git list forms are allowed bare or with listing flags, their operand forms are not', () => {
  for (const c of [
    'git branch',
    'git branch -a',
    'git tag -l "v1*"',
    'git remote -v',
    'git reflog',
    'git stash list',
    'git worktree list --porcelain',
  ]) {
    assert.equal(plan(c).allowed, true, c);
  }
  for (const c of [
    'git branch x',
    'git tag v1',
    'git remote add o u',
    'git stash pop',
    'git branch --set-upstream-to=o/m',
    'git worktree add ../w',
  ]) {
    assert.equal(plan(c).allowed, false, c);
  }
});

test('RO-3: per-program write options are rejected, abbreviations and short clusters included', () => {
  const cases: [string, RegExp][] = [
    ['git diff --out=x', /--out=x/],
    ['sort -uo out a', /-o \(in -uo\)/],
    ['tree -Lo 2 out', /-o \(in -Lo\)/],
    ['rg --pre=cat foo', /--pre=cat/],
    ['fd -x rm', /-x/],
    ['date -s now', /-s/],
    ['sed -ni p f', /in place/],
  ];
  for (const [c, why] of cases) {
    const v = plan(c);
    assert.equal(v.allowed, false, c);
    assert.equal(v.class, 'mutation', c);
    assert.match(v.reason ?? '', why, c);
  }
});

test('RO-3: redirections: only 2>&1, /dev/null and < input pass', () => {
  assert.equal(plan('rg foo 2>&1').allowed, true);
  assert.equal(plan('rg foo >/dev/null 2>&1').allowed, true);
  assert.equal(plan('wc -l < README.md').allowed, true);
  const v = plan('rg foo > hits.txt');
  assert.equal(v.class, 'mutation');
  assert.match(v.reason ?? '', /writes a file/);
  assert.equal(plan('git branch 2>x').allowed, false);
  // dash reads `10>/dev/null` as the argument `10` plus a redirection.
  assert.equal(plan('git branch 10>/dev/null').allowed, false);
  assert.equal(plan('git branch 2>/dev/null').allowed, true);
});

test('RO-3: dynamic syntax is rejected with a reason a user understands', () => {
  const cases: [string, RegExp][] = [
    ['ls $(pwd)', /command substitution/],
    ['ls `pwd`', /backticks/],
    ['cat $HOME/x', /variable/],
    ['echo {a,b}', /brace expansion/],
    ['cat <<EOF', /here-documents/],
    ['diff <(ls a) b', /process substitution/],
    ['sleep 1 &', /background/],
    ["echo 'open", /unbalanced single quote/],
    ['ls\nrm x', /line break/],
    ['ls #a; rm x', /comment/],
    ['ls\u00a0-la', /U\+00A0/],
    ['rg foo &>/dev/null rm x', /bash-only/],
    ['rg foo |& head', /bash-only/],
  ];
  for (const [c, why] of cases) {
    const v = plan(c);
    assert.equal(v.allowed, false, c);
    assert.match(v.reason ?? '', why, c);
  }
});

test('RO-3: a leading glob is fine for plain readers and rejected where it could inject an option', () => {
  assert.equal(plan('ls *.md').allowed, true);
  assert.equal(plan('sed -n 1p *').allowed, false);
  assert.match(plan('sort *').reason ?? '', /begins with `-`/);
  assert.equal(plan('sed -n 1p src/*.ts').allowed, true);
  assert.equal(plan('uniq src/*.txt').allowed, false);
});

test('RO-2: build and auto allow any command but still classify it', () => {
  for (const mode of ['build', 'auto'] as const) {
    const v = checkCommand('rg foo && rm -rf x', mode);
    assert.equal(v.allowed, true);
    assert.equal(v.class, 'mutation');
    assert.equal(v.reason, null);
    assert.deepEqual(
      v.segments.map((s) => s.allowed),
      [true, true],
    );
    assert.equal(checkCommand('cargo test', mode).class, 'verification');
    assert.equal(checkCommand('frobnicate', mode).class, 'unknown');
  }
});

const readOnly = fc.constantFrom(...corpus('readonly.txt').filter((c) => plan(c).allowed && !/[;&|]/.test(c)));
const mutating = fc.constantFrom(
  'rm -rf x',
  'sed -i s/a/b/ f',
  'git push',
  'curl -o x u',
  'tee out',
  'sh -c id',
  'python3 -c 1',
  'xargs rm',
  'npm install',
);

test('RO-2, RO-3: a chain or pipeline with one mutating segment is rejected wherever the segment sits', () => {
  fc.assert(
    fc.property(
      readOnly,
      mutating,
      fc.constantFrom(' && ', ' | ', '; ', ' || '),
      fc.boolean(),
      (safe, bad, op, badFirst) => {
        const command = badFirst ? `${bad}${op}${safe}` : `${safe}${op}${bad}`;
        const v = plan(command);
        return !v.allowed && v.class === 'mutation' && v.segments.some((s) => !s.allowed && s.command === bad);
      },
    ),
  );
});

test('RO-3: no printable-ASCII suffix turns a rejected command into an allowed one by hiding it', () => {
  fc.assert(
    fc.property(
      mutating,
      fc.string({ unit: fc.constantFrom(...' #;&|<>()$`\'"\\{}*?[]=-'.split('')), maxLength: 8 }),
      (bad, suffix) => !plan(`${bad}${suffix}`).allowed,
    ),
  );
});

test('RO-3: the policy never throws and always reports at least one segment, whatever the input', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (command) => {
      const v = plan(command);
      return v.segments.length > 0 && (v.allowed ? v.reason === null : typeof v.reason === 'string');
    }),
    { numRuns: 2000 },
  );
});
