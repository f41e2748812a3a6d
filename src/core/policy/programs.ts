/**
 * What each program may do in plan mode (RO-2, RO-3): the inspection heads, the per-program
 * write options, the build/test commands that count as verification (NAV-2), version/help probes
 * [seed wins], and the programs known to write, run code or reach the network (with the reason a
 * user is shown). A program in none of these tables is `unknown` and rejected.
 */
import { awkProgramProblem } from './awk';
import { findDenied, operands, readArgs, type DenySpec, type Word } from './args';
import { checkGit } from './git';
import { sedScriptProblem } from './sed';
import { allow, reject, type SegmentVerdict } from './verdict';

export interface SegmentContext {
  /** Standard input comes from the previous pipeline segment. */
  piped: boolean;
  /** Standard input comes from a `<` redirection. */
  readsFile: boolean;
}

type Checker = (words: readonly Word[], ctx: SegmentContext) => SegmentVerdict;

/** Programs that only read and print whatever their options (none writes or runs anything). */
const PLAIN_READERS = [
  'cat', 'head', 'tail', 'wc', 'stat', 'which', 'ls', 'grep', 'egrep', 'fgrep', 'jq', 'du', 'df',
  'pwd', 'basename', 'dirname', 'realpath', 'readlink', 'cut', 'tr', 'nl', 'column', 'paste', 'comm',
  'join', 'fold', 'fmt', 'rev', 'tac', 'od', 'hexdump', 'strings', 'diff', 'cmp', 'md5sum', 'sha1sum',
  'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'base64', 'echo', 'true',
  'false', 'test', '[', 'printenv', 'uname', 'whoami', 'id', 'nproc', 'arch', 'uptime', 'free', 'ps',
  'locale', 'getconf', 'seq', 'expand', 'unexpand', 'whereis', 'type', 'tokei', 'numfmt', 'cd',
] as const;

const PLAIN_READER_SET: ReadonlySet<string> = new Set(PLAIN_READERS);

/** True for programs that have no option that writes or runs anything, so any word is safe to pass them. */
export function isPlainReader(name: string): boolean {
  return PLAIN_READER_SET.has(name);
}

/** Programs whose listed options write a file or run another program. */
const DENIED_OPTIONS: Record<string, { deny: DenySpec; why: string }> = {
  rg: { deny: { long: ['pre', 'hostname-bin'] }, why: 'runs another program for every file' },
  fd: { deny: { short: 'xX', long: ['exec', 'exec-batch'] }, why: 'runs a command for every match' },
  fdfind: { deny: { short: 'xX', long: ['exec', 'exec-batch'] }, why: 'runs a command for every match' },
  sort: { deny: { short: 'o', long: ['output', 'compress-program'] }, why: 'writes a file or runs a compressor' },
  tree: { deny: { short: 'oR', long: ['output'] }, why: 'writes the listing to files' },
  date: { deny: { short: 's', long: ['set'] }, why: 'sets the system clock' },
  file: { deny: { short: 'C', long: ['compile'] }, why: 'compiles and writes a magic file' },
  yq: { deny: { short: 'is', long: ['inplace', 'split-exp'] }, why: 'writes files' },
  printf: { deny: { short: 'v' }, why: 'assigns a shell variable instead of printing' },
  hostname: { deny: { short: 'bF', long: ['boot', 'file'] }, why: 'sets the host name' },
};

const FIND_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls']);

const PROBE_FLAGS = new Set(['-h', '--help', '-V', '--version']);
/** Programs for which `-h` / `-V` mean something other than help/version (`sh -h` runs stdin, `shutdown -h` halts). */
const SHORT_PROBE_UNSAFE = new Set([
  'sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'busybox', 'shutdown',
  'halt', 'poweroff', 'reboot', 'init', 'telinit', 'screen', 'xargs', 'env', 'expect', 'unbuffer',
  // Editors and pagers: `vim -V` is "verbose", not "version", and starts the editor.
  'vi', 'vim', 'nvim', 'view', 'ex', 'ed', 'emacs', 'nano', 'pico', 'micro', 'less', 'more', 'most',
]);

function group(names: string, why: string): [string, string][] {
  return names.split(/\s+/).filter(Boolean).map((n) => [n, why]);
}

