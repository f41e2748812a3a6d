/**
 * Which folders each command of an `&&` / `||` / `;` / `|` list may run in, for the workspace
 * path check (paths.ts). A `cd` counts only where the shell guarantees it took effect:
 *  - after `cd DIR &&` the next command runs in DIR (the `&&` runs it only if `cd` succeeded);
 *  - after `cd DIR;` or `cd DIR ||` the `cd` may have failed, so both folders remain possible;
 *  - a `cd` in a pipeline runs in a subshell (it does not last), and a `cd` on a line with
 *    parentheses may sit in a subshell the scan does not delimit: both keep the old folders too.
 * Relative paths must stay inside the workspace from every possible folder. Keeping a folder that
 * is really an ancestor of the actual one only makes the check stricter, never looser.
 *
 * Each `cd DIR;` can double the set (`cd a; cd b; cd c` may run in 8 folders), so sets are
 * bounded: one that would hold more than MAX_FOLDERS becomes `null` (too many to follow), and
 * once a command would run in such a set the flow is `overflowed` and the caller refuses it,
 * rather than the check's time growing without bound. A set that is never used (the failure
 * folders of a long `cd a && cd b && …` chain) costs nothing.
 */
import type { Joiner } from './shell-scan';

/** Possible working folders tracked for one command before it is refused. */
export const MAX_FOLDERS = 8;

/** Possible folders, or `null` when there are more than MAX_FOLDERS. */
type Folders = readonly string[] | null;

function union(a: Folders, b: Folders): Folders {
  if (a === null || b === null) return null;
  const all = [...new Set([...a, ...b])];
  return all.length > MAX_FOLDERS ? null : all;
}

export class CwdFlow {
  /** Folders after the last finished pipeline, if its status was success / failure. */
  private ok: Folders;
  private fail: Folders = [];
  private input: Folders;
  private joiner: Joiner | null = null;
  private length = 0;
  private effect: Folders | undefined = undefined;
  private readonly seen = new Set<string>();
  /** A command would run in more folders than are followed: it and every later one are refused. */
  overflowed = false;

  /** `loose`: the line has parentheses, so no `cd` is known to outlive its segment. */
  constructor(
    root: string,
    private readonly loose: boolean,
  ) {
    this.ok = [root];
    this.input = [root];
    this.seen.add(root);
  }

  /** Folders the next segment (joined by `joiner`) may run in; empty once `overflowed`. */
  enter(joiner: Joiner | null): readonly string[] {
    if (this.overflowed) return [];
    if (joiner === '|') {
      this.length += 1;
    } else {
      if (this.length > 0) this.close();
      this.input = joiner === '&&' ? this.ok : joiner === '||' ? this.fail : union(this.ok, this.fail);
      this.joiner = joiner;
      this.length = 1;
      this.effect = undefined;
    }
    if (this.input === null) this.overflowed = true;
    return this.input ?? [];
  }

  /** The current segment is a `cd` that, if it succeeds, ends in one of `folders`. */
  changeTo(folders: readonly string[]): void {
    for (const f of folders) this.seen.add(f);
    this.effect = union(this.effect ?? [], folders);
  }

  /** `popd` returns to some folder the line was in before. */
  popd(): void {
    this.effect = this.seen.size > MAX_FOLDERS ? null : [...this.seen];
  }

  private close(): void {
    let ok = this.input;
    let fail = this.input;
    if (this.effect !== undefined) {
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
