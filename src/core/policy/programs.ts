/**
 * What each program may do in plan mode (RO-2, RO-3): the inspection heads, the per-program
 * write and run options (write-options.ts), the build/test commands that count as verification (NAV-2, runners.ts),
 * version/help probes [seed wins], commands that print the environment (secrets.ts), and the
 * programs known to write, run code or reach the network (with the reason a user is shown).
 * A program in none of these tables is `unknown` and rejected. Option models follow the real
 * programs (getopt for GNU tools, xxd's own parser in xxd.ts, jq's in jq.ts): a model that reads
 * a word as an option value where the program reads an operand could hide an output file.
 */
import { checkAwk } from './awk';
import { firstDenied, operands, readArgs, type OptionRule, type Word } from './args';
import { checkGit } from './git';
import { checkJq, checkYq } from './jq';
import { checkCargo, checkGo, checkMake, checkNodePackageManager, checkPytest, checkPython } from './runners';
import { checkSed } from './sed';
import { checkEnv, checkPrintenv, checkPs, checkShellVariables } from './secrets';
import { allow, reject, type SegmentVerdict } from './verdict';
import { WRITE_OPTIONS } from './write-options';
import { checkXxd } from './xxd';

export interface SegmentContext {
  /** Standard input comes from the previous pipeline segment. */
  piped: boolean;
  /** Standard input comes from a `<` redirection. */
  readsFile: boolean;
}

type Checker = (words: readonly Word[], ctx: SegmentContext) => SegmentVerdict;

/** Programs that only read and print whatever their options (none writes or runs anything). */
const PLAIN_READERS = [
  'cat',
  'head',
  'tail',
  'wc',
  'stat',
  'which',
  'ls',
  'grep',
  'egrep',
  'fgrep',
  'du',
  'df',
  'pwd',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'cut',
  'tr',
  'nl',
  'column',
  'paste',
  'comm',
  'join',
  'fold',
  'fmt',
  'rev',
  'tac',
  'od',
  'hexdump',
  'strings',
  'cmp',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'echo',
  'true',
  'false',
  'test',
  '[',
  'uname',
  'whoami',
  'id',
  'nproc',
  'arch',
  'uptime',
  'free',
  'locale',
  'getconf',
  'seq',
  'expand',
  'unexpand',
  'whereis',
  'type',
  'tokei',
  'numfmt',
  'cd',
] as const;

const PLAIN_READER_SET: ReadonlySet<string> = new Set(PLAIN_READERS);

/** True for programs that have no option that writes or runs anything, so any word is safe to pass them. */
export function isPlainReader(name: string): boolean {
  return PLAIN_READER_SET.has(name);
}

const FIND_ACTIONS = new Set([
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
]);

const PROBE_FLAGS = new Set(['-h', '--help', '-V', '--version']);
/** Programs whose `-v` is "version" (for most, `-v` is "verbose" or "invert", and does work). */
const VERSION_V = new Set(['node', 'nodejs', 'npm', 'pnpm', 'yarn', 'bun']);
/** Programs for which `-h` / `-V` mean something other than help/version (`sh -h` runs stdin, `shutdown -h` halts). */
const SHORT_PROBE_UNSAFE = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'busybox',
  'shutdown',
  'halt',
  'poweroff',
  'reboot',
  'init',
  'telinit',
  'screen',
  'xargs',
  'env',
  'expect',
  'unbuffer',
  // Editors and pagers: `vim -V` is "verbose", not "version", and starts the editor.
  'vi',
  'vim',
  'nvim',
  'view',
  'ex',
  'ed',
  'emacs',
  'nano',
  'pico',
  'micro',
  'less',
  'more',
  'most',
]);

function group(names: string, why: string): [string, string][] {
  return names
    .split(/\s+/)
    .filter(Boolean)
    .map((n) => [n, why]);
}

