/**
 * Plan markdown → typed plan document (PLAN-2, PLAN-3, file-formats.md). The parser never
 * rejects anything; it records what it found with 1-based source line numbers and leaves every
 * judgement to the validator.
 */
import { matchingBracket, scanTopLevel, splitTopLevel, unwrapCode } from './scan';

export const TRACKER_START = '<!-- vtcode:plan-tracker:start -->';
export const TRACKER_END = '<!-- vtcode:plan-tracker:end -->';

export type SectionKey = 'summary' | 'steps' | 'validation' | 'assumptions' | 'scope' | 'outcomes' | 'dependencies';

/** Canonical names, as the validator reports them. */
export const SECTION_NAMES: Readonly<Record<SectionKey, string>> = {
  summary: 'Summary',
  steps: 'Implementation Steps',
  validation: 'Test Cases and Validation',
  assumptions: 'Assumptions and Defaults',
  scope: 'Scope',
  outcomes: 'Expected Outcomes',
  dependencies: 'Dependencies and Prerequisites',
};

const SECTION_ALIASES: ReadonlyArray<readonly [string, SectionKey]> = [
  ['summary', 'summary'],
  ['implementation steps', 'steps'],
  ['steps', 'steps'],
  ['test cases and validation', 'validation'],
  ['validation', 'validation'],
  ['assumptions and defaults', 'assumptions'],
  ['assumptions', 'assumptions'],
  ['scope', 'scope'],
  ['expected outcomes', 'outcomes'],
  ['dependencies and prerequisites', 'dependencies'],
];

export interface SourceLine {
  text: string;
  /** 1-based line number in the original text. */
  line: number;
}

export interface PlanSection {
  heading: string;
  key: SectionKey | null;
  level: number;
  line: number;
  /** Lines up to the next heading of the same or a higher level, fenced code included. */
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
}

export interface PlanDoc {
  title: string | null;
  titleLine: number | null;
  /** Lines before the title (e.g. `Repository facts checked`, `Next open decision`). */
  preface: SourceLine[];
  sections: PlanSection[];
  steps: PlanStep[];
  /** Source lines with the tracker region and fenced code blanked, for whole-text rules. */
  proseLines: SourceLine[];
  /** The analysed text (tracker region removed), used for the token estimate. */
  text: string;
}

export function normalizeHeading(raw: string): string {
  return raw
    .replace(/\*\*|__/g, '')
    .replace(/^\s*(?:\d+[.)]\s*)/, '')
    .replace(/[:.]\s*$/, '')
    .replace(/&/g, 'and')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

export function sectionKeyOf(heading: string): SectionKey | null {
  const norm = normalizeHeading(heading);
  for (const [alias, key] of SECTION_ALIASES) if (norm === alias) return key;
  return null;
}

/** Replaces the tracker region (markers included) with empty lines so line numbers stay right. */
export function blankTrackerRegion(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    const t = line.trim();
    if (!inside && t === TRACKER_START) {
      inside = true;
      out.push('');
    } else if (inside) {
      if (t === TRACKER_END) inside = false;
      out.push('');
    } else {
      out.push(line);
    }
  }
  return out;
}

/** The plan text without the embedded tracker region, for comparing plan content. */
export function stripTrackerRegion(text: string): string {
  const lines = text.split(/\r?\n/);
  if (!lines.some((l) => l.trim() === TRACKER_START)) return text;
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    const t = line.trim();
    if (!inside && t === TRACKER_START) inside = true;
    else if (inside && t === TRACKER_END) inside = false;
    else if (!inside) out.push(line);
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
const NUMBERED_STEP = /^(\s*)(?:\*\*)?(?:step\s+)?(\d+)(?:\*\*)?\s*[.):](?:\*\*)?\s+(.*)$/i;
const CHECKBOX_STEP = /^(\s*)[-*+]\s+\[([ xX~/!])\]\s+(.*)$/;
const META_AFTER_ARROW = /^\s*(?:\*\*|__)?(files?|symbols?|targets?|verify|verification|outcome)(?:\*\*|__)?\s*:(?:\*\*|__)?/i;
const CONTINUATION =
  /^\s*(?:[-*+]\s+)?(?:(?:->|→)\s*)?(?:\*\*|__)?(files?|symbols?|targets?|verify|verification|outcome)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.*)$/i;

type MetaField = 'files' | 'targets' | 'verify' | 'outcome';

function fieldOf(key: string): MetaField {
  const k = key.toLowerCase();
  if (k.startsWith('file')) return 'files';
  if (k.startsWith('symbol') || k.startsWith('target')) return 'targets';
  if (k === 'outcome') return 'outcome';
  return 'verify';
}

/** `[a, b]`, `a, b` or `` `a`, `b` `` → items (quote-aware); trailing prose after `]` is ignored. */
export function parseListValue(raw: string): string[] {
  const value = raw.trim();
  if (value.startsWith('[')) {
    const close = matchingBracket(value, 0);
    const inner = close === -1 ? value.slice(1) : value.slice(1, close);
    return splitTopLevel(inner, ',').map(unwrapCode).filter((s) => s.length > 0);
  }
  return splitTopLevel(value.replace(/[.;]\s*$/, ''), ',').map(unwrapCode).filter((s) => s.length > 0);
}

