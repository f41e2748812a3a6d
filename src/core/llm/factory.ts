import { z } from 'zod';
import type { Clock } from '../ports';
import { createAnthropicProvider } from './anthropic';
import { createOpenAIProvider } from './openai';
import type { ModelProvider } from './provider';

const baseUrl = z.url({ protocol: /^https?$/ }).optional();

/** Provider settings as the extension settings and CLI flags give them (keys come separately, ADD-1). */
export const ProviderConfigSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('openai'),
    model: z.string().min(1),
    baseUrl,
    maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
    timeoutMs: z.int().positive().optional(),
  }),
  z.object({
    kind: z.literal('anthropic'),
    model: z.string().min(1),
    baseUrl,
    thinkingBudgetTokens: z.int().min(1024).optional(),
    timeoutMs: z.int().positive().optional(),
  }),
]);

export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

export class MissingApiKeyError extends Error {
  constructor(readonly provider: string) {
    super(`${provider} needs an API key and none was given`);
    this.name = 'MissingApiKeyError';
  }
}

/** The key is the caller's (SecretStorage, or an environment variable named by a CLI flag); it is never logged. */
export function createProvider(config: ProviderConfig, apiKey: string | undefined, clock?: Clock): ModelProvider {
  const common = {
    model: config.model,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
    ...(clock ? { clock } : {}),
  };
  if (config.kind === 'openai') {
    return createOpenAIProvider({
      ...common,
      ...(apiKey ? { apiKey } : {}),
      ...(config.maxTokensField ? { maxTokensField: config.maxTokensField } : {}),
    });
  }
  if (!apiKey) throw new MissingApiKeyError('anthropic');
  return createAnthropicProvider({
    ...common,
    apiKey,
    ...(config.thinkingBudgetTokens !== undefined ? { thinkingBudgetTokens: config.thinkingBudgetTokens } : {}),
  });
}