/** Known non-read-only programs and the reason shown for them. */
const MUTATING = new Map<string, string>([
  ...group('rm rmdir mv cp mkdir touch chmod chown chgrp ln link unlink dd tee truncate install shred mkfifo mknod mktemp rsync patch split csplit sponge setfacl chattr', 'creates, changes or deletes files'),
  ...group('tar zip unzip gzip gunzip bzip2 bunzip2 xz unxz zstd 7z ar cpio', 'creates or extracts archives'),
  ...group('vi vim nvim nano emacs ed ex pico micro code less more most view', 'is an interactive editor or pager that can write files or run commands'),
  ...group('sh bash dash zsh ksh mksh ash fish csh tcsh busybox pwsh powershell', 'is a shell: it runs arbitrary commands'),
  ...group('python python2 python3 node nodejs deno bun perl ruby php lua luajit tclsh Rscript julia osascript java jshell dotnet irb', 'is an interpreter: it runs arbitrary code'),
  ...group('nice nohup timeout stdbuf time command builtin exec eval source . xargs parallel watch sudo doas su runuser chroot setsid flock ionice taskset strace ltrace gdb script unbuffer expect', 'runs another command, which the policy cannot see; run the inner command directly'),
  ...group('export set unset declare typeset readonly local alias unalias shopt ulimit umask trap kill pkill killall', 'changes shell or process state'),
  ...group('curl wget nc ncat netcat telnet ftp sftp scp ssh http https aria2c socat ping', 'reaches the network'),
  ...group('pip pip3 pipx uv poetry gem bundle apt apt-get dpkg yum dnf apk brew port pacman snap flatpak conda composer rustup npx bunx', 'installs packages or builds and runs project code'),
  ...group('make cmake ninja gradle gradlew mvn ant bazel meson', 'runs build scripts that can change files'),
  ...group('systemctl service shutdown reboot halt poweroff crontab at mount umount useradd userdel passwd docker podman kubectl', 'changes system state'),
  ...group('ldd', 'may execute the binary it inspects'),
]);

function deniedCheck(name: string): Checker {
  const spec = DENIED_OPTIONS[name] as { deny: DenySpec; why: string };
  return (words) => {
    const hit = findDenied(words.slice(1), spec.deny);
    return hit === null ? allow('inspection') : reject('mutation', `\`${name} ${hit}\` ${spec.why}`);
  };
}

const checkFind: Checker = (words) => {
  const action = words.slice(1).find((w) => FIND_ACTIONS.has(w.text));
  if (action === undefined) return allow('inspection');
  const what = action.text.startsWith('-exec') || action.text.startsWith('-ok') ? 'runs a command' : action.text === '-delete' ? 'deletes files' : 'writes a file';
  return reject('mutation', `\`find ${action.text}\` ${what}; use \`find … -print\` or \`rg --files\``);
};

const SED_SHORT_OK = 'nErsuzel';
const SED_LONG_OK = new Set(['quiet', 'silent', 'debug', 'expression', 'line-length', 'posix', 'regexp-extended', 'separate', 'sandbox', 'unbuffered', 'null-data', 'help', 'version']);

const checkSed: Checker = (words) => {
  const args = readArgs(words.slice(1), { valueShort: 'el', valueLong: ['expression', 'line-length'], doubleDash: true });
  const scripts: string[] = [];
  for (const a of args) {
    if (a.kind === 'operand') continue;
    const flag = a.kind === 'short' ? a.flag : a.name;
    if (flag === 'i' || flag === 'I' || (a.kind === 'long' && 'in-place'.startsWith(flag))) {
      return reject('mutation', `\`sed ${a.word}\` edits files in place`);
    }
    if (flag === 'f' || (a.kind === 'long' && 'file'.startsWith(flag))) {
      return reject('unknown', `\`sed ${a.word}\` reads its script from a file the policy cannot check`);
    }
    const known = a.kind === 'short' ? SED_SHORT_OK.includes(flag) : SED_LONG_OK.has(flag);
    if (!known) return reject('unknown', `sed option \`${a.word}\` is not on the read-only list`);
    if ((flag === 'e' || flag === 'expression') && a.value !== undefined) scripts.push(a.value);
    if ((flag === 'e' || flag === 'expression') && a.value === undefined) return reject('unknown', '`sed -e` needs a script');
  }
  if (scripts.length === 0) {
    const first = operands(args)[0];
    if (first === undefined) return reject('unknown', 'sed needs a script');
    scripts.push(first.text);
  }
  for (const script of scripts) {
    const problem = sedScriptProblem(script);
    if (problem !== null) return reject(problem.mutates ? 'mutation' : 'unknown', problem.message);
  }
  return allow('inspection');
};

const AWK_SHORT_OK = 'FvS';
const AWK_LONG_OK = new Set(['field-separator', 'assign', 'sandbox', 'posix', 'traditional', 're-interval', 'characters-as-bytes']);

