/**
 * Which folders each command of an `&&` / `||` / `;` / `|` list may run in, for the workspace
 * path check (paths.ts). A `cd` counts only where the shell guarantees it took effect:
 *  - after `cd DIR &&` the next command runs in DIR (the `&&` runs it only if `cd` succeeded);
 *  - after `cd DIR;` or `cd DIR ||` the `cd` may have failed, so both folders remain possible;
 *  - a `cd` in a pipeline runs in a subshell (it does not last), and a `cd` on a line with
 *    parentheses may sit in a subshell the scan does not delimit: both keep the old folders too.
 * Relative paths must stay inside the workspace from every possible folder. Keeping a folder that
 * is really an ancestor of the actual one only makes the check stricter, never looser.
 */
import type { Joiner } from './shell-scan';

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

export class CwdFlow {
  /** Folders after the last finished pipeline, if its status was success / failure. */
  private ok: string[];
  private fail: string[] = [];
  private input: string[];
  private joiner: Joiner | null = null;
  private length = 0;
  private effect: string[] | null = null;
  private readonly seen = new Set<string>();

  /** `loose`: the line has parentheses, so no `cd` is known to outlive its segment. */
  constructor(root: string, private readonly loose: boolean) {
    this.ok = [root];
    this.input = [root];
    this.seen.add(root);
  }

  /** Folders the next segment (joined by `joiner`) may run in. */
  enter(joiner: Joiner | null): readonly string[] {
    if (joiner === '|') {
      this.length += 1;
      return this.input;
    }
    if (this.length > 0) this.close();
    this.input = joiner === '&&' ? this.ok : joiner === '||' ? this.fail : union(this.ok, this.fail);
    this.joiner = joiner;
    this.length = 1;
    this.effect = null;
    return this.input;
  }

  /** The current segment is a `cd` that, if it succeeds, ends in one of `folders`. */
  changeTo(folders: readonly string[]): void {
    for (const f of folders) this.seen.add(f);
    this.effect = union(this.effect ?? [], folders);
  }

  /** `popd` returns to some folder the line was in before. */
  popd(): void {
    this.effect = [...this.seen];
  }

  private close(): void {
    let ok = this.input;
    let fail = this.input;
    if (this.effect !== null) {
      ok = this.length === 1 && !this.loose ? this.effect : union(this.input, this.effect);
      if (this.length > 1 || this.loose) fail = ok;
    }
    if (this.joiner === '&&') {
      this.fail = union(this.fail, fail);
      this.ok = ok;
    } else if (this.joiner === '||') {
      this.ok = union(this.ok, ok);
      this.fail = fail;
    } else {
      this.ok = ok;
      this.fail = fail;
    }
  }
}
