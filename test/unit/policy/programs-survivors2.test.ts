import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

const inspection = { allowed: true, class: 'inspection', reason: null };

test('RO-2 [seed wins]: `-h`/`-V` is no help probe for shells, system-state programs, wrappers and editors, where it means something else', () => {
  for (const name of [
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
    'halt',
    'poweroff',
    'reboot',
    'init',
    'telinit',
    'xargs',
    'env',
    'unbuffer',
    'view',
    'ex',
  ]) {
    for (const flag of ['-h', '-V']) assert.equal(plan(`${name} ${flag}`).allowed, false, `${name} ${flag}`);
  }
  // One short flag among long ones is enough to spoil the probe.
  assert.equal(plan('bash --help -h').allowed, false);
  assert.equal(plan('bash --version -V').allowed, false);
});

test('RO-2 [seed wins]: `-v` is a version probe of the JavaScript runtimes, whose `-v` prints the version', () => {
  for (const name of ['node', 'nodejs', 'npm', 'pnpm', 'yarn', 'bun'])
    assert.deepEqual(plan(`${name} -v`), inspection, name);
  // Elsewhere `-v` is "verbose", and a runtime's other options are no probe.
  assert.equal(plan('rm -v x').allowed, false);
  assert.equal(plan('rm -v').allowed, false);
  assert.equal(plan('node -e x').allowed, false);
  assert.equal(plan('node -v -e x').allowed, false);
});

test('RO-2 [seed wins]: a probe is help/version flags only; a long probe is one for any program, shells included', () => {
  assert.equal(plan('rm --help x').allowed, false);
  assert.deepEqual(plan('bash --version'), inspection);
  assert.deepEqual(plan('rm --help --version'), inspection);
});

test('RO-2 [seed wins]: a help probe stands alone; fed by a pipe it is refused as unknown, naming the program', () => {
  assert.deepEqual(plan('rm --help'), inspection);
  const piped = plan('echo x | rm --help');
  assert.equal(piped.allowed, false);
  assert.equal(piped.class, 'unknown');
  assert.match(piped.reason ?? '', /`rm` reading from a pipe or a file is not a version\/help probe/);
});

test('RO-2: a program name that is a glob, an assignment, a path or empty is refused as unknown, even as a probe', () => {
  assert.deepEqual(plan('r* --help'), {
    allowed: false,
    class: 'unknown',
    reason: 'the program name `r*` is a glob',
  });
  assert.deepEqual(plan('"" --help'), { allowed: false, class: 'unknown', reason: 'the program name is empty' });
  assert.deepEqual(plan('./rg --help').class, 'unknown');
  assert.match(plan('./rg').reason ?? '', /`\.\/rg` is a path/);
  // Only a valid shell name before `=` makes an assignment; `9a=1` is a command name to the shell.
  assert.deepEqual(plan('9a=1 ls'), {
    allowed: false,
    class: 'unknown',
    reason: '`9a=1` is not on the read-only allow-list',
  });
});

test('RO-2: a segment made of a redirection only has no command and is refused saying so', () => {
  assert.deepEqual(plan('< a.txt'), { allowed: false, class: 'unknown', reason: 'the segment has no command' });
});

test('RO-3: programs with write options are inspections without them; `find` actions are refused naming the action', () => {
  assert.deepEqual(plan('sort a.txt'), inspection);
  assert.deepEqual(plan('ls'), inspection);
  assert.deepEqual(plan('find . -name x'), inspection);
  for (const [action, what] of [
    ['-exec', 'runs a command'],
    ['-execdir', 'runs a command'],
    ['-ok', 'runs a command'],
    ['-okdir', 'runs a command'],
    ['-fprint', 'writes a file'],
    ['-fls', 'writes a file'],
  ] as const) {
    assert.deepEqual(
      plan(`find . ${action} x`),
      {
        allowed: false,
        class: 'mutation',
        reason: `\`find ${action}\` ${what}; use \`find … -print\` or \`rg --files\``,
      },
      action,
    );
  }
  assert.deepEqual(plan('find . -delete'), {
    allowed: false,
    class: 'mutation',
    reason: '`find -delete` deletes files; use `find … -print` or `rg --files`',
  });
});

