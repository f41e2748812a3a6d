import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ThinkTagSplitter } from '../../../src/core/llm/think-tags';

function run(parts: string[]): { text: string; reasoning: string } {
  const splitter = new ThinkTagSplitter();
  const out = { text: '', reasoning: '' };
  for (const piece of [...parts.flatMap((p) => splitter.push(p)), ...splitter.end()]) {
    out[piece.kind === 'text' ? 'text' : 'reasoning'] += piece.text;
  }
  return out;
}

function splitAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let last = 0;
  for (const p of points) {
    parts.push(text.slice(last, p));
    last = p;
  }
  parts.push(text.slice(last));
  return parts;
}

test('SYN-2: a leading <think> block is reasoning, the rest is text, however the deltas are split', () => {
  const message = '  <think>weigh options</think>\n\n<proposed_plan>\n# Plan\n</proposed_plan>';
  fc.assert(
    fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
      const out = run(splitAt(message, cuts));
      return out.reasoning === 'weigh options' && out.text === '<proposed_plan>\n# Plan\n</proposed_plan>';
    }),
  );
});

test('SYN-2: <think> later in the message is ordinary text; an unterminated block stays reasoning', () => {
  assert.deepEqual(run(['Use the ', '<think>', ' tag']), { text: 'Use the <think> tag', reasoning: '' });
  assert.deepEqual(run(['<think>never ', 'closed']), { text: '', reasoning: 'never closed' });
  assert.deepEqual(run(['<thi']), { text: '<thi', reasoning: '' });
});

test('SYN-2: text without tags passes through unchanged for any split', () => {
  fc.assert(
    fc.property(fc.string(), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
      fc.pre(!text.trimStart().startsWith('<think>'));
      return run(splitAt(text, cuts)).text === text;
    }),
  );
});
