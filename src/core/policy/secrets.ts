/**
 * Commands that print the environment (RO-2): it holds the API keys and tokens of whoever started
 * the editor, so reading it is refused in plan mode even though nothing is written. `printenv`,
 * `env` (alone it prints everything), `ps` with the option that adds each process's environment
 * (procps `e`; macOS `e`, `E` and `-E`) and `/proc/<pid>/environ` are named here; the shell's own
 * listings (`set`, `export -p`, `declare -x`) are refused with the shell builtins, awk's `ENVIRON`
 * and jq's `env` with those programs.
 */
import type { Word } from './args';
import { allow, reject, type SegmentVerdict } from './verdict';

const SECRETS = 'the environment, which holds secrets (API keys, tokens)';

export const checkPrintenv = (): SegmentVerdict => reject('unknown', `\`printenv\` prints ${SECRETS}`);

/**
 * `env` without a command (only options and assignments) prints the environment; with one it runs
 * it. As in env(1) (GNU, BSD, busybox), every word holding `=` before the command is an assignment.
 */
export function checkEnv(words: readonly Word[]): SegmentVerdict {
  let command = false;
  for (let i = 1; i < words.length && !command; i += 1) {
    const t = (words[i] as Word).text;
    if (t === '-u' || t === '-C' || t === '--unset' || t === '--chdir') i += 1;
    // `-S` / `--split-string` runs the command its value spells.
    else command = t.startsWith('-S') || t.startsWith('--split-string') || (!t.startsWith('-') && !t.includes('='));
  }
  return !command
    ? reject('unknown', `\`env\` without a command prints ${SECRETS}`)
    : reject(
        'mutation',
        '`env` with a command runs it with a changed environment, which the policy cannot see; run the inner command directly',
      );
}

/** procps options whose value is the next word: UNIX-style letters, long names, BSD-style letters. */
const PS_UNIX_VALUED = 'CGgoOpqstUu';
const PS_LONG_VALUED = new Set([
  'pid',
  'ppid',
  'sort',
  'format',
  'cols',
  'columns',
  'rows',
  'width',
  'sid',
  'tty',
  'user',
  'User',
  'group',
  'Group',
  'quick-pid',
]);
const PS_BSD_VALUED = 'oOkU';

/** The refusal of a `ps` word that holds `letter`, an option that prints each process's environment. */
const psEnvironment = (word: string, letter: string): SegmentVerdict =>
  reject(
    'unknown',
    `\`ps ${word}\`: the option \`${letter}\` prints each process's environment (procps \`e\`; macOS \`e\`, \`E\`, \`-E\`), which holds secrets (API keys, tokens)`,
  );

/**
 * `ps`: a word without a leading `-` is a cluster of BSD options, where `e` (procps, macOS) and `E`
 * (macOS) add each process's environment (`ps e`, `ps auxE`), unless it is the value of the option
 * before it (`ps -o pid,user`). In a `-` cluster, macOS reads `E` the same way (`ps -Eww`) up to
 * the first letter that takes a value; procps has no `-E`. `-e` (every process) is harmless.
 */
export function checkPs(words: readonly Word[]): SegmentVerdict {
  for (let i = 1; i < words.length; i += 1) {
    const t = (words[i] as Word).text;
    let valued: boolean;
    if (t.startsWith('--')) valued = !t.includes('=') && PS_LONG_VALUED.has(t.slice(2));
    else if (t.startsWith('-')) {
      // The first valued letter of a cluster takes the rest of the word, or the next word.
      const letters = [...t.slice(1)];
      const at = letters.findIndex((c) => PS_UNIX_VALUED.includes(c));
      if (letters.slice(0, at === -1 ? undefined : at).includes('E')) return psEnvironment(t, 'E');
      valued = at === letters.length - 1;
    } else {
      const letter = /[eE]/.exec(t)?.[0];
      if (letter !== undefined) return psEnvironment(t, letter);
      valued = PS_BSD_VALUED.includes(t.at(-1) as string);
    }
    if (valued) i += 1;
  }
  return allow('inspection');
}

/**
 * Why a word (an argument, an option value or a redirection target) may name a process
 * environment file (`/proc/self/environ`, `/proc/1/environ`, `--file=/proc/self/environ`), or null.
 * The workspace path rule refuses /proc too; this says why it matters.
 */
export function environFileProblem(word: Word): string | null {
  const { text } = word;
  if (!text.includes('/proc/') || !(text.includes('environ') || word.glob)) return null;
  return `\`${text}\` may be a process environment, which holds secrets (API keys, tokens)`;
}

/**
 * `set`, `export -p`, `declare -x`, `typeset`, `readonly -p`: shell builtins that, without names,
 * list the shell's variables, the environment among them: `set` with no word at all, the others
 * with options only (`declare -xi`). With names, or `set` with options, they change shell state.
 */
export function checkShellVariables(words: readonly Word[]): SegmentVerdict {
  const name = (words[0] as Word).text;
  const args = words.slice(1).map((w) => w.text);
  const listing = name === 'set' ? args.length === 0 : args.every((a) => a.startsWith('-'));
  if (listing)
    return reject('unknown', `\`${[name, ...args].join(' ')}\` lists the shell's variables, among them ${SECRETS}`);
  return reject('mutation', `\`${name}\` changes shell or process state`);
}
