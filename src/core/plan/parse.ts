/**
 * Plan markdown → typed plan document (PLAN-2, PLAN-3, file-formats.md). The structure comes
 * from markdown-it's block tokens (the same parse the chat renders), so a plan is read the way
 * it is shown: ATX and setext headings are headings, whatever sits in a fenced or indented code
 * block is code and never a section or a step, and list nesting decides what belongs to a step.
 * On top of that model the parser accepts the shapes VT Code accepts: bold section lines and
 * label lines (`Summary: …`), plain-text plans with `•` bullets, compact plans whose numbered
 * steps follow the summary without a Steps heading, and steps written as labeled blocks.
 *
 * The parser never rejects anything; it records what it found with 1-based source line numbers
 * and leaves every judgement to the validator.
 */
import { MarkdownBlocks } from '../markdown/blocks';
import { parseBlockTokens } from '../markdown/parser';
import { SECTION_NAMES, sectionKeyOf, sectionLabelOf, type SectionKey } from './sections';
import { labeledStepLine, parseListValue, plainAction, splitStepLine, type StepLabelField } from './step-line';

export { SECTION_NAMES, sectionKeyOf, type SectionKey } from './sections';
export { parseListValue, splitStepLine } from './step-line';

export const TRACKER_START = '<!-- vtcode:plan-tracker:start -->';
export const TRACKER_END = '<!-- vtcode:plan-tracker:end -->';

export interface SourceLine {
  text: string;
  /** 1-based line number in the original text. */
  line: number;
}

/**
 * How a section was written: a markdown heading, a bold line on its own, a label line
 * (`Summary: …`, or a bare section name as plain-text plans print it), or not at all (the
 * numbered steps of a compact plan).
 */
type SectionForm = 'heading' | 'bold' | 'label' | 'implicit';

export interface PlanSection {
  heading: string;
  key: SectionKey | null;
  level: number;
  line: number;
  form: SectionForm;
  /** Lines up to the next section, code included; a label's own value is the first line. */
  body: SourceLine[];
}

export interface PlanStep {
  number: number;
  /** `numbered` (`1.`, `1)`, `1:`, `Step 1:`) or `checkbox` (`- [ ]`). */
  kind: 'numbered' | 'checkbox';
  action: string;
  files: string[];
  /** `symbols:` / `target:` metadata. */
  targets: string[];
  verify: string[];
  /** True when a `verify:`/`verification:` field was present (even if empty). */
  hasVerifyField: boolean;
  outcome?: string;
  line: number;
  /** Every source line that belongs to the step (first line, continuation and detail lines). */
  lines: SourceLine[];
  /** The lines that carry metadata (`files:`, `- **Verify:** …`) rather than detail. */
  metaLines: number[];
}

/** A required section's heading found only inside a code block, where it is code, not a section. */
interface CodedSection {
  key: SectionKey;
  line: number;
  blockStart: number;
  blockEnd: number;
}

export interface PlanDoc {
  title: string | null;
  titleLine: number | null;
  /** Lines before the title (e.g. `Repository facts checked`, `Next open decision`); before the first section when there is no title. */
  preface: SourceLine[];
  /** Lines between the title and the first section. */
  intro: SourceLine[];
  sections: PlanSection[];
  steps: PlanStep[];
  /** Source lines with the tracker region and code blocks blanked, for whole-text rules. */
  proseLines: SourceLine[];
  /** The analysed text (tracker region removed), used for the token estimate. */
  text: string;
  codedSections: CodedSection[];
}

/** A fence line's run of backticks or tildes (CommonMark: at most three spaces before it). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Which lines are the tracker region, markers included. A marker line inside a fenced code block
 * (a plan that shows the tracker format) is text: taking it for the start would drop the rest of
 * the plan, from that line to its end.
 */
function trackerRegion(lines: readonly string[]): boolean[] {
  const region: boolean[] = [];
  let inside = false;
  let fence: string | null = null;
  for (const line of lines) {
    const t = line.trim();
    const run = FENCE.exec(line)?.[1];
    if (inside) {
      region.push(true);
      inside = t !== TRACKER_END;
      continue;
    }
    if (fence !== null) {
      if (run !== undefined && run[0] === fence[0] && run.length >= fence.length && t === run) fence = null;
    } else if (run !== undefined) fence = run;
    else inside = t === TRACKER_START;
    region.push(inside);
  }
  return region;
}

