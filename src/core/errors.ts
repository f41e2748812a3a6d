/** What to show of a thrown value: an Error's message, anything else as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** An Error's stack (its message when it has none), anything else as text: for internal-error logs. */
export function errorStack(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
