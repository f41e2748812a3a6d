import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'shell-quote';
import { checkCommand, checkCommandInWorkspace } from '../../../src/core/policy';
import { MAX_FOLDERS } from '../../../src/core/policy/cwd';
import { splitWords } from '../../../src/core/policy/command-words';
import { MAX_COMMAND_LENGTH, scanCommand } from '../../../src/core/policy/shell-scan';
import { AGENT_MODES } from '../../../src/core/vocabulary';

const ROOT = '/work/ws';
const MODES = AGENT_MODES;

test('RO-3, MODE-1: input shell-quote throws on (`${x`) is refused with a reason in every mode, not thrown', () => {
  for (const c of ['ls ${x', 'ls "${x"', 'cat a >${x', 'ls ${', 'echo a; ls ${x']) {
    for (const mode of MODES) {
      const v = checkCommandInWorkspace(c, mode, ROOT);
      assert.equal(v.allowed, false, `${mode}: ${c}`);
      assert.equal(typeof v.reason, 'string', `${mode}: ${c}`);
    }
    assert.doesNotThrow(() => checkCommand(c, 'build'));
  }
  assert.match(
    checkCommandInWorkspace('ls ${x', 'build', ROOT).reason ?? '',
    /the shell parser cannot read the command \(Bad substitution/,
  );
});

test(`RO-3, MODE-1: commands longer than ${MAX_COMMAND_LENGTH} characters are refused unread, in every mode`, () => {
  const longest = `ls ${'a'.repeat(MAX_COMMAND_LENGTH - 3)}`;
  assert.equal(longest.length, MAX_COMMAND_LENGTH);
  assert.equal(checkCommandInWorkspace(longest, 'plan', ROOT).allowed, true);
  for (const mode of MODES) {
    const v = checkCommandInWorkspace(`${longest}b`, mode, ROOT);
    assert.equal(v.allowed, false, mode);
    assert.match(
      v.reason ?? '',
      new RegExp(
        `${MAX_COMMAND_LENGTH + 1} characters long; commands longer than ${MAX_COMMAND_LENGTH} are not checked`,
      ),
      mode,
    );
  }
});

test('RO-2, MODE-1: the folders a `cd DIR;` chain may leave are bounded: past the bound the command is refused', () => {
  // Each `cd DIR;` may fail, so the possible folders double: 3 → 8, 4 → 16.
  const chain = (n: number, sep = '; ') => `${Array.from({ length: n }, (_, i) => `cd d${i}`).join(sep)}${sep}ls`;
  assert.equal(MAX_FOLDERS, 8);
  assert.equal(checkCommandInWorkspace(chain(3), 'build', ROOT).allowed, true);
  for (const mode of MODES) {
    const v = checkCommandInWorkspace(chain(4), mode, ROOT);
    assert.equal(v.allowed, false, mode);
    assert.match(v.reason ?? '', new RegExp(`more than ${MAX_FOLDERS} folders it may run in`), mode);
  }
  // `cd DIR &&` keeps one folder (the unused failure folders cost nothing) ...
  assert.equal(checkCommandInWorkspace(chain(30, ' && '), 'build', ROOT).allowed, true);
  // ... but no command line may change folders more than 32 times.
  assert.match(
    checkCommandInWorkspace(chain(33, ' && '), 'build', ROOT).reason ?? '',
    /more than 32 `cd`\/`pushd`\/`popd` in one command/,
  );
});

/** Adversarial inputs up to the length limit; bench/policy-adversarial.bench.ts times the same kinds. */
function adversarial(): [string, string][] {
  const fill = (unit: string, sep = '', head = '') =>
    head +
    Array.from(
      { length: Math.floor((MAX_COMMAND_LENGTH - head.length) / (unit.length + sep.length)) },
      () => unit,
    ).join(sep);
  return [
    ['cd src; chain', `${fill('cd src', '; ')}`],
    ['cd DIR; distinct', Array.from({ length: 1500 }, (_, i) => `cd d${i}`).join('; ')],
    ['deep $(', fill('$(', '', 'echo ')],
    ['deep (', fill('(', '', 'ls ')],
    ['quotes', fill(`"'"'`, '', 'echo ')],
    ['pipes', fill('ls', ' | ')],
    ['braces', fill('{a,', '', 'echo ')],
    ['redirections', fill('<a', ' ', 'cat ')],
    ['unterminated ${x', fill('${x', ' ', 'ls ')],
  ];
}

// Their time is a figure of bench/policy-adversarial.bench.ts, not an assertion here: a bound on
// a shared machine fails under load (it stopped mutation runs) without anything being wrong.
test('RO-3, MODE-1: adversarial inputs up to the length limit get a verdict in every mode (a refusal says why), without throwing', () => {
  for (const [name, command] of adversarial()) {
    assert.ok(command.length <= MAX_COMMAND_LENGTH, name);
    for (const mode of MODES) {
      const verdict = checkCommandInWorkspace(command, mode, ROOT);
      assert.equal(typeof verdict.allowed, 'boolean', `${name} (${mode})`);
      if (!verdict.allowed) assert.ok((verdict.reason ?? '').length > 0, `${name} (${mode}): refused without a reason`);
    }
  }
});

const shellText = fc.string({
  unit: fc.constantFrom(...' \t;&|<>()$`\'"\\{}*?[]=#~-./:,@%+!^abcdx0123456789'.split('')),
  maxLength: 120,
});

test('RO-3, MODE-1: property: checkCommand and checkCommandInWorkspace never throw and always give a reason when they refuse', () => {
  fc.assert(
    fc.property(
      fc.oneof(shellText, fc.string({ unit: 'binary', maxLength: 120 })),
      fc.constantFrom(...MODES),
      (command, mode) => {
        const v = checkCommandInWorkspace(command, mode, ROOT);
        const c = checkCommand(command, mode);
        const explained = (x: { allowed: boolean; reason: string | null }) =>
          x.allowed ? x.reason === null : typeof x.reason === 'string' && x.reason !== '';
        return explained(v) && explained(c) && v.segments.length > 0 && c.segments.length > 0;
      },
    ),
    { numRuns: 3000 },
  );
});

test('RO-2: the parse shortcut for plain segments reads them exactly as shell-quote does', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...' \tab0_./:@%+,=-'.split('')), maxLength: 40 }), (text) => {
      const split = splitWords(text);
      const parsed = parse(text).map((e) => ({ text: typeof e === 'string' ? e : JSON.stringify(e), glob: false }));
      return split.ok && split.syntax === null && JSON.stringify(split.words) === JSON.stringify(parsed);
    }),
  );
});

