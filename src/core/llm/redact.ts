/**
 * Keeps credentials out of every string that leaves the provider layer (failure messages, events,
 * the session log). Servers echo keys back ("Incorrect API key provided: sk-…"), so removing the
 * caller's own key is not enough: key-shaped tokens and bearer values are masked as well.
 */

const MASK = '[redacted]';

// Key-shaped tokens: OpenAI/OpenRouter/Anthropic style `sk-…`, and the value after `Bearer`.
const KEY_SHAPED = /\bsk-[A-Za-z0-9_*.-]{6,}/g;
const BEARER_VALUE = /\b(Bearer\s+)[A-Za-z0-9_*.~+/=-]{6,}/gi;

/**
 * Masks only the given values. For tool output: masking every key-shaped token there would
 * change file contents the model reads and then edits.
 */
export function maskSecretValues(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short "keys" (a placeholder such as `x`) would mangle ordinary text and protect nothing.
    if (secret.length >= 6) out = out.split(secret).join(MASK);
  }
  return out;
}

export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  return maskSecretValues(text, secrets).replace(KEY_SHAPED, MASK).replace(BEARER_VALUE, `$1${MASK}`);
}
