/**
 * The `vscode-lm` provider (ADD-1): any chat model VS Code already offers (Copilot, or a model
 * another extension registers) behind the same `ModelProvider` stream as the HTTP backends.
 * Written against the API of VS Code 1.96, the engines floor: no system role, no thinking parts,
 * no `isError` on tool results, no output-token limit (`maxOutputTokens` is the model's business
 * there), no way to forbid tool calls (toolChoice `none`).
 */
import * as vscode from 'vscode';
import { describeCause, makeFailure, protocolFailure } from '../core/llm/failure';
import {
  wireParameters,
  type ModelProvider,
  type ModelRequest,
  type ProviderFailure,
  type StreamChunk,
  type ToolCall,
  type Usage,
} from '../core/llm/provider';
import { requestView } from '../core/llm/request-view';
import { splitChunks, ThinkTagSplitter } from '../core/llm/think-tags';

const VSCODE_LM_PROVIDER_ID = 'vscode-lm';

/** What a model picker shows; `id` is what `vtplan.model` should hold to pin the model. */
export interface ChatModelInfo {
  id: string;
  name: string;
  vendor: string;
  family: string;
  version: string;
  maxInputTokens: number;
}

export type ChatModelPick =
  | { status: 'picked'; model: vscode.LanguageModelChat; matchedBy: 'id' | 'family' | 'name' | 'first' }
  /** `vtplan.model` names a model VS Code does not offer; silently using another would surprise. */
  | { status: 'not_found'; preference: string; available: ChatModelInfo[] }
  | { status: 'no_models' };

export interface VscodeLmProviderOptions {
  /** Shown by VS Code in the consent dialog the first time the extension uses the model. */
  justification?: string;
  /** How long to wait after the response for the token counts behind the `usage` chunk. */
  usageTimeoutMs?: number;
}

const DEFAULT_JUSTIFICATION = 'VT Code Planning uses the chat model to research your workspace and write plans.';
const DEFAULT_USAGE_TIMEOUT_MS = 2_000;

function infoOf(model: vscode.LanguageModelChat): ChatModelInfo {
  return {
    id: model.id,
    name: model.name,
    vendor: model.vendor,
    family: model.family,
    version: model.version,
    maxInputTokens: model.maxInputTokens,
  };
}

export async function listChatModels(selector?: vscode.LanguageModelChatSelector): Promise<ChatModelInfo[]> {
  return (await vscode.lm.selectChatModels(selector)).map(infoOf);
}

/**
 * The model `preference` (the `vtplan.model` setting) names, matched against id, then family, then
 * name (case-insensitive); an empty preference takes the first model VS Code offers.
 */
export async function pickChatModel(
  preference: string,
  selector?: vscode.LanguageModelChatSelector,
): Promise<ChatModelPick> {
  const models = await vscode.lm.selectChatModels(selector);
  const first = models[0];
  if (!first) return { status: 'no_models' };
  const wanted = preference.trim().toLowerCase();
  if (wanted === '') return { status: 'picked', model: first, matchedBy: 'first' };
  for (const key of ['id', 'family', 'name'] as const) {
    const model = models.find((m) => m[key].toLowerCase() === wanted);
    if (model) return { status: 'picked', model, matchedBy: key };
  }
  return { status: 'not_found', preference: preference.trim(), available: models.map(infoOf) };
}

/**
 * Arguments are JSON text in our history but an object on the LM API. Only a history written by
 * another provider can hold text that is not a JSON object; the model then sees `{}` in this
 * request view, and the tool result that followed already told it the call failed.
 */
function inputOf(call: ToolCall): object {
  try {
    const value: unknown = JSON.parse(call.arguments);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function toLmMessages(request: ModelRequest): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  if (request.system !== '')
    out.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelTextPart(request.system)]));
  // Results of one batch travel together in one user message, as the assistant's calls did.
  let results: vscode.LanguageModelToolResultPart[] = [];
  const flushResults = (): void => {
    if (results.length > 0) out.push(vscode.LanguageModelChatMessage.User(results));
    results = [];
  };
  for (const m of requestView(request.messages)) {
    if (m.role === 'tool') {
      results.push(new vscode.LanguageModelToolResultPart(m.toolCallId, [new vscode.LanguageModelTextPart(m.content)]));
      continue;
    }
    flushResults();
    if (m.role === 'user') {
      out.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelTextPart(m.content)]));
      continue;
    }
    const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
    if (m.content !== '' || !m.toolCalls?.length) parts.push(new vscode.LanguageModelTextPart(m.content));
    for (const call of m.toolCalls ?? [])
      parts.push(new vscode.LanguageModelToolCallPart(call.id, call.name, inputOf(call)));
    out.push(vscode.LanguageModelChatMessage.Assistant(parts));
  }
  flushResults();
  return out;
}

function toLmOptions(request: ModelRequest, justification: string): vscode.LanguageModelChatRequestOptions {
  const options: vscode.LanguageModelChatRequestOptions = { justification };
  if (request.tools.length === 0) return options;
  options.tools = request.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: wireParameters(t.parameters),
  }));
  // `none` cannot be expressed: the tools stay (history may hold calls) and a call is a violation
  // the runloop handles like any other.
  options.toolMode =
    request.toolChoice === 'required'
      ? vscode.LanguageModelChatToolMode.Required
      : vscode.LanguageModelChatToolMode.Auto;
  return options;
}

const TRANSIENT =
  /timed? ?out|ECONNRESET|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|socket hang up|fetch failed|network|rate.?limit|too many requests|overload|unavailable|temporar|\b(408|429|5\d\d)\b/i;

