import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROMPT_NAMES, type PromptTemplates } from '../core/session/prompts';

/** `prompts/` beside the bundle (dist/../prompts) or beside the sources (src/node/../../prompts). */
function promptsDir(): string {
  for (const candidate of [join(__dirname, '..', 'prompts'), join(__dirname, '..', '..', 'prompts')]) {
    if (existsSync(join(candidate, 'plan.md'))) return candidate;
  }
  throw new Error(`The agent prompts were not found next to ${__dirname} (expected a prompts/ folder with plan.md).`);
}

export function loadPrompts(dir = promptsDir()): PromptTemplates {
  const entries = PROMPT_NAMES.map((name) => [name, readFileSync(join(dir, `${name}.md`), 'utf8')] as const);
  return Object.fromEntries(entries) as unknown as PromptTemplates;
}