test('RO-2, RO-3: an operator shell-quote reads inside a text becomes a word of its own and is named as `syntax`', () => {
  // The scan splits at every operator it allows and flags the others, so this is the last line of
  // defence (the policy refuses any segment with `syntax`); glob entries stay words that are globs.
  assert.deepEqual(splitWords('a (b) c*'), {
    ok: true,
    words: [
      { text: 'a', glob: false },
      { text: '(', glob: false },
      { text: 'b', glob: false },
      { text: ')', glob: false },
      { text: 'c*', glob: true },
    ],
    syntax: '(',
  });
});

test('RO-3: a command refused unread is reported trimmed as its one segment, like the segments of a command read', () => {
  for (const command of [' ls\nrm x ', "  echo 'open "]) {
    const v = checkCommand(command, 'plan');
    assert.equal(v.allowed, false, command);
    assert.deepEqual(
      v.segments.map((s) => s.command),
      [command.trim()],
      command,
    );
  }
});

test('RO-2, RO-3: `#` inside a word is literal (sh starts a comment only at the start of a word), so it is allowed and read as sh reads it', () => {
  for (const c of [
    'echo a#b',
    "grep -n 'x#y' f",
    'grep -n x#y f',
    'rg issue#12 CHANGELOG.md',
    "echo 'a'#b",
    'ls a\\ #b',
  ])
    assert.equal(checkCommand(c, 'plan').allowed, true, `${c}: ${checkCommand(c, 'plan').reason}`);
  const reading = scanCommand('echo a#b c');
  assert.ok(reading.ok);
  assert.deepEqual(reading.segments[0]?.argv, {
    ok: true,
    words: ['echo', 'a#b', 'c'].map((text) => ({ text, glob: false })),
    syntax: null,
  });
  for (const c of ['ls #x; rm -rf y', 'ls;#x', 'echo a #b', 'ls >#x'])
    assert.equal(checkCommand(c, 'plan').allowed, false, c);
  // The path rule reads the whole target, `#` included: `ok#/../../etc/x` leaves the workspace.
  assert.equal(checkCommandInWorkspace('echo x > ok#/../../etc/x', 'build', ROOT).allowed, false);
  assert.equal(checkCommandInWorkspace('cat ok#/../../etc/x', 'build', ROOT).allowed, false);
});

test('MODE-1, RO-2: scripts inside scripts are followed 3 deep; deeper nesting (`eval eval …`) is refused, not recursed into', () => {
  const nest = (n: number) => {
    let s = 'cat README.md';
    for (let i = 0; i < n; i += 1) s = `sh -c '${s.replaceAll("'", "'\\''")}'`;
    return s;
  };
  assert.equal(checkCommandInWorkspace(nest(3), 'build', ROOT).allowed, true);
  assert.match(checkCommandInWorkspace(nest(5), 'build', ROOT).reason ?? '', /scripts nested more than 3 deep/);
  const evals = `${'eval '.repeat(3000)}ls`;
  for (const mode of MODES) {
    const v = checkCommandInWorkspace(evals, mode, ROOT);
    assert.equal(v.allowed, false, mode);
    assert.doesNotMatch(v.reason ?? '', /policy failed/, mode);
  }
});

test('RO-3, MODE-1: whatever throws inside the checks becomes a refusal with the error as its reason (the turn goes on)', () => {
  // Not a string: the type forbids it, the runtime must still not throw.
  const bad = null as unknown as string;
  for (const mode of MODES) {
    const v = checkCommandInWorkspace(bad, mode, ROOT);
    assert.equal(v.allowed, false, mode);
    assert.equal(v.refusedBy, 'policy', mode);
    assert.match(v.reason ?? '', /^the command policy failed on this command \(.+\), so it was not run$/, mode);
    assert.equal(checkCommand(bad, mode).allowed, false, mode);
  }
});
