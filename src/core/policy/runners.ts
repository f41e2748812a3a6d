/**
 * Build and test runners in plan mode (RO-2, NAV-2): the forms that only verify (`cargo check`,
 * `npm test`, `pytest`, `go test ./...`, `make -n`) are allowed and classed `verification`.
 * They run project code, which the OS sandbox confines (without one, run_command runs only
 * `inspection` in plan mode). What the command line adds beyond the project's own scripts is
 * checked here: options that run another program, load code, write files or change
 * dependencies are refused, and `npm test` takes no further word at all (`npm test --
 * --import=data:…` would hand node arbitrary code, `--script-shell` picks the shell).
 */
import { findDenied, type Word } from './args';
import { allow, reject, type SegmentVerdict } from './verdict';

const CARGO_GLOBAL_OK = new Set(['-v', '-vv', '-q', '--quiet', '--verbose', '--locked', '--offline', '--frozen']);
const CARGO_VERIFY = new Set(['check', 'test', 'clippy']);
const CARGO_INSPECT = new Set(['metadata', 'tree']);
const CARGO_MUTATE = new Set([
  'build',
  'b',
  'run',
  'r',
  'install',
  'uninstall',
  'fix',
  'publish',
  'add',
  'remove',
  'rm',
  'update',
  'clean',
  'new',
  'init',
  'doc',
  'bench',
  'fmt',
  'vendor',
  'generate-lockfile',
  'login',
  'logout',
  'owner',
  'yank',
  'package',
]);

/** libtest's options that select, list or report tests (what follows `cargo test --`), and those taking a value. */
const LIBTEST_FLAGS = new Set([
  '--nocapture',
  '--no-capture',
  '--show-output',
  '--exact',
  '--ignored',
  '--include-ignored',
  '--list',
  '-q',
  '--quiet',
  '--test',
  '--bench',
  '--shuffle',
  '--report-time',
  '--force-run-in-process',
]);
const LIBTEST_VALUED = new Set(['--test-threads', '--skip', '--color', '--format', '--shuffle-seed']);
/** rustc's lint-level options (what follows `cargo clippy --`). */
const LINT_LEVEL = /^(?:-[DWAF]|--(?:deny|warn|allow|forbid|force-warn|cap-lints))(?:=?.+)?$/;

/**
 * Why a word cargo passes on after `--` is refused, or null. The test harness and rustc have
 * options of their own that write files (`--logfile`, `--emit`, `-o`) or read arguments from a
 * file (`@args`), so only options that select tests or set lint levels pass.
 */
function passThroughProblem(sub: string, rest: readonly Word[]): string | null {
  for (let i = 0; i < rest.length; i += 1) {
    const t = (rest[i] as Word).text;
    if (sub === 'clippy') {
      if (!LINT_LEVEL.test(t))
        return `\`cargo clippy -- ${t}\` is not a lint level (\`-D warnings\`, \`-A clippy::x\`)`;
      if (/^(?:-[DWAF]|--[a-z-]+)$/.test(t)) i += 1;
    } else if (!t.startsWith('-') && !t.startsWith('@')) {
      continue;
    } else if (LIBTEST_VALUED.has(t.split('=')[0] as string)) {
      if (!t.includes('=')) i += 1;
    } else if (!LIBTEST_FLAGS.has(t)) {
      return `\`cargo ${sub} -- ${t}\` is not a test-selection option of the test harness (options that write files, such as \`--logfile\`, or read \`@file\` arguments are not allowed)`;
    }
  }
  return null;
}

export function checkCargo(words: readonly Word[]): SegmentVerdict {
  let i = 1;
  if (words[i]?.text.startsWith('+')) i += 1;
  while (
    words[i] !== undefined &&
    ((words[i] as Word).text.startsWith('--color') || CARGO_GLOBAL_OK.has((words[i] as Word).text))
  )
    i += 1;
  const sub = words[i]?.text;
  const rest = words.slice(i + 1);
  // Words after `--` are the test harness's or rustc's, not cargo's (`--allow=dead_code` is a lint level).
  const dashes = rest.findIndex((w) => w.text === '--');
  const own = dashes < 0 ? rest : rest.slice(0, dashes);
  const hit = findDenied(own, { short: 'Z', long: ['fix', 'allow-dirty', 'allow-staged', 'allow-no-vcs', 'config'] });
  if (sub === undefined)
    return reject(
      'unknown',
      'bare `cargo` prints usage; name `check`, `test`, `clippy`, `metadata`, `tree` or `nextest run`',
    );
  if (CARGO_MUTATE.has(sub))
    return reject('mutation', `\`cargo ${sub}\` writes files, builds artifacts or changes dependencies`);
  if (hit !== null) return reject('mutation', `\`cargo ${sub} ${hit}\` can rewrite sources or inject configuration`);
  const passed = dashes < 0 ? null : passThroughProblem(sub, rest.slice(dashes + 1));
  if (passed !== null) return reject('unknown', passed);
  if (CARGO_VERIFY.has(sub)) return allow('verification');
  if (CARGO_INSPECT.has(sub)) return allow('inspection');
  if (sub === 'nextest' && rest[0]?.text === 'run') return allow('verification');
  return reject('unknown', `\`cargo ${sub}\` is not on the read-only list`);
}

