/**
 * The `vtplan.*` settings, defined once: their types, defaults, ranges and choices. The VS Code
 * extension validates what the user wrote against them (src/extension/settings.ts), the CLI starts
 * from their defaults (src/cli/session-setup.ts), and a unit test holds package.json's
 * `contributes.configuration` and README's Configure table to them.
 *
 * zod/mini: the extension reads settings at activation, where classic zod's setup costs start-up time.
 */
import * as z from 'zod/mini';
import type { TurnSettings } from '../session/turn-settings';
import { AGENT_MODES } from '../vocabulary';

const PROVIDER_KINDS = ['vscode-lm', 'openai', 'anthropic'] as const;
/** `vtplan.sandbox.network` and `vtplan run --network`. */
export const COMMAND_NETWORK = ['default', 'off', 'on'] as const;
export type CommandNetwork = (typeof COMMAND_NETWORK)[number];

/** Tokens a model answer may use; not a setting (providers differ, one safe value for all). */
const MAX_OUTPUT_TOKENS = 8_192;

type SettingSpec =
  | { type: 'string'; default: string; enum?: readonly string[] }
  | { type: 'integer'; default: number; minimum: number; maximum?: number }
  | { type: 'boolean'; default: boolean };

export const SETTINGS = {
  defaultAgent: { type: 'string', enum: AGENT_MODES, default: 'plan' },
  provider: { type: 'string', enum: PROVIDER_KINDS, default: 'vscode-lm' },
  model: { type: 'string', default: '' },
  baseUrl: { type: 'string', default: '' },
  maxConsecutiveBlockedToolCallsPerTurn: { type: 'integer', default: 8, minimum: 1, maximum: 100 },
  requirePlanConfirmation: { type: 'boolean', default: true },
  maxToolCallsPerTurn: { type: 'integer', default: 120, minimum: 0 },
  maxToolLoopsPerTurn: { type: 'integer', default: 60, minimum: 0 },
  maxToolCallsPerSession: { type: 'integer', default: 500, minimum: 0 },
  commandTimeoutSeconds: { type: 'integer', default: 60, minimum: 1, maximum: 3600 },
  'sandbox.network': { type: 'string', enum: COMMAND_NETWORK, default: 'default' },
} as const satisfies Record<string, SettingSpec>;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
/** The section in VS Code's settings: every key above is `vtplan.<key>`. */
export const SETTINGS_SECTION = 'vtplan';

type ValueOf<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'string' }
    ? string
    : S extends { type: 'integer' }
      ? number
      : boolean;
export type Settings = { -readonly [K in SettingKey]: ValueOf<(typeof SETTINGS)[K]> };

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.fromEntries(
  SETTING_KEYS.map((k) => [k, SETTINGS[k].default]),
) as Settings;

/** A value the user wrote that is not valid: the default is used instead, and the user is told so. */
export interface SettingProblem {
  /** The full id, e.g. `vtplan.maxToolCallsPerTurn`. */
  setting: string;
  value: unknown;
  /** What a valid value looks like, e.g. "a whole number of at least 0". */
  expected: string;
  used: Settings[SettingKey];
}

function schemaOf(spec: SettingSpec): z.ZodMiniType {
  switch (spec.type) {
    case 'string':
      return spec.enum ? z.enum(spec.enum as readonly [string, ...string[]]) : z.string();
    case 'integer':
      return spec.maximum === undefined
        ? z.int().check(z.minimum(spec.minimum))
        : z.int().check(z.minimum(spec.minimum), z.maximum(spec.maximum));
    case 'boolean':
      return z.boolean();
  }
}

function expectationOf(spec: SettingSpec): string {
  switch (spec.type) {
    case 'string':
      return spec.enum ? `one of ${spec.enum.map((v) => `"${v}"`).join(', ')}` : 'text';
    case 'integer':
      return spec.maximum === undefined
        ? `a whole number of at least ${spec.minimum}`
        : `a whole number from ${spec.minimum} to ${spec.maximum}`;
    case 'boolean':
      return 'true or false';
  }
}

const SCHEMAS = Object.fromEntries(SETTING_KEYS.map((k) => [k, schemaOf(SETTINGS[k])])) as Record<
  SettingKey,
  z.ZodMiniType
>;

/**
 * Validates what a host read for each setting (`undefined`: not set, the default applies). Every
 * invalid value is replaced by its default and named in `problems`; nothing is dropped silently.
 */
export function parseSettings(read: (key: SettingKey) => unknown): { settings: Settings; problems: SettingProblem[] } {
  const settings: Record<string, unknown> = {};
  const problems: SettingProblem[] = [];
  for (const key of SETTING_KEYS) {
    const spec = SETTINGS[key];
    const value = read(key);
    const parsed = value === undefined ? null : SCHEMAS[key].safeParse(value);
    if (parsed === null || parsed.success) {
      settings[key] = parsed?.success ? parsed.data : spec.default;
      continue;
    }
    settings[key] = spec.default;
    problems.push({ setting: `${SETTINGS_SECTION}.${key}`, value, expected: expectationOf(spec), used: spec.default });
  }
  return { settings: settings as Settings, problems };
}

/** One sentence for a notification or a log line: the setting, the bad value, the rule and the default in use. */
export function describeSettingProblem(problem: SettingProblem): string {
  return `The setting ${problem.setting} is ${JSON.stringify(problem.value) ?? String(problem.value)}, which is not valid: it must be ${problem.expected}. Using the default, ${JSON.stringify(problem.used)}.`;
}

/** What a turn reads from the settings when it starts (the session asks again for every new turn). */
export function turnSettingsOf(settings: Settings): TurnSettings {
  return {
    limits: {
      maxConsecutiveBlocked: settings.maxConsecutiveBlockedToolCallsPerTurn,
      toolCallsPerTurn: settings.maxToolCallsPerTurn,
      loopsPerTurn: settings.maxToolLoopsPerTurn,
      sessionToolCalls: settings.maxToolCallsPerSession,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
    },
    commands: { timeoutMs: settings.commandTimeoutSeconds * 1000, network: settings['sandbox.network'] },
    planConfirmation: settings.requirePlanConfirmation ? 'required' : 'skip',
  };
}
