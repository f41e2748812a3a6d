/**
 * `git config` in plan mode (RO-2): the read forms (`--get`, `--get-all`, `--get-regexp`,
 * `--list`/`-l`, and git 2.46's `git config get|list`) are allowed; everything that sets, unsets
 * or edits is refused, and so are `--global`, `--system`, `--file` and `--blob`, which name
 * configuration outside the workspace. Options are matched exactly: git accepts abbreviations
 * (`--glob` for `--global`), which then fail the allow-list instead of slipping past a deny-list.
 * Without a scope, git still reads the user's global configuration; the OS sandbox decides
 * whether that file is visible.
 */
import type { Word } from './args';
import { allow, reject, type SegmentVerdict } from './verdict';

const ACTIONS = new Set(['get', 'get-all', 'get-regexp', 'get-urlmatch', 'get-color', 'get-colorbool', 'list']);
const FLAGS = new Set([
  'show-origin',
  'show-scope',
  'name-only',
  'null',
  'bool',
  'int',
  'bool-or-int',
  'path',
  'expiry-date',
  'includes',
  'no-includes',
  'local',
  'worktree',
  'all',
  'regexp',
  'fixed-value',
  'show-names',
]);
const VALUED = new Set(['type', 'default', 'value', 'url']);
const OUTSIDE = new Set(['global', 'system', 'file', 'blob']);

export function checkGitConfig(rest: readonly Word[]): SegmentVerdict {
  const first = rest[0]?.text;
  let read = first === 'get' || first === 'list';
  let list = first === 'list';
  let operandCount = 0;
  const words = read ? rest.slice(1) : rest;
  for (let i = 0; i < words.length; i += 1) {
    const t = (words[i] as Word).text;
    if (!t.startsWith('-') || t === '-') {
      operandCount += 1;
      continue;
    }
    const long = t.startsWith('--') ? t.slice(2) : null;
    const names = long === null ? [...t.slice(1)] : long.split('=', 1);
    const hasValue = long?.includes('=') ?? false;
    for (const name of names) {
      if (OUTSIDE.has(name) || name === 'f')
        return reject(
          'unknown',
          `\`git config ${t}\` names configuration outside the workspace (the user's or the system's, or another file)`,
        );
      if ((ACTIONS.has(name) || name === 'l') && !hasValue) {
        read = true;
        list ||= name === 'list' || name === 'l';
      } else if (VALUED.has(name)) {
        // Valued options are long ones: no letter of a short cluster names one.
        if (!hasValue) i += 1;
      } else if (!((FLAGS.has(name) && !hasValue) || (long === null && name === 'z'))) {
        return reject(
          'mutation',
          `\`git config ${t}\` is not a read option (only --get, --get-all, --get-regexp, --list and their display options are allowed)`,
        );
      }
    }
  }
  if (!read)
    return reject(
      'mutation',
      '`git config` without `--get`/`--list` (or `git config get|list`) sets or edits configuration',
    );
  if (operandCount > (list ? 0 : 2))
    return reject('mutation', '`git config` with more operands than a read form takes sets a value');
  return allow('inspection');
}