/** Known non-read-only programs and the reason shown for them. */
const MUTATING = new Map<string, string>([
  ...group(
    'rm rmdir mv cp mkdir touch chmod chown chgrp ln link unlink dd tee truncate install shred mkfifo mknod mktemp rsync patch split csplit sponge setfacl chattr',
    'creates, changes or deletes files',
  ),
  ...group('tar zip unzip gzip gunzip bzip2 bunzip2 xz unxz zstd 7z ar cpio', 'creates or extracts archives'),
  ...group(
    'vi vim nvim nano emacs ed ex pico micro code less more most view info',
    'is an interactive editor or pager that can write files or run commands',
  ),
  ...group(
    'sh bash dash zsh ksh mksh ash fish csh tcsh busybox pwsh powershell',
    'is a shell: it runs arbitrary commands',
  ),
  ...group(
    'python python2 python3 node nodejs deno bun perl ruby php lua luajit tclsh Rscript julia osascript java jshell dotnet irb',
    'is an interpreter: it runs arbitrary code',
  ),
  ...group(
    'nice nohup timeout stdbuf time command builtin exec eval source . xargs parallel watch sudo doas su runuser chroot setsid flock ionice taskset strace ltrace gdb script unbuffer expect',
    'runs another command, which the policy cannot see; run the inner command directly',
  ),
  ...group(
    'export set unset declare typeset readonly local alias unalias shopt ulimit umask trap kill pkill killall',
    'changes shell or process state',
  ),
  ...group('curl wget nc ncat netcat telnet ftp sftp scp ssh http https aria2c socat ping', 'reaches the network'),
  ...group(
    'pip pip3 pipx uv poetry gem bundle apt apt-get dpkg yum dnf apk brew port pacman snap flatpak conda composer rustup npx bunx',
    'installs packages or builds and runs project code',
  ),
  ...group('make cmake ninja gradle gradlew mvn ant bazel meson', 'runs build scripts that can change files'),
  ...group(
    'systemctl service shutdown reboot halt poweroff crontab at mount umount useradd userdel passwd docker podman kubectl',
    'changes system state',
  ),
  ...group('ldd', 'may execute the binary it inspects'),
  ...group(
    'man',
    'runs a pager and formatters, and `-P`, `-H` or MANPAGER name any program for it to run; use `<program> --help`',
  ),
]);

function deniedCheck(name: string, rules: readonly OptionRule[]): Checker {
  return (words) => {
    const hit = firstDenied(words.slice(1), rules);
    return hit === null ? allow('inspection') : reject('mutation', `\`${name} ${hit.shown}\` ${hit.why}`);
  };
}

const checkFind: Checker = (words) => {
  // The head, `find`, is no action.
  const action = words.find((w) => FIND_ACTIONS.has(w.text));
  if (action === undefined) return allow('inspection');
  const what =
    action.text.startsWith('-exec') || action.text.startsWith('-ok')
      ? 'runs a command'
      : action.text === '-delete'
        ? 'deletes files'
        : 'writes a file';
  return reject('mutation', `\`find ${action.text}\` ${what}; use \`find … -print\` or \`rg --files\``);
};

/**
 * `uniq [IN [OUT]]` writes OUT. GNU getopt: `-f`, `-s`, `-w` take a value; `--group` and
 * `--all-repeated` take one only as `--group=METHOD`, so in `uniq --group in out` the word `in`
 * is the input and `out` is written.
 */
const checkUniq: Checker = (words) => {
  const ops = operands(
    readArgs(words.slice(1), {
      valueShort: 'fsw',
      valueLong: ['skip-fields', 'skip-chars', 'check-chars'],
    }),
  );
  if (ops.some((o) => o.glob))
    return reject('unknown', 'a glob after `uniq` could expand to two files, and uniq writes the second');
  const written = ops[1];
  if (written !== undefined) return reject('mutation', `\`uniq\` writes its second operand (\`${written.text}\`)`);
  return allow('inspection');
};

const checkDate: Checker = (words, ctx) => {
  const denied = deniedCheck('date', WRITE_OPTIONS.date)(words, ctx);
  if (!denied.allowed) return denied;
  const ops = operands(readArgs(words.slice(1), { valueShort: 'dfr', valueLong: ['date', 'file', 'reference'] }));
  const setting = ops.find((o) => !o.text.startsWith('+'));
  return setting === undefined
    ? allow('inspection')
    : reject('mutation', `\`date ${setting.text}\` sets the system clock; a format must start with \`+\``);
};

