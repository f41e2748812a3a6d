import * as vscode from 'vscode';
// zod/mini: this runs at activation, where the classic API's module setup would cost startup time.
import * as z from 'zod/mini';
import { AGENT_MODES } from '../core/vocabulary';

/** The `vtplan.*` settings, validated: a hand-edited settings.json cannot smuggle in bad values. */
const SettingsSchema = z.object({
  defaultAgent: z.catch(z.enum(AGENT_MODES), 'plan'),
  provider: z.catch(z.enum(['vscode-lm', 'openai', 'anthropic']), 'vscode-lm'),
  model: z.catch(z.string(), ''),
  baseUrl: z.catch(z.string(), ''),
  maxConsecutiveBlockedToolCallsPerTurn: z.catch(z.int().check(z.minimum(1), z.maximum(100)), 8),
  requirePlanConfirmation: z.catch(z.boolean(), true),
  maxToolCallsPerTurn: z.catch(z.int().check(z.minimum(0)), 120),
  maxToolLoopsPerTurn: z.catch(z.int().check(z.minimum(0)), 60),
  maxToolCallsPerSession: z.catch(z.int().check(z.minimum(0)), 500),
  commandTimeoutSeconds: z.catch(z.int().check(z.minimum(1), z.maximum(3600)), 60),
  'sandbox.network': z.catch(z.enum(['default', 'off', 'on']), 'default'),
});

export type Settings = z.infer<typeof SettingsSchema>;

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('vtplan');
  const raw = Object.fromEntries(Object.keys(SettingsSchema.shape).map((k) => [k, c.get(k)]));
  return SettingsSchema.parse(raw);
}
