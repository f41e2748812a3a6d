/**
 * Build-mode command confirmations that wait for the user (EXEC-5). Whatever asks (a card in the
 * chat, a modal dialog), the wait ends as "don't run" the moment the turn's signal aborts or the
 * session closes: a modal dialog cannot be taken down from the extension, so the question is
 * settled here and an answer given later in the dialog no longer counts. Pure: no `vscode` import.
 */
export class PendingConfirmations {
  private readonly pending = new Map<string, (run: boolean) => void>();
  private seq = 0;

  /** A fresh id for the next question. */
  nextId(): string {
    return `confirm-${++this.seq}`;
  }

  /**
   * Waits for `answer(id, …)`. Resolves `false` at once when `signal` aborts or `declineAll()` runs;
   * `settled` runs exactly once, with the outcome, before the promise resolves.
   */
  wait(id: string, signal: AbortSignal, settled: (run: boolean) => void = () => undefined): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const finish = (run: boolean): void => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        signal.removeEventListener('abort', onAbort);
        settled(run);
        resolve(run);
      };
      const onAbort = (): void => finish(false);
      this.pending.set(id, finish);
      if (signal.aborted) finish(false);
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Gives the user's answer; false when the question is no longer waiting (answered, stopped). */
  answer(id: string, run: boolean): boolean {
    const finish = this.pending.get(id);
    if (!finish) return false;
    finish(run);
    return true;
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  /** How many questions wait for an answer. */
  get size(): number {
    return this.pending.size;
  }

  /** Stop, New Session, closing: every waiting question is answered "don't run". */
  declineAll(): void {
    for (const finish of [...this.pending.values()]) finish(false);
  }
}
