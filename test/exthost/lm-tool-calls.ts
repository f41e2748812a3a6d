/**
 * Calling the language model tools as another agent does (`vscode.lm.invokeTool`), for the
 * lm-tools suites of each window.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export const READY_PLAN = `# Add a whisper flag to the greeter

## Summary
Let \`greet\` in src/greet.js lower-case its greeting when asked.

## Implementation Steps
1. Add a \`whisper\` parameter to \`greet\` in src/greet.js -> files: [src/greet.js] -> verify: [node --test test/]
2. Cover the whisper flag in test/greet.test.js -> files: [test/greet.test.js] -> verify: [node --test test/]

## Test Cases and Validation
- \`node --test test/\` passes.

## Assumptions and Defaults
- The greeting stays unchanged without the flag.`;

/** No steps and no validation section: the validator names both. */
export const NOT_READY_PLAN = `# Whisper somehow

## Summary
Make the greeter quieter.`;

export /** Where savePlan puts READY_PLAN, relative to the folder. */
const SAVED_PLAN = '.vtcode/plans/add-a-whisper-flag-to-the-greeter.md';

export function text(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

export function invoke(name: string, input: object): Thenable<vscode.LanguageModelToolResult> {
  return vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
}

export async function rejection(work: Thenable<unknown>): Promise<string> {
  try {
    await work;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  assert.fail('the call was expected to be refused');
}

type Show = (message: string, ...items: string[]) => Thenable<string | undefined>;

/**
 * Records the information messages the extension shows (the same `vscode.window` the extension
 * uses). `answers`: the buttons the user "clicks", one a message; after them the real
 * notification shows.
 */
export function recordNotifications(...answers: string[]): { shown: string[]; restore: () => void } {
  const window = vscode.window as unknown as { showInformationMessage: Show };
  const original = window.showInformationMessage;
  const shown: string[] = [];
  const clicks = [...answers];
  window.showInformationMessage = (message, ...items) => {
    shown.push(message);
    const answer = clicks.shift();
    return answer === undefined ? original(message, ...items) : Promise.resolve(answer);
  };
  return { shown, restore: () => (window.showInformationMessage = original) };
}
