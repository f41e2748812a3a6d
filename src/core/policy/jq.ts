/**
 * jq and yq in plan mode (RO-2, RO-3). Neither writes files except yq's in-place and split modes,
 * but their filters can read what the command line does not show: the environment and its
 * secrets (`env`, `$ENV`, Go yq's `env()`/`strenv()`), modules and files found through search
 * paths (`import`, `include`, `-L`, `modulemeta`, Go yq's `load()`), a filter kept in a file
 * (`-f`) and, in Go yq, an expression built at run time (`eval`). Those are refused. Files named
 * as operands or through `--slurpfile` / `--rawfile` stay under the workspace path rule.
 */
import { findDenied, type Word } from './args';
import { allow, reject, type SegmentVerdict } from './verdict';

/** jq long options and how many words each takes after it. */
const JQ_LONG = new Map<string, number>([
  ...[
    'seq',
    'stream',
    'stream-errors',
    'slurp',
    'raw-input',
    'null-input',
    'compact-output',
    'tab',
    'color-output',
    'monochrome-output',
    'ascii-output',
    'unbuffered',
    'sort-keys',
    'raw-output',
    'raw-output0',
    'join-output',
    'nul-output',
    'exit-status',
    'args',
    'jsonargs',
    'help',
    'version',
    'build-configuration',
  ].map((n): [string, number] => [n, 0]),
  ['indent', 1],
  ...['arg', 'argjson', 'slurpfile', 'rawfile'].map((n): [string, number] => [n, 2]),
]);
const JQ_SHORT = 'nrjascSCMeRhVb0';
const JQ_FILES = new Set(['f', 'from-file', 'L', 'library-path', 'run-tests']);

const FILTER_RULES: [RegExp, string][] = [
  // jq reads `$ ENV` as `$ENV`: blanks may stand between `$` and a variable's name.
  [/(?<![\w.$])env(?!\w)|\$\s*ENV(?!\w)/, '`env` / `$ENV` print the environment, which holds secrets'],
  [/(?<![\w.$])(strenv|envsubst)(?!\w)/, '`strenv` / `envsubst` read the environment, which holds secrets'],
  [
    /(?<![\w.$])(import|include|modulemeta|get_search_list|get_prog_origin|get_jq_origin)(?!\w)/,
    '`import` / `include` / `modulemeta` load modules from files the workspace path check cannot see',
  ],
  [
    /(?<![\w.$])load(_\w+)?(?!\w)/,
    '`load` reads a file named inside the expression, which the workspace path check cannot see',
  ],
  [/(?<![\w.$])eval(?!\w)/, '`eval` runs an expression built at run time, which the policy cannot check'],
  [
    /(?<![\w.$])input_filename(?!\w)|\$\s*__loc__(?!\w)/,
    '`input_filename` / `$__loc__` report file names instead of data and are not on the read-only list',
  ],
];

/** Why a jq/yq filter may not run in plan mode, or null. String contents are skipped, interpolations `\(…)` are not. */
export function filterProblem(program: string, filter: string): string | null {
  const code = codeOnly(filter);
  if (code === null)
    return `${program} filter: a comment ending in \`\\\` goes on to the next line for jq 1.7.1 but not for older jq; drop the \`\\\``;
  for (const [pattern, why] of FILTER_RULES) if (pattern.test(code)) return `${program} filter: ${why}`;
  return null;
}

/**
 * `filter` with the text of string literals and comments blanked out, keeping the code of `\(…)`
 * interpolations; null when jq versions disagree on where a comment ends.
 */
function codeOnly(filter: string): string | null {
  let out = '';
  /** Open interpolations: the parenthesis depth inside each one. */
  const stack: number[] = [];
  let inString = false;
  for (let i = 0; i < filter.length; i += 1) {
    const c = filter[i] as string;
    if (inString) {
      if (c === '\\' && filter[i + 1] === '(') {
        stack.push(0);
        inString = false;
        out += ' (';
        i += 1;
      } else if (c === '\\') {
        out += '  ';
        i += 1;
      } else if (c === '"') {
        inString = false;
        out += '"';
      } else out += ' ';
      continue;
    }
    if (c === '#') {
      const lineEnd = filter.indexOf('\n', i);
      const end = lineEnd < 0 ? filter.length : lineEnd;
      if (lineEnd >= 0 && filter[end - 1] === '\\') return null;
      out += ' '.repeat(end - i);
      i = end - 1;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '(' && stack.length > 0) stack[stack.length - 1] = (stack.at(-1) ?? 0) + 1;
    else if (c === ')' && stack.length > 0) {
      const depth = stack.at(-1) ?? 0;
      if (depth === 0) {
        stack.pop();
        inString = true;
      } else stack[stack.length - 1] = depth - 1;
    }
    out += c;
  }
  return out;
}

export function checkJq(words: readonly Word[]): SegmentVerdict {
  let filter: string | undefined;
  let ended = false;
  for (let i = 1; i < words.length; i += 1) {
    const t = (words[i] as Word).text;
    if (ended || t === '-' || !t.startsWith('-')) {
      // The shell expands a glob before jq starts, so a file's name could become the filter.
      if (filter === undefined && words.slice(1, i + 1).some((w) => w.glob))
        return reject(
          'unknown',
          `an unquoted glob at or before the jq filter (\`${t}\`) could put a file name in its place; quote it`,
        );
      filter ??= t;
      continue;
    }
    if (t === '--') {
      ended = true;
      continue;
    }
    const long = t.startsWith('--') ? t.slice(2) : null;
    const flags = long === null ? [...t.slice(1)] : [long];
    const file = flags.find((f) => JQ_FILES.has(f));
    if (file !== undefined)
      return reject(
        'unknown',
        `\`jq ${t}\` reads a filter or modules from files the policy cannot check; pass the filter on the command line`,
      );
    if (long !== null) {
      const takes = JQ_LONG.get(long);
      if (takes === undefined) return reject('unknown', `jq option \`${t}\` is not on the read-only list`);
      i += takes;
    } else {
      const unknown = flags.find((f) => !JQ_SHORT.includes(f));
      if (unknown !== undefined)
        return reject(
          'unknown',
          `jq option \`-${unknown}\`${t === `-${unknown}` ? '' : ` (in \`${t}\`)`} is not on the read-only list`,
        );
    }
  }
  const problem = filter === undefined ? null : filterProblem('jq', filter);
  return problem === null ? allow('inspection') : reject('unknown', problem);
}

/** Go yq (`-i/--inplace`, `-s/--split-exp`) and Python yq (`-i/--in-place`, jq's options passed on). */
const YQ_DENY = { short: 'isfL', long: ['inplace', 'in-place', 'split-exp', 'from-file', 'library-path'] } as const;

export function checkYq(words: readonly Word[]): SegmentVerdict {
  const args = words.slice(1);
  const hit = findDenied(args, YQ_DENY);
  if (hit !== null)
    return reject('mutation', `\`yq ${hit}\` edits or writes files, or reads a filter or modules from files`);
  // Which word is the expression depends on the yq (Go or Python) and its subcommand: check every
  // word, and refuse a glob, which could put a file's name in the expression's place.
  const glob = args.find((w) => w.glob);
  if (glob !== undefined)
    return reject(
      'unknown',
      `an unquoted glob (\`${glob.text}\`) could put a file name in place of the yq expression; quote it or name the files`,
    );
  for (const w of args) {
    const problem = w.text.startsWith('-') ? null : filterProblem('yq', w.text);
    if (problem !== null) return reject('unknown', problem);
  }
  return allow('inspection');
}
