import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROMPT_NAMES, type PromptTemplates } from '../core/session/prompts';

/** The agent prompts that ship with VT Code Planning are not where they belong: a broken install. */
export class PromptsMissingError extends Error {
  constructor(readonly where: string) {
    super(`The agent prompts are missing: ${where}`);
    this.name = 'PromptsMissingError';
  }
}

/** `prompts/` beside the bundle (dist/../prompts) or beside the sources (src/node/../../prompts). */
function promptsDir(): string {
  for (const candidate of [join(__dirname, '..', 'prompts'), join(__dirname, '..', '..', 'prompts')]) {
    if (existsSync(join(candidate, 'plan.md'))) return candidate;
  }
  throw new PromptsMissingError(`no prompts/ folder with plan.md next to ${__dirname}`);
}

export function loadPrompts(dir = promptsDir()): PromptTemplates {
  const entries = PROMPT_NAMES.map((name) => {
    const file = join(dir, `${name}.md`);
    if (!existsSync(file)) throw new PromptsMissingError(`${file} does not exist`);
    return [name, readFileSync(file, 'utf8')] as const;
  });
  return Object.fromEntries(entries) as unknown as PromptTemplates;
}
