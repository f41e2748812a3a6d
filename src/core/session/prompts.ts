/**
 * The agents' prompts are plain text files in `prompts/` (plan.md, build.md, synthesis.md,
 * condense.md, recovery.md), loaded by the host or CLI and handed to the session as strings.
 * `{{name}}` placeholders are filled per request.
 */
export interface PromptTemplates {
  plan: string;
  build: string;
  synthesis: string;
  condense: string;
  recovery: string;
}

export const PROMPT_NAMES = [
  'plan',
  'build',
  'synthesis',
  'condense',
  'recovery',
] as const satisfies readonly (keyof PromptTemplates)[];

export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole).trim();
}
