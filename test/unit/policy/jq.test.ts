import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand, checkCommandInWorkspace } from '../../../src/core/policy';
import { filterProblem } from '../../../src/core/policy/jq';

const plan = (c: string) => checkCommand(c, 'plan');

test('RO-2, RO-3: jq filters that read the environment, load modules or report file names are refused, wherever they sit', () => {
  const cases: [string, RegExp][] = [
    ['env', /`env` \/ `\$ENV`/],
    ['env | keys', /`env`/],
    ['$ENV.OPENAI_API_KEY', /`\$ENV`/],
    ['{a: $ENV}', /`\$ENV`/],
    ['"\\(env.HOME)"', /`env`/],
    ['"a \\("b" + "\\(env)")"', /`env`/],
    ['import "evil" as e; .', /`import`/],
    ['include "evil"; .', /`include`/],
    ['"evil" | modulemeta', /modulemeta/],
    ['get_search_list', /modules/],
    ['input_filename', /input_filename/],
    ['$__loc__', /\$__loc__/],
  ];
  for (const [f, why] of cases) assert.match(filterProblem('jq', f) ?? 'ALLOWED', why, f);
  // Field names and string contents are data, not the builtins.
  for (const f of [
    '.env',
    '.a.env',
    '."env"',
    '.["env"]',
    'select(.k == "env")',
    '"import this"',
    '.environment',
    '$environ',
    'map(.envs)',
  ]) {
    assert.equal(filterProblem('jq', f), null, f);
  }
});

test('RO-2, RO-3: jq options that read a filter or modules from files are refused in every spelling; unknown options too', () => {
  const refused: [string, RegExp][] = [
    ['jq -f filter.jq a.json', /reads a filter or modules from files/],
    ['jq --from-file filter.jq a.json', /reads a filter or modules/],
    ['jq -nf filter.jq', /reads a filter or modules/],
    ['jq -L /tmp . a.json', /reads a filter or modules/],
    ['jq -L/tmp . a.json', /reads a filter or modules/],
    ['jq -nL/tmp .', /reads a filter or modules/],
    ['jq --library-path /tmp . a.json', /reads a filter or modules/],
    ['jq --run-tests t.txt', /reads a filter or modules/],
    ['jq --frobnicate . a.json', /not on the read-only list/],
    ['jq -n env', /`env`/],
    ["jq --arg x 1 -n 'env'", /`env`/],
  ];
  for (const [c, why] of refused) assert.match(plan(c).reason ?? 'ALLOWED', why, c);
  // The filter is the first operand after the options and their values.
  for (const c of [
    "jq --arg env x '.a' f.json",
    "jq --argjson n 1 -r '.[$n]' f.json",
    "jq -nr --indent 2 '1'",
    "jq --slurpfile s b.json '$s' a.json",
    "jq --rawfile r notes.txt -n '$r'",
    "jq --args -n '$ARGS' a b",
    'jq -c \'.[] | select(.type == "plan")\' e.jsonl',
  ]) {
    assert.equal(plan(c).allowed, true, `${c}: ${plan(c).reason}`);
  }
});

test('RO-2: jq --rawfile/--slurpfile files stay under the workspace path rule (MODE-1: every mode)', () => {
  for (const mode of ['plan', 'build', 'auto'] as const) {
    for (const c of ["jq --rawfile r /etc/passwd -n '$r'", "jq --slurpfile s ../x.json -n '$s'"]) {
      const v = checkCommandInWorkspace(c, mode, '/work/ws');
      assert.equal(v.allowed, false, `${mode}: ${c}`);
      assert.equal(v.refusedBy, 'paths', `${mode}: ${c}`);
    }
  }
});

test('RO-3: yq: in-place and split modes (Go and Python yq), jq module options passed on, and env/load/eval expressions are refused', () => {
  const refused: [string, RegExp][] = [
    ['yq -i .a=1 a.yaml', /edits or writes files/],
    ['yq --inplace .a=1 a.yaml', /edits or writes files/],
    ['yq --in-place .a=1 a.yaml', /edits or writes files/],
    ['yq --in-pl .a=1 a.yaml', /edits or writes files/],
    ['yq -s .a a.yaml', /edits or writes files/],
    ['yq --split-exp .a a.yaml', /edits or writes files/],
    ['yq -f f.jq a.yaml', /from files/],
    ['yq -L /tmp . a.yaml', /from files/],
    ['yq e "env(HOME)" a.yaml', /`env`/],
    ['yq "strenv(TOKEN)" a.yaml', /strenv/],
    ['yq "load(\\"/etc/passwd\\")" a.yaml', /`load`/],
    ['yq "load_str(\\"x\\")" a.yaml', /`load`/],
    ['yq "eval(\\"e\\" + \\"nv\\")" a.yaml', /`eval`/],
    ["yq '$ENV.HOME' a.yaml", /`\$ENV`/],
  ];
  for (const [c, why] of refused) assert.match(plan(c).reason ?? 'ALLOWED', why, c);
  for (const c of ["yq '.services' compose.yaml", 'yq e .a a.yaml', "yq -y '.a' a.yaml", 'yq .env a.yaml'])
    assert.equal(plan(c).allowed, true, c);
});
