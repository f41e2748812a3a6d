import * as vscode from 'vscode';
import { z } from 'zod';

/** The `vtplan.*` settings, validated: a hand-edited settings.json cannot smuggle in bad values. */
const SettingsSchema = z.object({
  defaultAgent: z.enum(['plan', 'build', 'auto']).catch('plan'),
  provider: z.enum(['vscode-lm', 'openai', 'anthropic']).catch('vscode-lm'),
  model: z.string().catch(''),
  baseUrl: z.string().catch(''),
  maxConsecutiveBlockedToolCallsPerTurn: z.int().min(1).max(100).catch(8),
  requirePlanConfirmation: z.boolean().catch(true),
  maxToolCallsPerTurn: z.int().min(0).catch(120),
  maxToolLoopsPerTurn: z.int().min(0).catch(60),
  commandTimeoutSeconds: z.int().min(1).max(3600).catch(60),
});

export type Settings = z.infer<typeof SettingsSchema>;

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('vtplan');
  const raw = Object.fromEntries(Object.keys(SettingsSchema.shape).map((k) => [k, c.get(k)]));
  return SettingsSchema.parse(raw);
}
