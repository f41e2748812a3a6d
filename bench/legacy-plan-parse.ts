/**
 * The line-based plan parser this project used before issue 14 (regular expressions over lines,
 * ``` and ~~~ fences only), kept here and only here so `npm run bench` can print its figure
 * beside the markdown-it plan model's in the same run. Its output is shaped as today's PlanDoc
 * so the same validator runs on both. Not used by the extension.
 */
import type { PlanDoc, PlanSection, PlanStep, SectionKey, SourceLine } from '../src/core/plan/parse';
import { matchingBracket, scanTopLevel, splitTopLevel, unwrapCode } from '../src/core/plan/scan';

const TRACKER_START = '<!-- vtcode:plan-tracker:start -->';
const TRACKER_END = '<!-- vtcode:plan-tracker:end -->';

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

function normalizeHeading(raw: string): string {
  return raw
    .replace(/\*\*|__/g, '')
    .replace(/^\s*(?:\d+[.)]\s*)/, '')
    .replace(/[:.]\s*$/, '')
    .replace(/&/g, 'and')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

function sectionKeyOf(heading: string): SectionKey | null {
  const norm = normalizeHeading(heading);
  for (const [alias, key] of SECTION_ALIASES) if (norm === alias) return key;
  return null;
}

/** Replaces the tracker region (markers included) with empty lines so line numbers stay right. */
function blankTrackerRegion(lines: readonly string[]): string[] {
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

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
const NUMBERED_STEP = /^(\s*)(?:\*\*)?(?:step\s+)?(\d+)(?:\*\*)?\s*[.):](?:\*\*)?\s+(.*)$/i;
const CHECKBOX_STEP = /^(\s*)[-*+]\s+\[([ xX~/!])\]\s+(.*)$/;
const META_AFTER_ARROW =
  /^\s*(?:\*\*|__)?(files?|symbols?|targets?|verify|verification|outcome)(?:\*\*|__)?\s*:(?:\*\*|__)?/i;
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
function parseListValue(raw: string): string[] {
  const value = raw.trim();
  if (value.startsWith('[')) {
    const close = matchingBracket(value, 0);
    const inner = close === -1 ? value.slice(1) : value.slice(1, close);
    return splitTopLevel(inner, ',')
      .map(unwrapCode)
      .filter((s) => s.length > 0);
  }
  return splitTopLevel(value.replace(/[.;]\s*$/, ''), ',')
    .map(unwrapCode)
    .filter((s) => s.length > 0);
}

/**
 * Splits a step line into its action and `-> key: value` fields. Only an arrow followed by a
 * metadata key and found outside quotes and brackets starts a field, so arrows in prose
 * (`map old -> new`) and in quoted patterns stay part of the action or value.
 */
function splitStepLine(text: string): { action: string; fields: Array<{ field: MetaField; value: string }> } {
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
        metaLines: [],
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

export function legacyParsePlan(markdown: string): PlanDoc {
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
      current = { heading: name, key, level, line: src.line, form: 'heading', body: [] };
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
    intro: [],
    codedSections: [],
  };
}