const checkAwk: Checker = (words) => {
  const name = (words[0] as Word).text;
  const args = readArgs(words.slice(1), { valueShort: 'Fv', valueLong: ['field-separator', 'assign'], doubleDash: true });
  for (const a of args) {
    if (a.kind === 'operand') continue;
    const known = a.kind === 'short' ? AWK_SHORT_OK.includes(a.flag) : AWK_LONG_OK.has(a.name);
    if (!known) return reject('unknown', `${name} option \`${a.word}\` is not on the read-only list (program files, extensions, profiles and dumps are not allowed)`);
  }
  const program = operands(args)[0];
  if (program === undefined) return reject('unknown', `${name} needs a program`);
  const problem = awkProgramProblem(program.text);
  return problem === null ? allow('inspection') : reject('mutation', problem);
};

/** A second operand is an output file for these. */
function singleInput(name: string, options: Parameters<typeof readArgs>[1]): Checker {
  return (words) => {
    const ops = operands(readArgs(words.slice(1), options));
    if (ops.some((o) => o.glob)) return reject('unknown', `a glob after \`${name}\` could expand to two files, and ${name} writes the second`);
    if (ops.length > 1) return reject('mutation', `\`${name}\` writes its second operand (\`${ops[1]?.text}\`)`);
    return allow('inspection');
  };
}

const checkDate: Checker = (words) => {
  const denied = deniedCheck('date')(words, { piped: false, readsFile: false });
  if (!denied.allowed) return denied;
  const ops = operands(readArgs(words.slice(1), { valueShort: 'dfr', valueLong: ['date', 'file', 'reference'] }));
  const setting = ops.find((o) => !o.text.startsWith('+'));
  return setting === undefined ? allow('inspection') : reject('mutation', `\`date ${setting.text}\` sets the system clock; a format must start with \`+\``);
};

const checkHostname: Checker = (words) => {
  const denied = deniedCheck('hostname')(words, { piped: false, readsFile: false });
  if (!denied.allowed) return denied;
  const op = operands(readArgs(words.slice(1)))[0];
  return op === undefined ? allow('inspection') : reject('mutation', `\`hostname ${op.text}\` sets the host name`);
};

const CARGO_GLOBAL_OK = new Set(['-v', '-vv', '-q', '--quiet', '--verbose', '--locked', '--offline', '--frozen']);
const CARGO_VERIFY = new Set(['check', 'test', 'clippy']);
const CARGO_INSPECT = new Set(['metadata', 'tree']);
const CARGO_MUTATE = new Set(['build', 'b', 'run', 'r', 'install', 'uninstall', 'fix', 'publish', 'add', 'remove', 'rm', 'update', 'clean', 'new', 'init', 'doc', 'bench', 'fmt', 'vendor', 'generate-lockfile', 'login', 'logout', 'owner', 'yank', 'package']);

const checkCargo: Checker = (words) => {
  let i = 1;
  if (words[i]?.text.startsWith('+')) i += 1;
  while (words[i] !== undefined && ((words[i] as Word).text.startsWith('--color') || CARGO_GLOBAL_OK.has((words[i] as Word).text))) i += 1;
  const sub = words[i]?.text;
  const rest = words.slice(i + 1);
  const hit = findDenied(rest, { short: 'Z', long: ['fix', 'allow-dirty', 'allow-staged', 'allow-no-vcs', 'config'] });
  if (sub === undefined) return reject('unknown', 'bare `cargo` prints usage; name `check`, `test`, `clippy`, `metadata`, `tree` or `nextest run`');
  if (CARGO_MUTATE.has(sub)) return reject('mutation', `\`cargo ${sub}\` writes files, builds artifacts or changes dependencies`);
  if (hit !== null) return reject('mutation', `\`cargo ${sub} ${hit}\` can rewrite sources or inject configuration`);
  if (CARGO_VERIFY.has(sub)) return allow('verification');
  if (CARGO_INSPECT.has(sub)) return allow('inspection');
  if (sub === 'nextest' && rest[0]?.text === 'run') return allow('verification');
  return reject('unknown', `\`cargo ${sub}\` is not on the read-only list`);
};

