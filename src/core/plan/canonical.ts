/**
 * The canonical plan file (file-formats.md, issue 14 item 3): what the runtime writes when it
 * saves a plan, so VT Code and this extension read every saved plan the same way whatever shape
 * the model wrote it in:
 *
 *   # Title
 *   <lines before the first section, e.g. Repository facts checked / Next open decision>
 *   ## Summary …  ## Implementation Steps …  ## Test Cases and Validation …  ## Assumptions and Defaults …
 *
 * Sections keep their order and their text; bold section lines, label lines and a compact plan's
 * unheaded steps become `##` sections with their canonical names; other sections are kept as
 * written. Every step becomes one line `N. action -> files: [...] -> verify: [...]` (plus
 * `-> outcome: ...`), its labeled lines folded in, its other detail lines kept under it.
 * Canonical text is a fixed point: writing it again changes nothing.
 */
import {
  SECTION_NAMES,
  parseListValue,
  parsePlan,
  type PlanDoc,
  type PlanSection,
  type PlanStep,
  type SourceLine,
} from './parse';

function trimBlankEdges(lines: readonly string[]): string[] {
  let from = 0;
  let to = lines.length;
  while (from < to && (lines[from] as string).trim() === '') from++;
  while (to > from && (lines[to - 1] as string).trim() === '') to--;
  return lines.slice(from, to).map((l) => l.replace(/\s+$/, ''));
}

/** An entry as written inside `[...]`: raw when it reads back as itself, else in backticks. */
function listEntry(item: string): string {
  const back = parseListValue(`[${item}]`);
  if (back.length === 1 && back[0] === item) return item;
  const ticks = '`'.repeat(Math.max(0, ...(item.match(/`+/g) ?? []).map((t) => t.length)) + 1);
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${item}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

function stepLine(step: PlanStep, n: number): string {
  const targets = [...step.files, ...step.targets];
  let line = `${n}. ${step.action}`;
  if (targets.length > 0) line += ` -> files: [${targets.map(listEntry).join(', ')}]`;
  if (step.hasVerifyField) line += ` -> verify: [${step.verify.map(listEntry).join(', ')}]`;
  if (step.outcome !== undefined && step.outcome !== '') line += ` -> outcome: ${step.outcome}`;
  return line;
}

const leadingColumns = (line: string): number => (/^[ \t]*/.exec(line)?.[0] ?? '').replace(/\t/g, '    ').length;

/** Detail lines under a step, moved as a block so their relative indentation (nesting, code) is kept. */
function detailLines(lines: readonly SourceLine[], meta: ReadonlySet<number>, contentColumn: number): string[] {
  const kept = trimBlankEdges(lines.filter((l) => !meta.has(l.line)).map((l) => l.text));
  const indents = kept.filter((l) => l.trim() !== '').map(leadingColumns);
  const base = indents.length > 0 ? Math.min(...indents) : 0;
  return kept.map((l) =>
    l.trim() === '' ? '' : `${' '.repeat(contentColumn + leadingColumns(l) - base)}${l.trimStart()}`,
  );
}

function stepsBody(section: PlanSection, steps: readonly PlanStep[]): string[] {
  const firstStep = steps[0]?.line ?? Infinity;
  const out = trimBlankEdges(section.body.filter((l) => l.line < firstStep).map((l) => l.text));
  // One blank line between the text before the steps and the first step; none when no step follows.
  if (out.length > 0 && steps.length > 0) out.push('');
  steps.forEach((step, i) => {
    const next = steps[i + 1]?.line ?? Infinity;
    const own = section.body.filter((l) => l.line > step.line && l.line < next);
    const head = stepLine(step, i + 1);
    const details = detailLines(own, new Set(step.metaLines), `${i + 1}. `.length);
    out.push(head, ...details);
    if (details.length > 0 && i + 1 < steps.length) out.push('');
  });
  return out;
}

function headingOf(section: PlanSection): string {
  return section.key !== null ? `## ${SECTION_NAMES[section.key]}` : `${'#'.repeat(section.level)} ${section.heading}`;
}

/** The canonical text of a plan (no trailing newline). */
export function canonicalPlan(input: string | PlanDoc): string {
  const doc = typeof input === 'string' ? parsePlan(input) : input;
  const parts: string[][] = [];
  if (doc.title !== null) parts.push([`# ${doc.title}`]);
  const lead = trimBlankEdges([...doc.preface, ...doc.intro].map((l) => l.text));
  if (lead.length > 0) parts.push(lead);
  const stepsSection = doc.sections.find((s) => s.key === 'steps');
  for (const section of doc.sections) {
    const body =
      section === stepsSection ? stepsBody(section, doc.steps) : trimBlankEdges(section.body.map((l) => l.text));
    parts.push(body.length > 0 ? [headingOf(section), ...body] : [headingOf(section)]);
  }
  return parts.map((p) => p.join('\n')).join('\n\n');
}

/** Plan file content as the runtime writes it: canonical, `\n` line endings, one trailing newline. */
export function canonicalPlanFile(plan: string): string {
  return `${canonicalPlan(plan)}\n`;
}