/** Refusals by VS Code itself (consent, quota or policy, a model that is gone): no retry changes them. */
const CODE_HINTS: Record<string, string> = {
  NoPermissions:
    'VS Code has not allowed VT Code Planning to use this model (see Accounts > Manage Language Model Access)',
  Blocked: 'the model refused the request (quota or policy)',
  NotFound: 'the model is no longer available; choose another with "VT Code: Select Model"',
};

/**
 * VS Code's own refusals (NoPermissions, Blocked, NotFound) are final. Anything else comes from the
 * model's extension or its backend (a `LanguageModelError` with a vendor code, or a plain error)
 * and is retried only when it reads as transient.
 */
function failureFromLmError(err: unknown): ProviderFailure {
  const base = { provider: VSCODE_LM_PROVIDER_ID, secrets: [] as string[] };
  if (err instanceof vscode.LanguageModelError) {
    const hint = CODE_HINTS[err.code];
    const detail = err.message.trim();
    const message = `${err.code || 'LanguageModelError'}: ${[hint, detail].filter(Boolean).join(': ')}`;
    const transient = hint === undefined && TRANSIENT.test(message);
    return makeFailure({ ...base, kind: transient ? 'transport' : 'http', retryable: transient, message });
  }
  const message = describeCause(err);
  const transient = TRANSIENT.test(message);
  return makeFailure({ ...base, kind: transient ? 'transport' : 'http', retryable: transient, message });
}

/** Sum of token counts, `undefined` when counting fails (`countTokens` may also throw synchronously). */
async function tokenSum(count: () => PromiseLike<number[]>): Promise<number | undefined> {
  try {
    return (await count()).reduce((x, y) => x + y, 0);
  } catch {
    return undefined;
  }
}

/** Usage is a nicety: a count that is not ready within `timeoutMs` is left out rather than waited for. */
async function within(count: Promise<number | undefined>, timeoutMs: number): Promise<number | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, undefined);
  });
  try {
    return await Promise.race([count, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The stream's parts until it ends or `signal` aborts (EXEC-5). Ending on abort must not wait for
 * the model to honour the cancellation: VS Code 1.96 does not pass it on to another extension's
 * model, whose stream then runs to its end.
 */
async function* untilAborted<T>(stream: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  const iterator = stream[Symbol.asyncIterator]();
  let onAbort = (): void => {};
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    while (!signal?.aborted) {
      const pending = iterator.next();
      const next = await Promise.race([pending, aborted]);
      if (next === 'aborted') {
        // The abandoned read may still fail; the turn is already cancelled, so that is no news.
        pending.catch(() => undefined);
        return;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

export function createVscodeLmProvider(
  chat: vscode.LanguageModelChat,
  options: VscodeLmProviderOptions = {},
): ModelProvider {
  const justification = options.justification ?? DEFAULT_JUSTIFICATION;
  const usageTimeoutMs = options.usageTimeoutMs ?? DEFAULT_USAGE_TIMEOUT_MS;

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    const signal = request.signal;
    if (signal?.aborted) {
      yield { type: 'cancelled' };
      return;
    }
    const source = new vscode.CancellationTokenSource();
    const cancel = (): void => source.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    const splitter = new ThinkTagSplitter();
    let output = '';
    let toolCalls = 0;
    try {
      const messages = toLmMessages(request);
      // Counted alongside the response so that usage costs no extra wait in the common case. The
      // API counts messages only: tool schemas are not in `inputTokens`.
      const inputTokens = tokenSum(() => Promise.all(messages.map((m) => chat.countTokens(m, source.token))));
      const response = await chat.sendRequest(messages, toLmOptions(request, justification), source.token);
      for await (const part of untilAborted(response.stream, signal)) {
        if (part instanceof vscode.LanguageModelTextPart) {
          output += part.value;
          yield* splitChunks(splitter.push(part.value));
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          if (part.name === '') {
            yield {
              type: 'error',
              failure: protocolFailure(
                VSCODE_LM_PROVIDER_ID,
                [],
                false,
                `tool call ${part.callId || '#' + String(toolCalls)} arrived without a name`,
              ),
            };
            return;
          }
          const args = JSON.stringify(part.input ?? {});
          output += args;
          toolCalls++;
          // Results attach to the id (EXEC-2), so a model that sends none still gets a unique one.
          const id = part.callId || `call_${globalThis.crypto.randomUUID()}`;
          yield { type: 'tool_call', call: { id, name: part.name, arguments: args } };
        }
        // Other parts (thinking, data) in newer VS Code never become answer text (SYN-2).
      }
      if (signal?.aborted) {
        yield { type: 'cancelled' };
        return;
      }
      yield* splitChunks(splitter.end());
      const input = await within(inputTokens, usageTimeoutMs);
      const outputTokens =
        output === ''
          ? 0
          : await within(
              tokenSum(async () => [await chat.countTokens(output, source.token)]),
              usageTimeoutMs,
            );
      if (input !== undefined && outputTokens !== undefined) {
        const usage: Usage = { inputTokens: input, outputTokens };
        yield { type: 'usage', usage };
      }
      yield { type: 'finish', reason: toolCalls > 0 ? 'tool_calls' : 'stop' };
    } catch (err) {
      // State-based (EXEC-5): only our own signal makes a cancellation, whatever the error says.
      yield signal?.aborted ? { type: 'cancelled' } : { type: 'error', failure: failureFromLmError(err) };
    } finally {
      signal?.removeEventListener('abort', cancel);
      // Also stops the model when the consumer leaves the stream early.
      source.cancel();
      source.dispose();
    }
  }

  return { id: VSCODE_LM_PROVIDER_ID, model: chat.id, stream };
}