const NPM_VALUE_FLAGS = new Set(['--prefix', '-w', '--workspace', '--filter', '-F', '-C', '--dir']);
const NPM_FLAGS = new Set(['--silent', '-s', '-ws', '--workspaces', '--if-present', '-r', '--recursive']);
const NPM_TEST = new Set(['test', 't', 'tst']);
const NPM_MUTATE = new Set(['install', 'i', 'ci', 'add', 'remove', 'rm', 'uninstall', 'un', 'update', 'up', 'upgrade', 'publish', 'exec', 'x', 'dlx', 'link', 'unlink', 'prune', 'dedupe', 'init', 'create', 'pack', 'version', 'set', 'config', 'patch', 'import', 'rebuild', 'start', 'restart', 'stop', 'cache']);

const checkNodePackageManager: Checker = (words) => {
  const name = (words[0] as Word).text;
  let i = 1;
  while (words[i] !== undefined) {
    const t = (words[i] as Word).text;
    if (NPM_FLAGS.has(t) || /^--(prefix|workspace|filter|dir)=/.test(t)) i += 1;
    else if (NPM_VALUE_FLAGS.has(t)) i += 2;
    else break;
  }
  const sub = words[i]?.text;
  const runsScript = sub === 'run' || sub === 'run-script';
  if (sub !== undefined && (NPM_TEST.has(sub) || (runsScript && words[i + 1]?.text === 'test'))) return allow('verification');
  if (sub === undefined) {
    // Bare `yarn` installs dependencies; bare npm/pnpm print usage.
    return name === 'yarn' ? reject('mutation', 'bare `yarn` installs dependencies') : reject('unknown', `bare \`${name}\` is not allowed in plan mode (only \`${name} test\`)`);
  }
  if (NPM_MUTATE.has(sub)) return reject('mutation', `\`${name} ${sub}\` installs, changes or runs packages`);
  if (runsScript) return reject('unknown', `\`${name} ${sub} ${words[i + 1]?.text ?? ''}\` runs a package script; only the \`test\` script is allowed in plan mode`);
  return reject('unknown', `\`${name} ${sub}\` is not allowed in plan mode (only \`${name} test\`)`);
};

const checkEnv: Checker = (words) =>
  words.length === 1 ? allow('inspection') : reject('mutation', '`env` with arguments runs another command or changes its environment; run the inner command directly');

const checkGo: Checker = (words) =>
  words.length === 2 && words[1]?.text === 'version' ? allow('inspection') : reject('mutation', '`go` builds, fetches or runs project code (only `go version` is allowed)');

const CHECKERS = new Map<string, Checker>([
  ...PLAIN_READERS.map((n): [string, Checker] => [n, () => allow('inspection')]),
  ...Object.keys(DENIED_OPTIONS).map((n): [string, Checker] => [n, deniedCheck(n)]),
  ['find', checkFind],
  ['sed', checkSed],
  ['awk', checkAwk],
  ['gawk', checkAwk],
  ['mawk', checkAwk],
  ['nawk', checkAwk],
  ['uniq', singleInput('uniq', { valueShort: 'fsw', valueLong: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated'] })],
  ['xxd', singleInput('xxd', { valueShort: 'cglosn' })],
  ['date', checkDate],
  ['hostname', checkHostname],
  ['git', checkGit],
  ['env', checkEnv],
  ['go', checkGo],
  ['cargo', checkCargo],
  ['npm', checkNodePackageManager],
  ['pnpm', checkNodePackageManager],
  ['yarn', checkNodePackageManager],
]);

function probe(name: string, words: readonly Word[], ctx: SegmentContext): SegmentVerdict | null {
  if (words.length < 2 || !words.slice(1).every((w) => PROBE_FLAGS.has(w.text))) return null;
  const short = words.slice(1).some((w) => w.text === '-h' || w.text === '-V');
  if (short && SHORT_PROBE_UNSAFE.has(name)) return null;
  if (ctx.piped || ctx.readsFile) {
    return reject('unknown', `\`${name}\` reading from a pipe or a file is not a version/help probe; probes must stand alone`);
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
    return reject('unknown', `\`${name}\` sets an environment variable for the command, which can change what it runs (pagers, editors, GIT_*)`);
  }
  if (name.includes('/')) return reject('unknown', `\`${name}\` is a path; programs must be named bare (\`rg\`, not \`./rg\` or \`/usr/bin/rg\`)`);
  if (name === '') return reject('unknown', 'the program name is empty');
  const probed = probe(name, words, ctx);
  if (probed !== null) return probed;
  const checker = CHECKERS.get(name);
  if (checker !== undefined) return checker(words, ctx);
  const why = MUTATING.get(name);
  if (why !== undefined) return reject('mutation', `\`${name}\` ${why}`);
  return reject('unknown', `\`${name}\` is not on the read-only allow-list`);
}
