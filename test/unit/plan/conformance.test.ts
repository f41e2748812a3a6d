/**
 * Issue 14 conformance corpus (test/fixtures/plans/conformance): plans in every shape VT Code
 * accepts or rejects, with this validator's expected readiness, codes and step count, and VT
 * Code's own verdict on the same file. Plus the property that ties the validator to the chat:
 * the sections the validator finds are exactly the headings (and section lines) the chat renders
 * outside code blocks.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import * as z from 'zod';
import { parsePlan, validatePlan, sectionKeyOf, type SectionKey } from '../../../src/core/plan';
import { sectionLabelOf } from '../../../src/core/plan/sections';
import { renderMarkdown } from '../../../src/extension/markdown';

const plansRoot = join(import.meta.dirname, '../../fixtures/plans');
const corpusDir = join(plansRoot, 'conformance');

const Manifest = z.object({
  about: z.string(),
  plans: z.array(
    z.strictObject({
      file: z.string().regex(/^[a-z0-9-]+\.md$/),
      shapes: z.array(z.string()).min(1),
      ready: z.boolean(),
      codes: z.array(z.string()),
      steps: z.number().int().nonnegative(),
      vtcode: z.enum(['ready', 'not_ready']),
      divergence: z.string().min(40).optional(),
    }),
  ),
});
const manifest = Manifest.parse(JSON.parse(readFileSync(join(corpusDir, 'manifest.json'), 'utf8')));
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

test('issue 14: the manifest lists every corpus plan once, and the corpus has every shape of item 2', () => {
  const files = readdirSync(corpusDir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  assert.deepEqual(manifest.plans.map((p) => p.file).sort(), files);
  const shapes = new Set(manifest.plans.flatMap((p) => p.shapes));
  const item2 = [
    'bold-headings',
    'bold-lines',
    'label-lines',
    'compact',
    'labeled-blocks',
    'file-symbol-targets',
    'mixed-targets',
    'embedded-command',
    'plain-text',
    'env-prefixed-prose',
    'generic-target',
  ];
  const item1 = ['atx-headings', 'setext-headings', 'tilde-fence', 'long-fence', 'plan-in-code'];
  assert.deepEqual(
    [...item1, ...item2].filter((s) => !shapes.has(s)),
    [],
  );
  for (const shape of item2.filter((s) => !['env-prefixed-prose', 'generic-target'].includes(s))) {
    assert.ok(
      manifest.plans.some((p) => p.ready && p.shapes.includes(shape)),
      `an accepted plan of shape ${shape}`,
    );
  }
});

for (const entry of manifest.plans) {
  test(`issue 14 corpus: ${entry.file} (${entry.shapes.join(', ')}) is ${entry.ready ? 'ready' : `rejected with ${entry.codes.join(', ')}`}`, () => {
    const report = validatePlan(read(corpusDir, entry.file));
    assert.equal(report.ready, entry.ready, JSON.stringify(report.errors, null, 1));
    assert.deepEqual([...new Set(report.errors.map((e) => e.code))].sort(), [...entry.codes].sort());
    assert.equal(report.doc.steps.length, entry.steps, 'steps extracted');
    for (const step of entry.ready ? report.doc.steps : []) {
      assert.notEqual(step.action, '', `step ${step.number} has an action`);
      assert.ok(
        step.files.length + step.targets.length > 0 || /`/.test(step.action),
        `step ${step.number} names a target`,
      );
      assert.ok(step.verify.length > 0, `step ${step.number} has its checks`);
    }
  });
}

test('issue 14: the four-backtick plan is rejected with a message that points at the fence', () => {
  const report = validatePlan(read(corpusDir, 'four-backtick-fence.md'));
  assert.equal(report.errors.length, 4);
  for (const e of report.errors)
    assert.match(e.message, /only inside the code block at lines 3-17.*remove the code fence/);
});

test("issue 14: ≥ 95 % agreement with VT Code's validator; every disagreement is a documented divergence", () => {
  const agree = (p: (typeof manifest.plans)[number]) => p.ready === (p.vtcode === 'ready');
  for (const p of manifest.plans)
    assert.equal(agree(p), p.divergence === undefined, `${p.file}: ${p.divergence ?? 'undocumented disagreement'}`);
  const comparable = manifest.plans.filter((p) => p.divergence === undefined);
  assert.ok(
    comparable.length / manifest.plans.length >= 0.95 || manifest.plans.length - comparable.length <= 1,
    'divergences stay rare',
  );
  assert.equal(comparable.filter(agree).length / comparable.length, 1);
});

// ---- The validator's sections are the chat's headings ---------------------------------------

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const text = (html: string) =>
  html.replace(/<[^>]+>/g, '').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);

/**
 * Section names as the chat shows them, read from the rendered HTML: `<h1>`…`<h6>` elements, and
 * the lines of paragraphs that are not inside a list item that read as section labels. Code is
 * escaped in the HTML, so nothing inside a code block can produce either.
 */
