import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { runCliCaptured } from '../../fixtures/cli';

const fixtures = join(import.meta.dirname, '../../fixtures/plans');
const VALID = 'valid/rust-parser-off-by-one.md';
const INVALID = 'invalid/step_vague_verify--run-checks.md';

function cli(argv: string[], stdin = '') {
  return runCliCaptured(argv, { cwd: fixtures, stdin });
}

test('ADD-2: `vtplan validate <file> --json` prints exactly one object with the documented shape; exit 0 when ready', async () => {
  const r = await cli(['validate', VALID, '--json']);
  assert.equal(r.code, 0);
  assert.equal(r.err, '');
  assert.equal(r.out.trim().split('\n').length, 1);
  const o = JSON.parse(r.out) as Record<string, unknown>;
  assert.deepEqual(Object.keys(o), ['ready', 'errors', 'warnings', 'title', 'steps']);
  assert.equal(o.ready, true);
  assert.equal(o.title, 'Fix off-by-one in parser cursor advance');
  assert.deepEqual((o.steps as unknown[])[0], {
    number: 1,
    action: 'Hoist bounds check above cursor advance in `Parser::advance`',
    files: ['src/parser.rs'],
    verify: ['cargo test parser::tests::parse_case'],
  });
});

test('ADD-2: `vtplan validate` exits 1 for a plan that is not ready; errors carry code, message, step, section, line', async () => {
  const r = await cli(['validate', '--json', INVALID]);
  assert.equal(r.code, 1);
  const o = JSON.parse(r.out) as { ready: boolean; errors: Array<Record<string, unknown>> };
  assert.equal(o.ready, false);
  assert.deepEqual(Object.keys(o.errors[0] ?? {}), ['code', 'message', 'step', 'section', 'line']);
  assert.equal(o.errors[0]?.code, 'step_vague_verify');
  assert.equal(o.errors[0]?.line, 17);
});

test('ADD-2: the human report is `file:line: code: message` plus a verdict line', async () => {
  const r = await cli(['validate', INVALID]);
  assert.equal(r.code, 1);
  const lines = r.out.trim().split('\n');
  assert.match(
    lines[0] ?? '',
    /^invalid\/step_vague_verify--run-checks\.md:17: step_vague_verify: Step 1 verify item rejected: `run checks`/,
  );
  assert.match(lines.at(-1) ?? '', /plan is not ready: 1 error, 0 warnings$/);
  const ok = await cli(['validate', VALID]);
  assert.equal(ok.out.trim(), `${VALID}: plan is ready (0 warnings)`);
});

test('ADD-2: `-` reads stdin; a tagged response is validated with line numbers pointing into it', async () => {
  const plan = readFileSync(join(fixtures, INVALID), 'utf8');
  const r = await cli(['validate', '-', '--json'], `Intro line\n\n<proposed_plan>\n${plan}</proposed_plan>\n`);
  assert.equal(r.code, 1);
  const o = JSON.parse(r.out) as { errors: Array<{ line?: number }> };
  assert.equal(o.errors[0]?.line, 17 + 3);
});

test("ADD-2 (issue 14): the JSON contract is the same for a plan in VT Code's labeled-block shape and for a four-backtick plan", async () => {
  const r = await cli(['validate', '--json', 'conformance/labeled-step-blocks-bold.md']);
  assert.equal(r.code, 0);
  const o = JSON.parse(r.out) as Record<string, unknown>;
  assert.deepEqual(Object.keys(o), ['ready', 'errors', 'warnings', 'title', 'steps']);
  assert.deepEqual((o.steps as unknown[])[0], {
    number: 1,
    action: 'Load the snapshot at boot: Read the snapshot and fill the cache before binding the port.',
    files: ['src/cache/warm.rs:warm_up', 'src/main.rs:main'],
    verify: ['cargo test -p cache warm_up'],
  });
  const fenced = await cli(['validate', '--json', 'conformance/four-backtick-fence.md']);
  assert.equal(fenced.code, 1);
  const f = JSON.parse(fenced.out) as { errors: Array<Record<string, unknown>>; steps: unknown[] };
  assert.deepEqual(Object.keys(f.errors[0] ?? {}), ['code', 'message', 'section', 'line']);
  assert.deepEqual(
    f.errors.map((e) => [e.code, e.section, e.line]),
    [
      ['missing_section', 'Summary', 6],
      ['missing_section', 'Implementation Steps', 9],
      ['missing_section', 'Test Cases and Validation', 12],
      ['missing_section', 'Assumptions and Defaults', 15],
    ],
  );
  assert.deepEqual(f.steps, []);
});

test('ADD-2: usage and I/O errors exit 2 with a message on stderr', async () => {
  for (const argv of [
    ['validate'],
    ['validate', 'a.md', 'b.md'],
    ['validate', '--bogus', VALID],
    ['extract'],
    ['extract', '--chunk-size', '0', VALID],
    ['extract', '--chunk-size', 'x', VALID],
    ['extract', '--nope', VALID],
  ]) {
    const r = await cli(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.out, '');
    assert.match(r.err, /^vtplan (validate|extract): .+\n(Usage: vtplan|.+)/, argv.join(' '));
  }
  const missing = await cli(['validate', 'no/such.md']);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot read no\/such\.md: no such file/);
  const dir = await cli(['validate', 'valid']);
  assert.equal(dir.code, 2);
  assert.match(dir.err, /it is a directory/);
});

test('PLAN-1, PLAN-7: `vtplan extract --json` prints {plan, text, truncated}', async () => {
  const r = await cli(['extract', '--json', '-'], 'Say hi.\n<proposed_plan>\n# P\n</proposed_plan>\nBye.');
  assert.equal(r.code, 0);
  assert.deepEqual(JSON.parse(r.out), { plan: '# P', text: 'Say hi.\n\nBye.', truncated: false });
  const t = await cli(['extract', '--json', '-'], 'x <proposed_plan>\n# P\n## Summary');
  assert.deepEqual(JSON.parse(t.out), { plan: '# P\n## Summary', text: 'x ', truncated: true });
  const none = await cli(['extract', '--json', '-'], 'nothing');
  assert.deepEqual(JSON.parse(none.out), { plan: null, text: 'nothing', truncated: false });
});

test('PLAN-1: `vtplan extract` without --json prints the plan, exit 1 without one', async () => {
  const r = await cli(['extract', '-'], '<proposed_plan>\n# P\n</proposed_plan>');
  assert.deepEqual([r.code, r.out], [0, '# P\n']);
  const none = await cli(['extract', '-'], 'chat only');
  assert.equal(none.code, 1);
  assert.match(none.err, /no plan found/);
});

test('PLAN-1 (property): `vtplan extract --chunk-size N` prints the same for every N', async () => {
  const response = `Checked the repo.\n<propo${''}sed_plan>\n${readFileSync(join(fixtures, VALID), 'utf8')}</proposed_plan>\nApprove?`;
  const whole = await cli(['extract', '--json', '-'], response);
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 200 }), async (n) => {
      const r = await cli(['extract', '--json', '--chunk-size', String(n), '-'], response);
      assert.equal(r.out, whole.out);
    }),
    { numRuns: 60 },
  );
});
