import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';
import { checkJq, checkYq, filterProblem } from '../../../src/core/policy/jq';

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

const ENV = /^jq filter: `env` \/ `\$ENV` print the environment/;

test('RO-3: jq reads `$ ENV` and `$ __loc__` with blanks after the `$` as the variables themselves, so they are refused', () => {
  // jq 1.6: `jq -n '$ ENV.HOME'` prints $HOME.
  assert.deepEqual(plan("jq -n '$ ENV.HOME'"), {
    allowed: false,
    class: 'unknown',
    reason: 'jq filter: `env` / `$ENV` print the environment, which holds secrets',
  });
  assert.match(filterProblem('jq', '$\tENV | keys') ?? 'ALLOWED', ENV);
  assert.match(
    filterProblem('jq', '$ __loc__') ?? 'ALLOWED',
    /^jq filter: `input_filename` \/ `\$__loc__` report file names/,
  );
  assert.equal(filterProblem('jq', '$ENVX | $ENVIRONMENT'), null);
});

test('RO-3: a jq comment ends at the line break: a `"` inside it starts no string, and a comment ending in `\\` is refused', () => {
  assert.match(filterProblem('jq', '.a # "\n| env.HOME # "') ?? 'ALLOWED', ENV);
  assert.match(filterProblem('jq', '$# c\nENV.HOME') ?? 'ALLOWED', ENV);
  assert.equal(
    filterProblem('jq', '.a # x \\\n"\n| env\n# "'),
    'jq filter: a comment ending in `\\` goes on to the next line for jq 1.7.1 but not for older jq; drop the `\\`',
  );
  // A banned name inside a comment is no code; `#` inside a string is no comment.
  assert.equal(filterProblem('jq', '.a # env, load, eval\n| .b'), null);
  assert.equal(filterProblem('jq', '.a # trailing \\'), null);
  assert.match(filterProblem('jq', '"# no comment" | env') ?? 'ALLOWED', ENV);
});

test('RO-3: jq string interpolations `\\(…)` are code up to their own closing parenthesis, and the string goes on after it', () => {
  for (const f of [
    '"\\(.a)" | env',
    '"\\((.a) | env)"',
    '"\\((.a) | .b)" | env',
    '"\\(((.a)) | (.b))" | env',
    '"a\\"b" | env',
    '"a\\\\" | env',
  ])
    assert.match(filterProblem('jq', f) ?? 'ALLOWED', ENV, f);
  for (const f of ['"\\(.a) env"', '.a | "x env load"', '"\\((.a)) env" | length', '"a\\"env"'])
    assert.equal(filterProblem('jq', f), null, f);
});

test('RO-2: an unknown jq option is refused with the option named, as written and inside its cluster', () => {
  assert.deepEqual(plan('jq -Z . a.json'), {
    allowed: false,
    class: 'unknown',
    reason: 'jq option `-Z` is not on the read-only list',
  });
  assert.deepEqual(plan('jq -nZ .'), {
    allowed: false,
    class: 'unknown',
    reason: 'jq option `-Z` (in `-nZ`) is not on the read-only list',
  });
  assert.deepEqual(plan('jq --frobnicate . a.json'), {
    allowed: false,
    class: 'unknown',
    reason: 'jq option `--frobnicate` is not on the read-only list',
  });
  assert.deepEqual(plan('jq -nf filter.jq'), {
    allowed: false,
    class: 'unknown',
    reason:
      '`jq -nf` reads a filter or modules from files the policy cannot check; pass the filter on the command line',
  });
});

test('RO-2: `--` ends jq options and `-` is an operand; jq without a filter (`--version`) is an inspection', () => {
  for (const c of ["jq -- '.a' a.json", "jq -n -- '-1'", "jq '.a' -", 'jq --version', 'jq -h'])
    assert.deepEqual(plan(c), { allowed: true, class: 'inspection', reason: null }, c);
  // After `--` a word starting with `-` is the filter (jq 1.7), and the filter is still checked.
  assert.match(plan("jq -- '-1 | env'").reason ?? 'ALLOWED', ENV);
  // jq takes a lone `-` for the filter, not an option, so `env` here names an input file.
  assert.deepEqual(plan("jq -n - 'env'"), { allowed: true, class: 'inspection', reason: null });
});

test('RO-3: yq: options are not read as expressions, every other word is, and the verdicts name yq', () => {
  assert.deepEqual(plan("yq --security-disable-env-ops '.a' a.yaml"), {
    allowed: true,
    class: 'inspection',
    reason: null,
  });
  assert.deepEqual(plan("yq '.a | env' a.yaml"), {
    allowed: false,
    class: 'unknown',
    reason: 'yq filter: `env` / `$ENV` print the environment, which holds secrets',
  });
  assert.deepEqual(plan('yq -i .a=1 a.yaml'), {
    allowed: false,
    class: 'mutation',
    reason: '`yq -i` edits or writes files, or reads a filter or modules from files',
  });
});

const words = (...texts: string[]) => texts.map((text) => ({ text, glob: false }));

test('RO-2, RO-3: checkJq / checkYq class their own verdicts: a filter problem is unknown, a clean call an inspection', () => {
  assert.deepEqual(checkJq(words('jq', '-n', '$ ENV')), {
    allowed: false,
    class: 'unknown',
    reason: 'jq filter: `env` / `$ENV` print the environment, which holds secrets',
  });
  assert.deepEqual(checkJq(words('jq', '-c')), { allowed: true, class: 'inspection', reason: null });
  assert.deepEqual(checkYq(words('yq', '.a', 'a.yaml')), { allowed: true, class: 'inspection', reason: null });
});

test('RO-3: jq interpolations count nested parentheses, and a stray `)` outside one does not start a string', () => {
  for (const f of ['"\\(((.a)) | env)"', '"\\((((.a))) | env)"', '"\\((.a))" ) | env', '"\\((.a) | (.b)) x" ) | env'])
    assert.match(filterProblem('jq', f) ?? 'ALLOWED', ENV, f);
});
