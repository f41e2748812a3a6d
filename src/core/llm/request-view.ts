import type { Message, ToolCall } from './provider';

/** Content of the stand-in result for a call whose result is missing from history. */
export const MISSING_RESULT = 'No result was recorded for this tool call; treat it as not executed.';

/**
 * The request-only view of a history (EXEC-2): every assistant tool-call batch is followed by
 * exactly one result per call, in call order, and user directives that landed inside a batch move
 * after it. Orphaned results (no matching call in the batch) and duplicates are dropped; missing
 * results get an error stand-in. Both wire formats reject anything else. History is not modified.
 */
export function requestView(history: readonly Message[]): Message[] {
  const out: Message[] = [];
  let i = 0;
  while (i < history.length) {
    const message = history[i] as Message;
    i++;
    if (message.role === 'tool') continue; // orphan: no batch is open here
    out.push(message);
    const calls: ToolCall[] = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
    if (calls.length === 0) continue;

    // The batch runs until the next assistant message.
    const results = new Map<string, Extract<Message, { role: 'tool' }>>();
    const directives: Message[] = [];
    while (i < history.length && (history[i] as Message).role !== 'assistant') {
      const next = history[i] as Message;
      i++;
      if (next.role === 'tool') {
        const belongs = calls.some((c) => c.id === next.toolCallId);
        if (belongs && !results.has(next.toolCallId)) results.set(next.toolCallId, next);
      } else {
        directives.push(next);
      }
    }
    for (const call of calls) {
      out.push(
        results.get(call.id) ?? {
          role: 'tool',
          toolCallId: call.id,
          name: call.name,
          content: MISSING_RESULT,
          isError: true,
        },
      );
    }
    out.push(...directives);
  }
  return out;
}