function renderedSectionKeys(markdown: string): SectionKey[] {
  const html = renderMarkdown(markdown);
  const keys: SectionKey[] = [];
  let listDepth = 0;
  const tag = /<(\/?)(h[1-6]|p|li)\b[^>]*>/g;
  let open: { name: string; at: number } | null = null;
  for (let m = tag.exec(html); m !== null; m = tag.exec(html)) {
    const [whole, closing, name] = m as unknown as [string, string, string];
    if (name === 'li') {
      listDepth += closing ? -1 : 1;
      continue;
    }
    if (!closing) {
      open = { name, at: m.index + whole.length };
      continue;
    }
    if (open === null || open.name !== name) continue;
    const inner = text(html.slice(open.at, m.index));
    open = null;
    if (name !== 'p') {
      const key = sectionKeyOf(inner);
      if (key !== null) keys.push(key);
    } else if (listDepth === 0) {
      for (const line of inner.split('\n')) {
        const label = sectionLabelOf(line);
        if (label !== null) keys.push(label.key);
      }
    }
  }
  return keys;
}

function validatorSectionKeys(markdown: string): SectionKey[] {
  return parsePlan(markdown)
    .sections.filter((s) => s.form !== 'implicit' && s.key !== null)
    .map((s) => s.key as SectionKey);
}

const everyFixture = [
  ...manifest.plans.map((p) => ({ dir: corpusDir, file: p.file })),
  ...['valid', 'invalid'].flatMap((d) =>
    readdirSync(join(plansRoot, d))
      .filter((f) => f.endsWith('.md'))
      .map((file) => ({ dir: join(plansRoot, d), file })),
  ),
];

test('issue 14 property: for every corpus plan, the sections the validator found are the headings the chat renders outside code', () => {
  for (const { dir, file } of everyFixture) {
    const plan = read(dir, file);
    assert.deepEqual(validatorSectionKeys(plan), renderedSectionKeys(plan), file);
  }
});

/** Markdown blocks a plan may be made of, some of them hiding section names inside code. */
const NAMES = [
  'Summary',
  'Implementation Steps',
  'Steps',
  'Test Cases and Validation',
  'Validation',
  'Assumptions',
  'Scope',
  'Notes',
  'Risks',
];
const name = fc.constantFrom(...NAMES);
const block = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 4 }), name).map(([level, n]) => `${'#'.repeat(level)} ${n}`),
  fc.tuple(name, fc.constantFrom('=', '-')).map(([n, u]) => `${n}\n${u.repeat(n.length)}`),
  name.map((n) => `**${n}**`),
  fc.tuple(name, fc.constantFrom('Retry the upload.', '`npm test` passes.')).map(([n, v]) => `${n}: ${v}`),
  fc.constantFrom(
    'Plain prose about `src/a.ts`.',
    '1. Do it -> files: [a.ts] -> verify: [npm test]',
    '- item\n  - nested item',
    '• bullet line',
  ),
  fc.tuple(fc.constantFrom('```', '````', '~~~', '~~~~~'), name).map(([f, n]) => `${f}\n## ${n}\n**${n}**\n${f}`),
  name.map((n) => `    ## ${n}\n    **${n}**`),
  fc.tuple(name, name).map(([a, b]) => `- **${a}**\n- ## ${b}`),
  name.map((n) => `> ## ${n}`),
);

test("issue 14 property: for generated plans, the validator's sections are the rendered headings and section lines outside code", () => {
  fc.assert(
    fc.property(fc.array(block, { minLength: 1, maxLength: 12 }), (blocks) => {
      const markdown = blocks.join('\n\n');
      assert.deepEqual(validatorSectionKeys(markdown), renderedSectionKeys(markdown), markdown);
    }),
    { numRuns: 300 },
  );
});