const checkHostname: Checker = (words, ctx) => {
  const denied = deniedCheck('hostname', WRITE_OPTIONS.hostname)(words, ctx);
  if (!denied.allowed) return denied;
  const op = operands(readArgs(words.slice(1)))[0];
  return op === undefined ? allow('inspection') : reject('mutation', `\`hostname ${op.text}\` sets the host name`);
};

const CHECKERS = new Map<string, Checker>([
  ...PLAIN_READERS.map((n): [string, Checker] => [n, () => allow('inspection')]),
  ...Object.entries(WRITE_OPTIONS).map(([n, rules]): [string, Checker] => [n, deniedCheck(n, rules)]),
  ['find', checkFind],
  ['sed', checkSed],
  ['awk', checkAwk],
  ['gawk', checkAwk],
  ['mawk', checkAwk],
  ['nawk', checkAwk],
  ['jq', checkJq],
  ['yq', checkYq],
  ['uniq', checkUniq],
  ['xxd', checkXxd],
  ['date', checkDate],
  ['hostname', checkHostname],
  ['git', checkGit],
  ['env', checkEnv],
  ['printenv', checkPrintenv],
  ['ps', checkPs],
  ...['set', 'export', 'declare', 'typeset', 'readonly'].map((n): [string, Checker] => [n, checkShellVariables]),
  ['go', checkGo],
  ['cargo', checkCargo],
  ['npm', checkNodePackageManager],
  ['pnpm', checkNodePackageManager],
  ['yarn', checkNodePackageManager],
  ['pytest', (words) => checkPytest(words.slice(1), 'pytest')],
  ['py.test', (words) => checkPytest(words.slice(1), 'py.test')],
  ['python', checkPython],
  ['python3', checkPython],
  ['make', checkMake],
]);

function probe(name: string, words: readonly Word[], ctx: SegmentContext): SegmentVerdict | null {
  const flags = words.slice(1).map((w) => w.text);
  if (flags.length === 0) return null;
  if (!flags.every((t) => PROBE_FLAGS.has(t) || (t === '-v' && VERSION_V.has(name)))) return null;
  const short = flags.some((t) => t === '-h' || t === '-V');
  if (short && SHORT_PROBE_UNSAFE.has(name)) return null;
  if (ctx.piped || ctx.readsFile) {
    // A short `-h`/`-V` is often an ordinary option (`sort -h` sorts human sizes): a program the
    // policy models is judged as itself. `--help`/`--version` fed input stay a disguise.
    if (short && CHECKERS.has(name)) return null;
    return reject(
      'unknown',
      `\`${name}\` reading from a pipe or a file is not a version/help probe; probes must stand alone`,
    );
  }
  return allow('inspection');
}

/** Verdict for one segment's words (already free of redirections). */
export function checkProgram(words: readonly Word[], ctx: SegmentContext): SegmentVerdict {
  const head = words[0];
  if (head === undefined) return reject('unknown', 'the segment has no command');
  const name = head.text;
  if (head.glob) return reject('unknown', `the program name \`${name}\` is a glob`);
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(name)) {
    return reject(
      'unknown',
      `\`${name}\` sets an environment variable for the command, which can change what it runs (pagers, editors, GIT_*)`,
    );
  }
  if (name.includes('/'))
    return reject(
      'unknown',
      `\`${name}\` is a path; programs must be named bare (\`rg\`, not \`./rg\` or \`/usr/bin/rg\`)`,
    );
  if (name === '') return reject('unknown', 'the program name is empty');
  const probed = probe(name, words, ctx);
  if (probed !== null) return probed;
  const checker = CHECKERS.get(name);
  if (checker !== undefined) return checker(words, ctx);
  const why = MUTATING.get(name);
  if (why !== undefined) return reject('mutation', `\`${name}\` ${why}`);
  return reject('unknown', `\`${name}\` is not on the read-only allow-list`);
}
