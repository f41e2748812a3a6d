/**
 * The plan artifact validator (PLAN-2 … PLAN-7). Codes are stable: tools, tests and the repair
 * request rely on them. Every issue names the rule, the section or step, and the source line.
 */
import { SECTION_NAMES, parsePlan, type PlanDoc, type PlanSection, type PlanStep, type SectionKey } from './parse';
import { blankQuoted } from './scan';
import { isPathLike, judgeVerifyItem } from './verify';

export const PLAN_ERROR_CODES = [
  'missing_section',
  'empty_summary',
  'no_steps',
  'step_missing_target',
  'step_vague_target',
  'step_missing_verify',
  'step_vague_verify',
  'placeholder',
  'open_decision',
  'link_reference',
  'no_validation_items',
  'no_assumptions',
] as const;

type PlanErrorCode = (typeof PLAN_ERROR_CODES)[number];
type PlanWarningCode =
  'over_token_budget' | 'no_title' | 'no_scope' | 'duplicate_section' | 'step_numbering' | 'verify_chain';

export interface PlanIssue {
  code: PlanErrorCode | PlanWarningCode;
  message: string;
  step?: number;
  section?: string;
  line?: number;
}

export interface ValidationReport {
  ready: boolean;
  errors: PlanIssue[];
  warnings: PlanIssue[];
  /** Estimated tokens of the plan (≈ 4 characters a token). */
  tokens: number;
  doc: PlanDoc;
}

/** PLAN-7: plans above this risk truncation at the model's output limit. */
export const PLAN_TOKEN_BUDGET = 1500;

export function estimateTokens(text: string): number {
  return Math.ceil(text.trim().length / 4);
}

const REQUIRED: ReadonlyArray<{ key: SectionKey; alias: string }> = [
  { key: 'summary', alias: '' },
  { key: 'steps', alias: 'Steps' },
  { key: 'validation', alias: 'Validation' },
  { key: 'assumptions', alias: 'Assumptions' },
];

const MARKDOWN_FILE = /\.(?:md|mdx|markdown)$/i;
const TARGET_ANCHOR = /`[^`]+`|\w+::\w+|\w+\(\)|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|\b\w+_\w+\b|\w+#\w+/;
/** Words the plan template puts in brackets; as a whole item or bracket content they are placeholders. */
const PLACEHOLDER_WORDS = new Set([
  'action',
  'check',
  'command',
  'path',
  'file',
  'title',
  'task title',
  'description',
  'step',
  'summary',
  'todo',
  'tbd',
  'placeholder',
  'symbol',
  'target',
  'outcome',
  '...',
  '…',
  'if any',
  'assumption',
]);
const TEMPLATE_PHRASES = [
  '1-3 lines',
  'concrete surfaces',
  'explicit non-goals',
  'detected toolchain',
  'targeted check',
  'observable end state',
  'required tooling',
  'assumption or default',
  'out-of-scope item',
  'file:symbol or behaviour',
  'file:symbol or behavior',
  'observed command output',
  'if any',
];
/** Where the template puts a `[Title Case]` slot: a heading, a list/step marker or a `Label:` at line start. */
const TEMPLATE_SLOT = /^\s*(?:#{1,6}|[-*+]|\d+[.):]|(?:step\s+\d+:)|[A-Za-z][\w /-]*:)?\s*$/i;
const RESOLVED =
  /^(?:\(?(?:none|n\/a|nothing|no\b|all\s+(?:resolved|settled|closed)|resolved|settled|closed)\b|-+$|—$)/i;
const OPEN_MARKER =
  /^[\s#>*_-]*(?:\d+[.)]\s*)?(?:\*\*|__)?(next\s+open\s+decisions?|open\s+questions?|open\s+decisions?|unresolved\s+questions?)(?:\*\*|__)?\s*(?:[:\-–—]\s*(?:\*\*|__)?)?\s*(.*)$/is;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/s;

function stripLocation(item: string): string {
  return item.replace(/#L?\d+(?:-L?\d+)?$/, '').replace(/:(?:\d+(?::\d+)?|[A-Za-z_][\w.]*(?:\(\))?)$/, '');
}

/**
 * A word of a step or a target that is a path once what wraps it in prose is removed: opening
 * brackets and quotes, closing ones and sentence punctuation (not the dots of `.` or `..`), and a
 * `:line` or `#L` location.
 */