/** The exact words after the program that run its test script. */
const TEST_FORMS: Record<string, readonly string[]> = {
  npm: ['test', 't', 'tst', 'run test', 'run-script test'],
  pnpm: ['test', 't', 'run test', 'run-script test'],
  yarn: ['test', 'run test'],
};
/** `npm ls` / `pnpm ls` options that only change how the tree is shown. */
const LS_FLAGS = new Set([
  '--all',
  '-a',
  '--json',
  '--long',
  '-l',
  '--parseable',
  '-p',
  '--link',
  '--package-lock-only',
  '--unicode',
  '--no-unicode',
  '--prod',
  '--production',
  '--dev',
  '-P',
  '-D',
]);
const LS_VALUED = /^--(depth|omit|include)=[\w,-]+$/;
const PACKAGE_NAME = /^(@[\w.-]+\/)?\w[\w.-]*(@[\w.^~<>=*|-]+)?$/;
const NPM_MUTATE = new Set([
  'install',
  'i',
  'ci',
  'add',
  'remove',
  'rm',
  'uninstall',
  'un',
  'update',
  'up',
  'upgrade',
  'publish',
  'exec',
  'x',
  'dlx',
  'link',
  'unlink',
  'prune',
  'dedupe',
  'init',
  'create',
  'pack',
  'version',
  'set',
  'config',
  'patch',
  'import',
  'rebuild',
  'start',
  'restart',
  'stop',
  'cache',
]);

export function checkNodePackageManager(words: readonly Word[]): SegmentVerdict {
  const name = (words[0] as Word).text;
  const rest = words.slice(1).map((w) => w.text);
  const forms = TEST_FORMS[name] ?? [];
  const joined = rest.join(' ');
  if (forms.includes(joined)) return allow('verification');
  const test = forms.find((f) => joined.startsWith(`${f} `));
  if (test !== undefined) {
    return reject(
      'unknown',
      `\`${name} ${test}\` takes no further words in plan mode (\`${joined.slice(test.length + 1)}\`): they reach the test command and can load code or change the shell`,
    );
  }
  const sub = rest[0];
  if (sub === undefined) {
    // Bare `yarn` installs dependencies; bare npm/pnpm print usage.
    return name === 'yarn'
      ? reject('mutation', 'bare `yarn` installs dependencies')
      : reject('unknown', `bare \`${name}\` is not allowed in plan mode (only \`${name} test\`)`);
  }
  if (name !== 'yarn' && (sub === 'ls' || sub === 'list')) {
    const odd = rest.slice(1).find((t) => !LS_FLAGS.has(t) && !LS_VALUED.test(t) && !PACKAGE_NAME.test(t));
    return odd === undefined
      ? allow('inspection')
      : reject(
          'unknown',
          `\`${name} ${sub} ${odd}\` is not on the read-only list (\`${name} ls\` takes display options and package names)`,
        );
  }
  if (NPM_MUTATE.has(sub)) return reject('mutation', `\`${name} ${sub}\` installs, changes or runs packages`);
  if (sub === 'run' || sub === 'run-script')
    return reject(
      'unknown',
      `\`${name} ${sub} ${rest[1] ?? ''}\` runs a package script; only the \`test\` script is allowed in plan mode`,
    );
  return reject('unknown', `\`${name} ${sub}\` is not allowed in plan mode (only \`${name} test\` and \`${name} ls\`)`);
}

/** pytest options that select, order or report tests, and the long ones taking a value. */
const PYTEST_FLAGS = new Set([
  'q',
  'quiet',
  'v',
  'verbose',
  'x',
  'exitfirst',
  's',
  'l',
  'showlocals',
  'lf',
  'last-failed',
  'ff',
  'failed-first',
  'nf',
  'new-first',
  'sw',
  'stepwise',
  'co',
  'collect-only',
  'no-header',
  'no-summary',
  'strict-markers',
  'runxfail',
  'disable-warnings',
]);
const PYTEST_VALUED = new Set(['tb', 'maxfail', 'durations', 'capture', 'color', 'deselect', 'ignore']);
/** Short pytest options that take a value (the rest of the word, or the next word). */
const PYTEST_SHORT_VALUED = 'kmrn';