test('RO-3: uniq reads the values of `-f`, `-s`, `-w` and their long forms as values, not as its input file', () => {
  assert.deepEqual(plan('uniq in.txt'), inspection);
  for (const option of ['--skip-fields', '--skip-chars', '--check-chars', '-f', '-s', '-w'])
    assert.deepEqual(plan(`uniq ${option} 1 in.txt`), inspection, option);
  assert.deepEqual(plan('uniq in.txt out.txt'), {
    allowed: false,
    class: 'mutation',
    reason: '`uniq` writes its second operand (`out.txt`)',
  });
  // `--` ends the options (getopt), so the second word after it is the output, dash or not.
  assert.deepEqual(plan('uniq -- in.txt -out'), {
    allowed: false,
    class: 'mutation',
    reason: '`uniq` writes its second operand (`-out`)',
  });
  // One glob among the operands is enough: it may expand to the output file.
  assert.deepEqual(
    plan('uniq in.txt b*').reason,
    'a glob after `uniq` could expand to two files, and uniq writes the second',
  );
  assert.deepEqual(plan('uniq a*'), {
    allowed: false,
    class: 'unknown',
    reason: 'a glob after `uniq` could expand to two files, and uniq writes the second',
  });
});

test('RO-3: `date` with a `+FORMAT` or a date to show is an inspection; any other operand sets the clock', () => {
  for (const command of [
    'date',
    'date +%s',
    'date -d yesterday',
    'date -f dates.txt',
    'date -r a.txt',
    'date --date yesterday',
    'date --file dates.txt',
    'date --reference a.txt',
  ])
    assert.deepEqual(plan(command), inspection, command);
  assert.deepEqual(plan('date 0101'), {
    allowed: false,
    class: 'mutation',
    reason: '`date 0101` sets the system clock; a format must start with `+`',
  });
  assert.deepEqual(plan('date -s 0101'), {
    allowed: false,
    class: 'mutation',
    reason: '`date -s` sets the system clock',
  });
});

test('RO-3: `--` ends the options of `hostname` and `date` (getopt), so a word after it that starts with `-` is the name or date they set', () => {
  assert.deepEqual(plan('hostname -- -x'), {
    allowed: false,
    class: 'mutation',
    reason: '`hostname -x` sets the host name',
  });
  assert.deepEqual(plan('date -- -0101'), {
    allowed: false,
    class: 'mutation',
    reason: '`date -0101` sets the system clock; a format must start with `+`',
  });
  assert.deepEqual(plan('date -- +%s'), inspection);
  assert.deepEqual(plan('hostname --'), inspection);
});

test('RO-3: hostname reads every option as a flag, so a word after one is still the host name it sets', () => {
  for (const command of ['hostname -a box', 'hostname -s box', 'hostname -y box'])
    assert.deepEqual(plan(command), { allowed: false, class: 'mutation', reason: '`hostname box` sets the host name' });
});

test('RO-3: bare `hostname` prints the host name; an operand or `-b`/`-F` sets it', () => {
  assert.deepEqual(plan('hostname'), inspection);
  assert.deepEqual(plan('hostname -f'), inspection);
  assert.deepEqual(plan('hostname box'), {
    allowed: false,
    class: 'mutation',
    reason: '`hostname box` sets the host name',
  });
  assert.deepEqual(plan('hostname -F f'), {
    allowed: false,
    class: 'mutation',
    reason: '`hostname -F` sets the host name',
  });
});

test('RO-2, NAV-2: pytest and py.test are verification; an option that loads plugins is refused naming the program as typed', () => {
  for (const name of ['pytest', 'py.test']) {
    assert.deepEqual(plan(name), { allowed: true, class: 'verification', reason: null });
    assert.match(plan(`${name} -p x`).reason ?? '', new RegExp(`^\`${name.replace('.', '\\.')} -p\``));
  }
});
