/**
 * Issue 15 item 3: the `vtplan.*` settings are defined once (src/core/config/settings.ts). Invalid
 * values are named, never replaced silently; package.json's contributed configuration and README's
 * Configure table say exactly what the definition says.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_SETTINGS,
  describeSettingProblem,
  parseSettings,
  SETTING_KEYS,
  SETTINGS,
  turnSettingsOf,
  type SettingKey,
} from '../../../src/core/config/settings';

const repo = join(__dirname, '..', '..', '..');

function parse(values: Partial<Record<SettingKey, unknown>>) {
  return parseSettings((key) => values[key]);
}

test('nothing set: every setting has its default and nothing is reported', () => {
  const { settings, problems } = parse({});
  assert.deepEqual(settings, DEFAULT_SETTINGS);
  assert.deepEqual(problems, []);
  assert.equal(settings.maxToolCallsPerTurn, 120);
  assert.equal(settings.requirePlanConfirmation, true);
});

test('valid values are taken as they are', () => {
  const { settings, problems } = parse({
    defaultAgent: 'auto',
    maxToolCallsPerTurn: 0,
    commandTimeoutSeconds: 3600,
    requirePlanConfirmation: false,
    'sandbox.network': 'off',
    model: 'qwen2.5-coder',
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(
    {
      agent: settings.defaultAgent,
      calls: settings.maxToolCallsPerTurn,
      timeout: settings.commandTimeoutSeconds,
      confirm: settings.requirePlanConfirmation,
      network: settings['sandbox.network'],
      model: settings.model,
    },
    { agent: 'auto', calls: 0, timeout: 3600, confirm: false, network: 'off', model: 'qwen2.5-coder' },
  );
});

test('an invalid value is reported by name with the value, the rule and the default used instead', () => {
  const { settings, problems } = parse({ maxToolCallsPerTurn: 'lots' });
  assert.equal(settings.maxToolCallsPerTurn, 120);
  assert.deepEqual(problems, [
    { setting: 'vtplan.maxToolCallsPerTurn', value: 'lots', expected: 'a whole number of at least 0', used: 120 },
  ]);
  assert.equal(
    describeSettingProblem(problems[0]!),
    'The setting vtplan.maxToolCallsPerTurn is "lots", which is not valid: it must be a whole number of at least 0. Using the default, 120.',
  );
});

test('ranges, choices and types: each kind of bad value is caught, each setting on its own', () => {
  const { settings, problems } = parse({
    maxConsecutiveBlockedToolCallsPerTurn: 101,
    commandTimeoutSeconds: 0,
    maxToolLoopsPerTurn: 1.5,
    defaultAgent: 'yolo',
    requirePlanConfirmation: 'false',
    model: null,
    'sandbox.network': 'on',
  });
  assert.deepEqual(
    problems.map((p) => [p.setting, p.expected]),
    [
      ['vtplan.defaultAgent', 'one of "plan", "build", "auto"'],
      ['vtplan.model', 'text'],
      ['vtplan.maxConsecutiveBlockedToolCallsPerTurn', 'a whole number from 1 to 100'],
      ['vtplan.requirePlanConfirmation', 'true or false'],
      ['vtplan.maxToolLoopsPerTurn', 'a whole number of at least 0'],
      ['vtplan.commandTimeoutSeconds', 'a whole number from 1 to 3600'],
    ],
  );
  assert.equal(settings['sandbox.network'], 'on', 'the valid one is kept');
  assert.equal(settings.requirePlanConfirmation, true);
  assert.equal(settings.model, '');
});

test('turn settings follow the settings: limits, command timeout in ms, network, and plan confirmation as the skip-confirmations policy', () => {
  const turn = turnSettingsOf({
    ...DEFAULT_SETTINGS,
    maxToolCallsPerSession: 7,
    commandTimeoutSeconds: 5,
    'sandbox.network': 'off',
    requirePlanConfirmation: false,
  });
  assert.deepEqual(turn, {
    limits: {
      maxConsecutiveBlocked: 8,
      toolCallsPerTurn: 120,
      loopsPerTurn: 60,
      sessionToolCalls: 7,
      maxOutputTokens: 8_192,
    },
    commands: { timeoutMs: 5_000, network: 'off' },
    planConfirmation: 'skip',
  });
  assert.equal(turnSettingsOf(DEFAULT_SETTINGS).planConfirmation, 'required');
});

interface ContributedSetting {
  type: string;
  default: unknown;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  enumDescriptions?: string[];
  description?: string;
  markdownDescription?: string;
}

test("package.json's contributes.configuration agrees with the definition: every property's type, default, range and choices, and nothing else", () => {
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, ContributedSetting> } };
  };
  const properties = pkg.contributes.configuration.properties;
  assert.deepEqual(Object.keys(properties).sort(), SETTING_KEYS.map((k) => `vtplan.${k}`).sort());
  for (const key of SETTING_KEYS) {
    const spec: { type: string; default: unknown; minimum?: number; maximum?: number; enum?: readonly string[] } =
      SETTINGS[key];
    const contributed = properties[`vtplan.${key}`]!;
    assert.deepEqual(
      {
        type: contributed.type,
        default: contributed.default,
        minimum: contributed.minimum,
        maximum: contributed.maximum,
        enum: contributed.enum,
      },
      {
        type: spec.type,
        default: spec.default,
        minimum: spec.minimum,
        maximum: spec.maximum,
        enum: spec.enum ? [...spec.enum] : undefined,
      },
      `vtplan.${key}`,
    );
    if (contributed.enum)
      assert.equal(
        contributed.enumDescriptions?.length,
        contributed.enum.length,
        `vtplan.${key}: one description per choice`,
      );
    // Issue 15 item 3: each setting says when a change takes effect.
    assert.match(
      contributed.markdownDescription ?? '',
      /Applies (from the next (turn|model request)|to the next new session)/,
      `vtplan.${key} says when it applies`,
    );
  }
});

test("README's Configure table lists every setting once, with its default", () => {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Configure'),
    readme.indexOf('\n## ', readme.indexOf('## Configure') + 1),
  );
  const rows = section.split('\n').filter((line) => line.startsWith('| `vtplan.'));
  const documented = rows.map((row) => {
    const [setting = '', shown = ''] = row
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    return { setting: setting.replace(/`/g, ''), shown: shown.replace(/`/g, '') };
  });
  assert.deepEqual(
    documented.map((d) => d.setting).sort(),
    SETTING_KEYS.map((k) => `vtplan.${k}`).sort(),
    'one row per setting, no other',
  );
  for (const { setting, shown } of documented) {
    const key = setting.slice('vtplan.'.length) as SettingKey;
    assert.equal(shown === 'empty' ? '' : shown, String(SETTINGS[key].default), `${setting}: README shows the default`);
  }
});