/**
 * Splits a step line into its action and `-> key: value` fields. Only an arrow followed by a
 * metadata key and found outside quotes and brackets starts a field, so arrows in prose
 * (`map old -> new`) and in quoted patterns stay part of the action or value.
 */
export function splitStepLine(text: string): { action: string; fields: Array<{ field: MetaField; value: string }> } {
  const cuts: Array<{ at: number; valueStart: number; field: MetaField }> = [];
  scanTopLevel(text, (i, depth) => {
    if (depth !== 0) return;
    const arrow = text.startsWith('->', i) ? 2 : text[i] === '→' ? 1 : 0;
    if (arrow === 0) return;
    const m = META_AFTER_ARROW.exec(text.slice(i + arrow));
    if (!m) return;
    cuts.push({ at: i, valueStart: i + arrow + m[0].length, field: fieldOf(m[1] as string) });
  });
  const action = (cuts.length > 0 ? text.slice(0, cuts[0]?.at) : text).trim();
  const fields = cuts.map((c, n) => ({
    field: c.field,
    value: text.slice(c.valueStart, cuts[n + 1]?.at ?? text.length).trim(),
  }));
  return { action, fields };
}

function applyField(step: PlanStep, field: MetaField, value: string): void {
  if (field === 'outcome') {
    const v = value.trim();
    step.outcome = step.outcome ? `${step.outcome} ${v}` : v;
    return;
  }
  if (field === 'verify') step.hasVerifyField = true;
  step[field].push(...parseListValue(value));
}

function parseSteps(section: PlanSection): PlanStep[] {
  const steps: PlanStep[] = [];
  let current: PlanStep | null = null;
  let stepIndent = 0;
  let inFence = false;
  for (const src of section.body) {
    if (FENCE.test(src.text)) {
      inFence = !inFence;
      current?.lines.push(src);
      continue;
    }
    if (inFence || src.text.trim() === '') {
      if (inFence) current?.lines.push(src);
      continue;
    }
    const numbered = NUMBERED_STEP.exec(src.text);
    const checkbox = numbered ? null : CHECKBOX_STEP.exec(src.text);
    const indent = ((numbered ?? checkbox)?.[1] ?? '').length;
    const startsStep = (numbered ?? checkbox) !== null && (current === null || indent <= stepIndent);
    if (startsStep) {
      const m = (numbered ?? checkbox) as RegExpExecArray;
      const { action, fields } = splitStepLine(m[3] as string);
      current = {
        number: numbered ? Number(m[2]) : steps.length + 1,
        kind: numbered ? 'numbered' : 'checkbox',
        action,
        files: [],
        targets: [],
        verify: [],
        hasVerifyField: false,
        line: src.line,
        lines: [src],
      };
      stepIndent = indent;
      for (const f of fields) applyField(current, f.field, f.value);
      steps.push(current);
      continue;
    }
    if (current === null) continue;
    current.lines.push(src);
    const cont = CONTINUATION.exec(src.text);
    if (cont) applyField(current, fieldOf(cont[1] as string), cont[2] as string);
  }
  return steps;
}

export function parsePlan(markdown: string): PlanDoc {
  const rawLines = markdown.replace(/^\uFEFF/, '').split(/\r?\n/);
  const lines = blankTrackerRegion(rawLines);
  const sections: PlanSection[] = [];
  const preface: SourceLine[] = [];
  const proseLines: SourceLine[] = [];
  let title: string | null = null;
  let titleLine: number | null = null;
  let inFence = false;
  let current: PlanSection | null = null;

  for (const [i, text] of lines.entries()) {
    const src: SourceLine = { text, line: i + 1 };
    if (FENCE.test(text)) inFence = !inFence;
    const heading = inFence ? null : HEADING.exec(text);
    proseLines.push(inFence || FENCE.test(text) ? { text: '', line: src.line } : src);
    if (heading) {
      const level = (heading[1] as string).length;
      const name = (heading[2] as string).trim();
      const key = sectionKeyOf(name);
      if (level === 1 && title === null && key === null) {
        title = name.replace(/\*\*|__/g, '').trim();
        titleLine = src.line;
        continue;
      }
      // A non-canonical deeper heading (e.g. `### Phase 1` under Implementation Steps) stays in its section.
      if (key === null && current && level > current.level) {
        current.body.push(src);
        continue;
      }
      current = { heading: name, key, level, line: src.line, body: [] };
      sections.push(current);
      continue;
    }
    if (current) current.body.push(src);
    else if (title === null) preface.push(src);
  }

  const stepsSection = sections.find((s) => s.key === 'steps');
  return {
    title,
    titleLine,
    preface,
    sections,
    steps: stepsSection ? parseSteps(stepsSection) : [],
    proseLines,
    text: lines.join('\n'),
  };
}