export function checkPytest(words: readonly Word[], shown: string): SegmentVerdict {
  // pytest reads `@file` as more arguments (argparse's fromfile, pytest >= 8.2), values included:
  // the file could hold `-p plugin` or `--junitxml=path`, which the policy cannot see.
  const argfile = words.find((w) => w.text.startsWith('@'));
  if (argfile !== undefined)
    return reject('unknown', `\`${shown} ${argfile.text}\` reads more arguments from a file the policy cannot see`);
  for (let i = 0; i < words.length; i += 1) {
    const t = (words[i] as Word).text;
    if (!t.startsWith('-') || t === '-') continue;
    if (t === '--') return reject('unknown', `\`${shown} --\`: the policy does not follow what comes after \`--\``);
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = t.slice(2, eq < 0 ? undefined : eq);
      if (PYTEST_VALUED.has(name)) {
        if (eq < 0) i += 1;
        continue;
      }
      if (PYTEST_FLAGS.has(name) && eq < 0) continue;
      return reject(
        'unknown',
        `\`${shown} ${t}\` is not on the read-only list (pytest options that load plugins or configuration, or write reports, are not allowed)`,
      );
    }
    for (let k = 1; k < t.length; k += 1) {
      const flag = t[k] as string;
      if (PYTEST_SHORT_VALUED.includes(flag)) {
        if (k === t.length - 1) i += 1;
        break;
      }
      if (!PYTEST_FLAGS.has(flag))
        return reject(
          'unknown',
          `\`${shown} -${flag}\`${t === `-${flag}` ? '' : ` (in \`${t}\`)`} is not on the read-only list (pytest options that load plugins or configuration, or write reports, are not allowed)`,
        );
    }
  }
  return allow('verification');
}

/** `python -m pytest` runs pytest; every other python form is an interpreter. */
export function checkPython(words: readonly Word[]): SegmentVerdict {
  const name = (words[0] as Word).text;
  if (words[1]?.text === '-m' && words[2]?.text === 'pytest') return checkPytest(words.slice(3), `${name} -m pytest`);
  return reject(
    'mutation',
    `\`${name}\` is an interpreter: it runs arbitrary code (only \`${name} -m pytest\` and version probes are allowed)`,
  );
}

/** `go test` flags that select, repeat or report tests, and those taking a value. */
const GO_TEST_FLAGS = new Set(['v', 'short', 'race', 'cover', 'failfast', 'json', 'benchmem']);
const GO_TEST_VALUED = new Set([
  'run',
  'skip',
  'count',
  'timeout',
  'bench',
  'benchtime',
  'cpu',
  'parallel',
  'p',
  'tags',
  'covermode',
  'coverpkg',
  'shuffle',
  'list',
  'vet',
]);

export function checkGo(words: readonly Word[]): SegmentVerdict {
  const sub = words[1]?.text;
  if (sub === 'version' && words.length === 2) return allow('inspection');
  if (sub !== 'test')
    return reject(
      'mutation',
      '`go` builds, fetches or runs project code (only `go test` and `go version` are allowed)',
    );
  for (let i = 2; i < words.length; i += 1) {
    const t = (words[i] as Word).text;
    if (!t.startsWith('-')) continue;
    const eq = t.indexOf('=');
    const name = t.replace(/^--?/, '').split('=')[0] ?? '';
    if (GO_TEST_VALUED.has(name)) {
      if (eq < 0) i += 1;
      continue;
    }
    if (GO_TEST_FLAGS.has(name) && eq < 0) continue;
    return reject(
      'unknown',
      `\`go test ${t}\` is not on the read-only list (go test options that run other programs, write files or pass arguments on are not allowed)`,
    );
  }
  return allow('verification');
}

const MAKE_DRY_RUN = new Set(['--dry-run', '--just-print', '--recon']);

/** `make -n`: prints the recipes without running them (GNU make still evaluates the makefile). */
export function checkMake(words: readonly Word[]): SegmentVerdict {
  const args = words.slice(1).map((w) => w.text);
  const dry = args.some((t) => MAKE_DRY_RUN.has(t) || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(t));
  const odd = args.find((t) => !(MAKE_DRY_RUN.has(t) || /^-[nskwBi]+$/.test(t) || /^[\w.][\w./-]*$/.test(t)));
  if (!dry)
    return reject(
      'mutation',
      '`make` runs build scripts that can change files (only the dry run `make -n` is allowed)',
    );
  if (odd !== undefined)
    return reject(
      'unknown',
      `\`make ${odd}\` is not allowed in plan mode (\`make -n\` takes targets and -s/-k/-w/-B/-i)`,
    );
  return allow('verification');
}
