/**
 * Plan section names (PLAN-2): the canonical names, their aliases, and how a heading or a label
 * line is matched against them (case-insensitive, emphasis, numbering and a trailing colon
 * ignored, `&` read as `and`).
 */
export type SectionKey = 'summary' | 'steps' | 'validation' | 'assumptions' | 'scope' | 'outcomes' | 'dependencies';

/** Canonical names, as the validator reports them and canonical plan files write them. */
export const SECTION_NAMES: Readonly<Record<SectionKey, string>> = {
  summary: 'Summary',
  steps: 'Implementation Steps',
  validation: 'Test Cases and Validation',
  assumptions: 'Assumptions and Defaults',
  scope: 'Scope',
  outcomes: 'Expected Outcomes',
  dependencies: 'Dependencies and Prerequisites',
};

const SECTION_ALIASES: ReadonlyMap<string, SectionKey> = new Map([
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
]);

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

export function sectionKeyOf(heading: string): SectionKey | null {
  return SECTION_ALIASES.get(normalizeHeading(heading)) ?? null;
}

/** Bullet glyphs that terminal renderers print instead of markdown list markers. */
const PLAIN_BULLET = /^[•·▪◦‣]\s*/;
/**
 * The emphasis a label line opens with is the label's, wherever it closes: after the name, after
 * the colon or at the end of the line (`**Summary**: x`, `**Summary:** x`, `**Summary: x**`).
 */
const LABEL_EMPHASIS = /^(\*\*|__)((?:(?!\1).)+)\1/s;
/** `Name: value`; the value is the section's first line of content and keeps its own emphasis (`Summary: **x**`). */
const LABEL_WITH_VALUE = /^([A-Za-z][A-Za-z &]*?)\s*:\s*(\S.*)$/s;

export type SectionLabel =
  /** A line that is only a section name: `**Test Cases and Validation**`, `Summary`, `• Steps:`. */
  | { kind: 'standalone'; key: SectionKey; name: string; bold: boolean }
  /** A section name followed by its first content: `Summary: Add retries to the client.` */
  | { kind: 'value'; key: SectionKey; name: string; value: string };

/**
 * A paragraph line read as a section label, the way VT Code reads bold section lines and label
 * lines; `null` for any other line. Blockquote markers in front of the line are ignored.
 */
export function sectionLabelOf(line: string): SectionLabel | null {
  const text = line.trim().replace(/^(?:>\s*)+/, '');
  if (text === '') return null;
  const unbulleted = text.replace(PLAIN_BULLET, '');
  const standalone = unbulleted.length <= 60 ? sectionKeyOf(unbulleted) : null;
  if (standalone !== null) {
    return {
      kind: 'standalone',
      key: standalone,
      name: unbulleted
        .replace(/\*\*|__/g, '')
        .replace(/[:.]\s*$/, '')
        .trim(),
      bold: /\*\*|__/.test(unbulleted),
    };
  }
  const m = LABEL_WITH_VALUE.exec(text.replace(LABEL_EMPHASIS, '$2'));
  if (!m) return null;
  const key = sectionKeyOf(m[1] as string);
  if (key === null) return null;
  return { kind: 'value', key, name: m[1] as string, value: (m[2] as string).trim() };
}