function isPathWord(word: string): boolean {
  return isPathLike(stripLocation(word.replace(/^[([{'"]+|(?<=[^.])[)\]}'",.;:]+$/g, '')));
}

/**
 * Words that name observable behaviour of a program. A prose target such as `approval handoff`
 * or `startup latency` names a behaviour when two of its words come from this list.
 */
const BEHAVIOUR_WORDS = new Set([
  'agent',
  'approval',
  'artifact',
  'budget',
  'cache',
  'command',
  'configuration',
  'confirmation',
  'context',
  'error',
  'errors',
  'event',
  'events',
  'execution',
  'fallback',
  'flow',
  'handoff',
  'handler',
  'input',
  'latency',
  'lifecycle',
  'logging',
  'memory',
  'output',
  'parser',
  'parsing',
  'performance',
  'permission',
  'persistence',
  'plan',
  'planning',
  'policy',
  'prompt',
  'recovery',
  'request',
  'response',
  'retry',
  'retries',
  'routing',
  'runtime',
  'schema',
  'session',
  'startup',
  'state',
  'stream',
  'streaming',
  'timeout',
  'tracker',
  'validation',
  'workflow',
]);
const GENERIC_LEAD = /^(?:the|a|an|some|any|all|relevant|appropriate|affected|existing|changed)\b/i;

function isConcreteTarget(item: string): boolean {
  const t = item.trim();
  // A dotted symbol path (`session.persistence`, `User.save()`), with or without the call parentheses.
  if (TARGET_ANCHOR.test(t) || /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?$/.test(t)) return true;
  // `app/models.py (User.save)`, `src/a.ts:42`: any word that is a path makes the item concrete.
  const words = t.split(/\s+/);
  if (words.some(isPathWord)) return true;
  return (
    !GENERIC_LEAD.test(t) &&
    words.filter((w) => BEHAVIOUR_WORDS.has(w.toLowerCase().replace(/[^a-z]/g, ''))).length >= 2
  );
}

function isPlaceholderItem(item: string): boolean {
  const t = item.trim().toLowerCase();
  return PLACEHOLDER_WORDS.has(t) || t.includes('path/to/') || /^<[^>]+>$/.test(t);
}

function hasContent(section: PlanSection): boolean {
  return section.body.some((l) => {
    const t = l.text.replace(/<!--[\s\S]*?-->/g, '').trim();
    return t !== '' && !/^#{1,6}\s/.test(t);
  });
}

class Collector {
  readonly errors: PlanIssue[] = [];
  readonly warnings: PlanIssue[] = [];
  constructor(private readonly doc: PlanDoc) {}

  private locate(line: number | undefined): { step?: number; section?: string } {
    if (line === undefined) return {};
    const step = this.doc.steps.find((s) => s.lines.some((l) => l.line === line));
    let section: PlanSection | undefined;
    for (const s of this.doc.sections) if (s.line <= line) section = s;
    return {
      ...(step ? { step: step.number } : {}),
      ...(section ? { section: section.key ? SECTION_NAMES[section.key] : section.heading } : {}),
    };
  }

  error(code: PlanErrorCode, message: string, at: { line?: number; step?: number; section?: string } = {}): void {
    this.errors.push(this.issue(code, message, at));
  }

  warn(code: PlanWarningCode, message: string, at: { line?: number; step?: number; section?: string } = {}): void {
    this.warnings.push(this.issue(code, message, at));
  }

  private issue(
    code: PlanIssue['code'],
    message: string,
    at: { line?: number; step?: number; section?: string },
  ): PlanIssue {
    const located = this.locate(at.line);
    const step = at.step ?? located.step;
    const section = at.section ?? located.section;
    return {
      code,
      message,
      ...(step !== undefined ? { step } : {}),
      ...(section !== undefined ? { section } : {}),
      ...(at.line !== undefined ? { line: at.line } : {}),
    };
  }
}

/** A required section that is there but says nothing, in the order such errors are reported. */
const EMPTY_SECTION_RULES: ReadonlyArray<{
  key: SectionKey;
  code: PlanErrorCode;
  isEmpty: (section: PlanSection, doc: PlanDoc) => boolean;
  message: string;
}> = [
  {
    key: 'summary',
    code: 'empty_summary',
    isEmpty: (section) => !hasContent(section),
    message: 'The `Summary` section is empty: state the goal, the user impact and what changes in 1-3 lines.',
  },
  {
    key: 'steps',
    code: 'no_steps',
    isEmpty: (_section, doc) => doc.steps.length === 0,
    message:
      'The `Implementation Steps` section has no numbered steps: write `1. Action -> files: [path] -> verify: [command]`.',
  },
  {
    key: 'validation',
    code: 'no_validation_items',
    isEmpty: (section) => !hasContent(section),
    message: 'The `Test Cases and Validation` section lists nothing: add the build/lint, test and behaviour checks.',
  },
  {
    key: 'assumptions',
    code: 'no_assumptions',
    isEmpty: (section) => !hasContent(section),
    message:
      'The `Assumptions and Defaults` section is empty: list the defaults chosen and what is intentionally left unchanged.',
  },
];

function checkSections(doc: PlanDoc, out: Collector): void {
  for (const { key, alias } of REQUIRED) {
    const found = doc.sections.filter((s) => s.key === key);
    const name = SECTION_NAMES[key];
    if (found.length === 0) {
      const coded = doc.codedSections.find((c) => c.key === key);
      const where = coded
        ? ` It appears only inside the code block at lines ${coded.blockStart}-${coded.blockEnd}, which is shown as code, not as a plan: remove the code fence around the plan.`
        : '';
      out.error(
        'missing_section',
        `Required section \`## ${name}\`${alias ? ` (or \`## ${alias}\`)` : ''} is missing.${where}`,
        { section: name, ...(coded ? { line: coded.line } : {}) },
      );
    }
    for (const dup of found.slice(1)) {
      out.warn(
        'duplicate_section',
        `Section \`${name}\` appears more than once; only the first (line ${found[0]?.line}) is used.`,
        { line: dup.line, section: name },
      );
    }
  }
  for (const rule of EMPTY_SECTION_RULES) {
    const section = doc.sections.find((s) => s.key === rule.key);
    if (section && rule.isEmpty(section, doc))
      out.error(rule.code, rule.message, { line: section.line, section: SECTION_NAMES[rule.key] });
  }
  if (doc.title === null) out.warn('no_title', 'The plan has no `# Title` heading; its file gets a timestamped name.');
  if (!doc.sections.some((s) => s.key === 'scope')) {
    out.warn('no_scope', 'No `## Scope` section: new drafts should state what is in and out of scope.');
  }
}

function checkStep(step: PlanStep, out: Collector): void {
  const at = { line: step.line, step: step.number, section: 'Implementation Steps' };
  const declared = [...step.files, ...step.targets];
  const label = `Step ${step.number}`;
  if (declared.length === 0 && !TARGET_ANCHOR.test(step.action) && !step.action.split(/\s+/).some(isPathWord)) {
    out.error(
      'step_missing_target',
      `${label} names no file, symbol or other repository target: add \`-> files: [path/file.ext]\` or name the symbol in inline code.`,
      at,
    );
  }
  // A list that names one concrete path or symbol is enough; prose entries beside it are notes.
  if (!declared.some(isConcreteTarget)) {
    for (const item of declared) {
      if (isPlaceholderItem(item)) continue; // reported once as a placeholder
      out.error(
        'step_vague_target',
        `${label} target \`${item}\` is not a concrete path or symbol: name the file (e.g. \`src/module.ts\`) or \`file:symbol\`.`,
        at,
      );
    }
  }
  if (!step.hasVerifyField || step.verify.length === 0) {
    out.error(
      'step_missing_verify',
      `${label} has no ${step.hasVerifyField ? 'non-empty ' : ''}\`verify:\`: add \`-> verify: [command]\` with a concrete command or observable check.`,
      at,
    );
    return;
  }
  const markdownOnly =
    step.files.length > 0 && step.targets.length === 0 && step.files.every((f) => MARKDOWN_FILE.test(stripLocation(f)));
  for (const item of step.verify) {
    if (isPlaceholderItem(item)) continue;
    const verdict = judgeVerifyItem(item, { markdownOnly });
    if (!verdict.ok) out.error('step_vague_verify', `${label} verify item rejected: ${verdict.reason}.`, at);
    else if (verdict.chained)
      out.warn(
        'verify_chain',
        `${label} verify item \`${item}\` chains commands with \`;\`: list separate checks as comma-separated entries.`,
        at,
      );
  }
}

function checkNumbering(doc: PlanDoc, out: Collector): void {
  const numbered = doc.steps.filter((s) => s.kind === 'numbered');
  const broken = numbered.find((s, i) => s.number !== i + 1);
  if (broken)
    out.warn(
      'step_numbering',
      `Steps are not numbered 1..${numbered.length} in order (found ${broken.number} at position ${numbered.indexOf(broken) + 1}).`,
      { line: broken.line, step: broken.number },
    );
}

/** A source line with quoted strings and code spans blanked: the text the prose rules look at. */
interface ProseLine {
  line: number;
  text: string;
  prose: string;
}

function checkPlaceholders(lines: readonly ProseLine[], out: Collector): void {
  for (const src of lines) {
    const { prose } = src;
    const found = new Set<string>();
    if (/\bTODO:/.test(prose)) found.add('TODO:');
    if (/\bTBD\b/.test(prose)) found.add('TBD');

    for (const m of prose.includes('[') ? prose.matchAll(/\[([^\][]+)\](?!\()/g) : []) {
      const inner = (m[1] as string).trim();
      const lower = inner.toLowerCase();
      if (/^[ xX~/!]$/.test(inner)) continue; // checkbox
      const before = prose.slice(Math.max(0, m.index - 16), m.index).trimEnd();
      const isMetadataList = /(?:files?|symbols?|targets?|verify|verification)\s*:$/i.test(before);
      const itemsArePlaceholders = isMetadataList && inner.split(',').every((i) => isPlaceholderItem(i));
      const template =
        TEMPLATE_PHRASES.some((p) => lower.includes(p)) ||
        (!isMetadataList && PLACEHOLDER_WORDS.has(lower)) ||
        itemsArePlaceholders ||
        (!isMetadataList &&
          /^(?:[A-Z][a-z]+)(?: [A-Z][a-z]+){0,3}$/.test(inner) &&
          TEMPLATE_SLOT.test(prose.slice(0, m.index)));
      if (template) found.add(`[${inner}]`);
    }
    for (const m of prose.includes('<') ? prose.matchAll(/<([a-z][a-z _-]*)>/gi) : []) {
      if (PLACEHOLDER_WORDS.has((m[1] as string).toLowerCase())) found.add(m[0]);
    }
    if (/path\/to\//i.test(src.text) && ![...found].some((f) => /path\/to\//i.test(f))) found.add('path/to/…');
    for (const token of found) {
      out.error(
        'placeholder',
        `Placeholder \`${token}\` left in the plan at line ${src.line}: replace it with the real content.`,
        { line: src.line },
      );
    }
  }
}

function checkOpenDecisions(lines: readonly ProseLine[], out: Collector): void {
  for (const [i, src] of lines.entries()) {
    if (!/open|unresolved/i.test(src.prose)) continue;
    const m = OPEN_MARKER.exec(src.prose);
    if (!m) continue;
    const marker = (m[1] as string).replace(/\s+/g, ' ');
    const rest = (m[2] as string).trim();
    if (rest !== '') {
      if (!RESOLVED.test(rest) && !/no remaining/i.test(rest)) {
        out.error(
          'open_decision',
          `Unresolved \`${marker}\` at line ${src.line}: resolve it (ask the user) or state \`No remaining scope decisions\`.`,
          { line: src.line },
        );
      }
      continue;
    }
    // `Open questions:` or a heading: look at the list items that follow it.
    for (const next of lines.slice(i + 1)) {
      const item = LIST_ITEM.exec(next.text);
      if (!item) break;
      const itemText = (item[1] as string).trim();
      if (!RESOLVED.test(itemText) && !/no remaining/i.test(itemText)) {
        out.error(
          'open_decision',
          `Unresolved ${marker.toLowerCase()} at line ${next.line}: "${itemText}" — resolve it or state \`No remaining scope decisions\`.`,
          { line: next.line },
        );
      }
    }
  }
}

/** Before a `[`: an even number of backslashes (`\[a](b)` is the text `[a](b)`, not a link). */
const UNESCAPED = String.raw`(?<=(?:^|[^\\])(?:\\\\)*)`;
const INLINE_LINK = new RegExp(String.raw`!?${UNESCAPED}\[([^\]]*)\]\(\s*([^)\s]*)[^)]*\)`, 'g');

function checkLinks(lines: readonly ProseLine[], out: Collector): void {
  for (const src of lines) {
    const { prose } = src;
    if (!prose.includes('[') && !src.text.includes('://')) continue;
    let reported = false;
    for (const m of prose.matchAll(INLINE_LINK)) {
      out.error(
        'link_reference',
        `Markdown link \`${m[0]}\` at line ${src.line}: write file references as plain text or inline code (e.g. \`src/main.rs:42\`).`,
        { line: src.line },
      );
      reported = true;
    }
    const refDef = /^\s*\[[^\]]+\]:\s*\S+/.exec(prose);
    if (refDef) {
      out.error(
        'link_reference',
        `Link reference definition at line ${src.line}: write file references as plain text or inline code.`,
        { line: src.line },
      );
      reported = true;
    }
    if (reported) continue;
    const uri = /\b(?:vscode-file|vscode|file):\/\/[^\s)>\]`]*/.exec(src.text);
    if (uri) {
      out.error(
        'link_reference',
        `Editor/IDE URI \`${uri[0]}\` at line ${src.line}: plans are read in terminals, so reference files as plain text or inline code (e.g. \`src/main.rs:42\`).`,
        { line: src.line },
      );
    }
  }
}

function collectStepPlaceholders(doc: PlanDoc, out: Collector): void {
  // Placeholder items hidden in inline code inside metadata lists (`-> files: [`path/to/x`]`) are
  // invisible to the prose scan; report them here unless the prose scan saw the same line.
  const reportedLines = new Set(out.errors.filter((e) => e.code === 'placeholder').map((e) => e.line));
  for (const step of doc.steps) {
    if (reportedLines.has(step.line)) continue;
    const items = [...step.files, ...step.targets, ...step.verify].filter(isPlaceholderItem);
    for (const item of items) {
      out.error(
        'placeholder',
        `Step ${step.number} uses the placeholder \`${item}\`: replace it with the real ${step.verify.includes(item) ? 'check' : 'path'}.`,
        { line: step.line, step: step.number },
      );
    }
  }
}

export function validatePlan(input: string | PlanDoc): ValidationReport {
  const doc = typeof input === 'string' ? parsePlan(input) : input;
  const out = new Collector(doc);
  checkSections(doc, out);
  for (const step of doc.steps) checkStep(step, out);
  checkNumbering(doc, out);
  const lines: ProseLine[] = doc.proseLines
    .filter((l) => l.text.trim() !== '')
    .map((l) => ({ line: l.line, text: l.text, prose: blankQuoted(l.text) }));
  checkPlaceholders(lines, out);
  collectStepPlaceholders(doc, out);
  checkOpenDecisions(lines, out);
  checkLinks(lines, out);
  const tokens = estimateTokens(doc.text);
  if (tokens > PLAN_TOKEN_BUDGET) {
    out.warn(
      'over_token_budget',
      `The plan is about ${tokens} tokens, over the ~${PLAN_TOKEN_BUDGET}-token budget: condense it (prefer \`file:symbol\` references over prose) so it is not truncated.`,
    );
  }
  const byLine = (a: PlanIssue, b: PlanIssue) => (a.line ?? 0) - (b.line ?? 0);
  return {
    ready: out.errors.length === 0,
    errors: out.errors.sort(byLine),
    warnings: out.warnings.sort(byLine),
    tokens,
    doc,
  };
}
