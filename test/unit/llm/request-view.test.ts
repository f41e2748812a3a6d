import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MISSING_RESULT, requestView, type Message } from '../../../src/core/llm';

const call = (id: string) => ({ id, name: 'read_file', arguments: '{}' });
const result = (id: string, content = `result ${id}`): Message => ({
  role: 'tool',
  toolCallId: id,
  name: 'read_file',
  content,
});

test('EXEC-2: results follow their batch in call order; a directive inside the batch moves after it', () => {
  const history: Message[] = [
    { role: 'user', content: 'plan' },
    { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] },
    result('b'),
    { role: 'user', content: 'directive' },
    result('a'),
  ];
  const snapshot = structuredClone(history);
  assert.deepEqual(requestView(history), [
    history[0],
    history[1],
    result('a'),
    result('b'),
    { role: 'user', content: 'directive' },
  ]);
  assert.deepEqual(history, snapshot, 'history is not rewritten');
});

test('EXEC-2: orphaned and duplicate results are dropped, missing ones get an error stand-in', () => {
  const history: Message[] = [
    result('stray'),
    { role: 'user', content: 'plan' },
    { role: 'assistant', content: 'reading', toolCalls: [call('a'), call('b')] },
    result('a', 'first'),
    result('a', 'second'),
    result('zzz'),
    { role: 'assistant', content: 'next' },
    result('late'),
  ];
  assert.deepEqual(requestView(history), [
    { role: 'user', content: 'plan' },
    history[2],
    result('a', 'first'),
    { role: 'tool', toolCallId: 'b', name: 'read_file', content: MISSING_RESULT, isError: true },
    { role: 'assistant', content: 'next' },
  ]);
});

const arbMessage: fc.Arbitrary<Message> = fc.oneof(
  fc.constant<Message>({ role: 'user', content: 'u' }),
  fc
    .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 3 })
    .map((ids): Message => ({ role: 'assistant', content: 'x', toolCalls: ids.map(call) })),
  fc.constantFrom('a', 'b', 'c', 'd', 'e').map((id) => result(id)),
);

test('EXEC-2: any history becomes a view where every call has exactly one result right after its batch', () => {
  fc.assert(
    fc.property(fc.array(arbMessage, { maxLength: 25 }), (history) => {
      const view = requestView(history);
      for (let i = 0; i < view.length; i++) {
        const m = view[i] as Message;
        if (m.role === 'tool') {
          // a result is only ever preceded by results of the same batch or by its assistant message
          let j = i - 1;
          while (j >= 0 && (view[j] as Message).role === 'tool') j--;
          const owner = view[j];
          if (!owner || owner.role !== 'assistant' || !owner.toolCalls?.some((c) => c.id === m.toolCallId))
            return false;
        }
        if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
          const following = view.slice(i + 1, i + 1 + m.toolCalls.length);
          const ids = following.map((f) => (f.role === 'tool' ? f.toolCallId : null));
          if (JSON.stringify(ids) !== JSON.stringify(m.toolCalls.map((c) => c.id))) return false;
        }
      }
      return view.filter((m) => m.role !== 'tool').length === history.filter((m) => m.role !== 'tool').length;
    }),
  );
});