/** Replaces the tracker region (markers included) with empty lines so line numbers stay right. */
function blankTrackerRegion(lines: readonly string[]): string[] {
  const region = trackerRegion(lines);
  return lines.map((line, i) => (region[i] ? '' : line));
}

/** The plan text without the embedded tracker region, for comparing plan content. */
export function stripTrackerRegion(text: string): string {
  const lines = text.split(/\r?\n/);
  const region = trackerRegion(lines);
  if (!region.includes(true)) return text;
  return lines
    .filter((_, i) => !region[i])
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

// The `s` flag on every pattern with `.` below: a line may still hold U+2028/U+2029 (markdown
// splits lines at \n only), which `.` alone does not match, and such a step must not vanish.
const NUMBERED_STEP = /^(\s*)((?:\*\*)?(?:step\s+)?)(\d+)(?:\*\*)?\s*[.):](?:\*\*)?\s+(.*)$/is;
const CHECKBOX_STEP = /^(\s*)[-*+]\s+\[([ xX~/!])\]\s+(.*)$/s;
const BULLET_ITEM = /^(\s*)[-*+]\s+(.*)$/s;
/** A bullet (and box) opened right after a step's number (`1. - [ ] Add`) only decorates the step. */
const NESTED_BULLET = /^[-*+]\s+(?:\[[ xX~/!]\]\s+)?/;
const QUOTE_PREFIX = /^(?:\s*>)+ ?/;
/** A plain-text title: one short line that does not read as a sentence or a lead-in. */
const PLAIN_TITLE = /^[^\s#>*\-+|`].{0,118}[^.:;,!?]$/s;

/** A section start found in the text, before sections are assembled (0-based lines). */
interface SectionStart {
  line: number;
  bodyFrom: number;
  heading: string;
  key: SectionKey | null;
  level: number;
  form: SectionForm;
  /** The label's value (`Summary: <value>`): the section's first body line. */
  value?: string;
  /** A `#` level-1 heading that is not a section name: a candidate title. */
  titleCandidate: boolean;
}

interface StepStart {
  number: number;
  kind: 'numbered' | 'checkbox';
  text: string;
  indent: number;
  /** The numbering was opened in bold (`**1.` …), so a closing `**` may trail the action. */
  boldNumber: boolean;
}

/** A numbered step from its NUMBERED_STEP match; `indent` is where its list item starts. */
function numberedStep(m: RegExpExecArray, indent: number): StepStart {
  return {
    number: Number(m[3]),
    kind: 'numbered',
    text: (m[4] as string).replace(NESTED_BULLET, ''),
    indent,
    boldNumber: (m[2] as string).startsWith('**'),
  };
}

class PlanReader {
  private readonly src: SourceLine[];

  constructor(
    private readonly lines: readonly string[],
    private readonly blocks: MarkdownBlocks,
  ) {
    this.src = lines.map((text, i) => ({ text, line: i + 1 }));
  }

  read(text: string): PlanDoc {
    const starts = this.sectionStarts();
    let title: string | null = null;
    let titleLine: number | null = null;
    let titleEnd = 0;
    const kept: SectionStart[] = [];
    for (const s of starts) {
      if (title === null && kept.length === 0 && s.titleCandidate) {
        title = s.heading.replace(/\*\*|__/g, '').trim();
        titleLine = s.line + 1;
        titleEnd = s.bodyFrom;
        continue;
      }
      // A non-canonical deeper heading (e.g. `### Phase 1` under Implementation Steps) stays in its section.
      const current = kept.at(-1);
      if (s.key === null && current && s.level > current.level) continue;
      kept.push(s);
    }
    if (title === null) {
      const plain = this.plainTitle(kept[0]?.line ?? this.lines.length);
      if (plain !== null) {
        title = plain.text;
        titleLine = plain.line + 1;
        titleEnd = plain.line + 1;
      }
    }

    const firstSection = kept[0]?.line ?? this.lines.length;
    const titleStart = titleLine === null ? firstSection : titleLine - 1;
    const preface = this.src.slice(0, titleStart);
    const intro = titleLine === null ? [] : this.src.slice(titleEnd, firstSection);

    const ranges = kept.map((s, i) => ({ start: s, to: kept[i + 1]?.line ?? this.lines.length }));
    const sections: PlanSection[] = [];
    let stepsRange: { from: number; to: number } | null = null;
    for (const { start, to } of ranges) {
      const section = this.sectionOf(start, start.bodyFrom, to);
      sections.push(section);
      if (start.key === 'steps' && stepsRange === null) stepsRange = { from: start.bodyFrom, to };
    }
    if (stepsRange === null)
      stepsRange = this.implicitSteps(
        sections,
        ranges,
        titleLine === null ? null : { from: titleEnd, to: firstSection },
      );

    const steps = stepsRange ? this.steps(stepsRange.from, stepsRange.to) : [];
    const proseLines = this.src.map((l, i) => (this.blocks.isCode(i) ? { text: '', line: l.line } : l));
    return { title, titleLine, preface, intro, sections, steps, proseLines, text, codedSections: this.codedSections() };
  }

  private sectionOf(start: SectionStart, bodyFrom: number, to: number): PlanSection {
    const body = this.src.slice(bodyFrom, to);
    if (start.value !== undefined) body.unshift({ text: start.value, line: start.line + 1 });
    return { heading: start.heading, key: start.key, level: start.level, line: start.line + 1, form: start.form, body };
  }

  /** Headings (outside code), and label lines in paragraphs that are not inside a list item. */
  private sectionStarts(): SectionStart[] {
    const out: SectionStart[] = [];
    for (const h of this.blocks.headings) {
      const key = sectionKeyOf(h.text);
      out.push({
        line: h.line,
        bodyFrom: h.end,
        heading: h.text,
        key,
        level: h.level,
        form: 'heading',
        titleCandidate: h.level === 1 && key === null,
      });
    }
    for (let i = 0; i < this.lines.length; i++) {
      if (!this.blocks.isParagraph(i) || this.blocks.itemHolding(i) !== undefined) continue;
      const label = sectionLabelOf(this.lines[i] as string);
      if (label === null) continue;
      const base = { line: i, bodyFrom: i + 1, heading: label.name, key: label.key, level: 2, titleCandidate: false };
      out.push(
        label.kind === 'value'
          ? { ...base, form: 'label', value: label.value }
          : { ...base, form: label.bold ? 'bold' : 'label' },
      );
    }
    return out.sort((a, b) => a.line - b.line);
  }

  /** A plain-text plan's first line as its title: one short line before any section, when the plan has no headings at all. */
  private plainTitle(before: number): { text: string; line: number } | null {
    if (this.blocks.headings.length > 0 || before >= this.lines.length) return null;
    const first = this.lines.findIndex((l) => l.trim() !== '');
    if (first === -1 || first >= before || !this.blocks.isParagraph(first) || this.blocks.isParagraph(first + 1))
      return null;
    const text = (this.lines[first] as string).trim();
    if (!PLAIN_TITLE.test(text) || this.stepStart(first) !== null) return null;
    return { text: text.replace(/\*\*|__/g, '').trim(), line: first };
  }

  /**
   * A compact plan has no Steps heading: its numbered steps follow the summary. They become an
   * implicit `Implementation Steps` section from the first step to the end of the part they are in
   * (the summary, an extra section, or the lines after the title).
   */
  private implicitSteps(
    sections: PlanSection[],
    ranges: ReadonlyArray<{ start: SectionStart; to: number }>,
    intro: { from: number; to: number } | null,
  ): { from: number; to: number } | null {
    // In document order: the lines after the title precede every section, and ranges are sorted.
    const parts: Array<{ from: number; to: number; index: number }> = [];
    if (intro) parts.push({ ...intro, index: -1 });
    ranges.forEach(({ start, to }, index) => {
      if (start.key === 'summary' || start.key === null) parts.push({ from: start.bodyFrom, to, index });
    });
    for (const part of parts) {
      for (let i = part.from; i < part.to; i++) {
        if (this.blocks.isCode(i) || this.stepStart(i) === null) continue;
        const implicit: PlanSection = {
          heading: SECTION_NAMES.steps,
          key: 'steps',
          level: part.index === -1 ? 2 : (ranges[part.index]?.start.level ?? 2),
          line: i + 1,
          form: 'implicit',
          body: this.src.slice(i, part.to),
        };
        const owner = part.index === -1 ? undefined : sections[part.index];
        if (owner) owner.body = owner.body.filter((l) => l.line <= i);
        sections.splice(part.index + 1, 0, implicit);
        return { from: i, to: part.to };
      }
    }
    return null;
  }

  /**
   * The step a line starts, if any: a numbered line or list item, or a checkbox item. A line may
   * open two items (`- 1. Add`, `1. - [ ] Add`), of which markdown reports only the inner one as
   * starting there, so the line's own first marker decides.
   */
  private stepStart(i: number): StepStart | null {
    const item = this.blocks.itemStartingAt(i);
    if (item === undefined && !this.blocks.isParagraph(i)) return null;
    const text = (this.lines[i] as string).replace(QUOTE_PREFIX, '');
    const bullet = item === undefined ? null : BULLET_ITEM.exec(text);
    if (bullet) {
      const checkbox = CHECKBOX_STEP.exec(text);
      if (checkbox)
        return {
          number: 0,
          kind: 'checkbox',
          text: checkbox[3] as string,
          indent: (checkbox[1] as string).length,
          boldNumber: false,
        };
      const inner = NUMBERED_STEP.exec(bullet[2] as string);
      return inner ? numberedStep(inner, (bullet[1] as string).length) : null;
    }
    const m = NUMBERED_STEP.exec(text);
    return m ? numberedStep(m, (m[1] as string).length) : null;
  }

  /**
   * Steps in lines [from, to). A numbered or checkbox line indented deeper than the step above
   * is detail of that step (a nested list); every other line up to the next step belongs to the
   * step above. A numbered line that markdown-it folds into the item above as lazy continuation
   * (`3: Three` right under `2) Two`) is still a step: it is not indented under it.
   */
  private steps(from: number, to: number): PlanStep[] {
    const steps: PlanStep[] = [];
    let current: PlanStep | null = null;
    let currentIndent = 0;
    for (let i = from; i < to; i++) {
      const src = this.src[i] as SourceLine;
      if (this.blocks.isCode(i)) {
        current?.lines.push(src);
        continue;
      }
      if (src.text.trim() === '') continue;
      let start = this.stepStart(i);
      if (start && current && start.indent > currentIndent) start = null;
      if (start) {
        current = this.newStep(start, src, steps.length + 1);
        steps.push(current);
        currentIndent = start.indent;
        continue;
      }
      if (current === null) continue;
      current.lines.push(src);
      const labeled = labeledStepLine(src.text);
      if (labeled) {
        applyField(current, labeled.field, labeled.value);
        current.metaLines.push(src.line);
      }
    }
    return steps;
  }

  private newStep(start: StepStart, src: SourceLine, position: number): PlanStep {
    let text = start.text;
    if (start.boldNumber && text.endsWith('**') && (text.match(/\*\*/g) ?? []).length % 2 === 1)
      text = text.slice(0, -2).trimEnd();
    const { action, fields } = splitStepLine(text);
    const step: PlanStep = {
      number: start.kind === 'numbered' ? start.number : position,
      kind: start.kind,
      action: plainAction(action),
      files: [],
      targets: [],
      verify: [],
      hasVerifyField: false,
      line: src.line,
      lines: [src],
      metaLines: [],
    };
    for (const f of fields) applyField(step, f.field, f.value);
    return step;
  }

  /** Required-section headings that appear only inside code blocks (the four-backtick plan). */
  private codedSections(): CodedSection[] {
    const out: CodedSection[] = [];
    for (const block of this.blocks.codeBlocks) {
      for (let i = block.start; i < block.end; i++) {
        const line = (this.lines[i] as string).trim();
        const heading = /^#{1,6}\s+(.*)$/s.exec(line);
        const key = heading
          ? sectionKeyOf(heading[1] as string)
          : /^(\*\*|__).+\1:?$/s.test(line)
            ? sectionKeyOf(line)
            : null;
        if (key !== null && !out.some((c) => c.key === key))
          out.push({ key, line: i + 1, blockStart: block.start + 1, blockEnd: block.end });
      }
    }
    return out;
  }
}

function applyField(step: PlanStep, field: StepLabelField, value: string): void {
  if (field === 'outcome') {
    const v = value.trim();
    step.outcome = step.outcome ? `${step.outcome} ${v}` : v;
    return;
  }
  if (field === 'action') {
    const v = plainAction(value);
    if (v === '') return;
    step.action = step.action === '' ? v : `${step.action}${/[:.]$/.test(step.action) ? ' ' : ': '}${v}`;
    return;
  }
  if (field === 'verify') step.hasVerifyField = true;
  step[field].push(...parseListValue(value));
}

export function parsePlan(markdown: string): PlanDoc {
  const lines = blankTrackerRegion(
    markdown
      .replace(/^\uFEFF/, '')
      .replace(/\r\n?/g, '\n')
      .split('\n'),
  );
  const text = lines.join('\n');
  return new PlanReader(lines, new MarkdownBlocks(lines, parseBlockTokens(text))).read(text);
}
