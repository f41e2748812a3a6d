import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';
import { checkSed, sedScriptProblem } from '../../../src/core/policy/sed';

// Every "GNU sed writes/runs it" below was confirmed with GNU sed 4.9 (`sed -n '<script>' f`
// created the file); every "GNU sed refuses it" printed a compile error and ran nothing.

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason ?? 'ALLOWED' };
}

function assertWrites(script: string, why: RegExp): void {
  const p = sedScriptProblem(script);
  assert.ok(p !== null, `${JSON.stringify(script)} was allowed`);
  assert.equal(p.mutates, true, `${JSON.stringify(script)}: ${p.message}`);
  assert.match(p.message, why, JSON.stringify(script));
}

function assertRefused(script: string, why: RegExp): void {
  const p = sedScriptProblem(script);
  assert.ok(p !== null, `${JSON.stringify(script)} was allowed`);
  assert.match(p.message, why, JSON.stringify(script));
}

function assertReads(script: string): void {
  assert.equal(sedScriptProblem(script)?.message ?? null, null, JSON.stringify(script));
}

test('RO-3: an unquoted glob as the sed script is refused: the shell would hand sed a file name as its script', () => {
  // With a file named `a x<line break>w out` in the folder, GNU sed runs `sed -n a* notes` as
  // `a x` and `w out`, and writes `out`.
  const cases: [string, string][] = [
    ['sed -n a* notes', 'a*'],
    ['sed -e a* notes', 'a*'],
    ['sed --expression=a* notes', 'a*'],
    ['sed -n -e 1p -e b? notes', 'b?'],
  ];
  for (const [command, script] of cases) {
    const v = plan(command);
    assert.equal(v.class, 'unknown', command);
    assert.match(v.reason, /is an unquoted glob/, command);
    assert.ok(v.reason.includes(`\`${script}\``), `${command}: ${v.reason}`);
  }
  // Globs among the files sed reads stay allowed, and so does a quoted script with `*` in it.
  for (const command of ['sed -n 1p f*', "sed -n 'a*' f*", "sed -e 's/a*/b/' f?"])
    assert.equal(plan(command).allowed, true, command);
});

test('RO-3: a `#` comment ends at its line break, so a `w` on the next line is still found (GNU sed writes it)', () => {
  assertWrites('# note\nw out', /the `w` command writes a file/);
  assertWrites('p # note\nw out', /the `w` command writes a file/);
  assertWrites('#n\n1e id', /the `e` command runs a shell command/);
  // A comment itself only reads, at the start of a line or after a command.
  assertReads('# print the first line\n1p');
  assertReads('p # trailing note');
  assertReads('/x/{ # open\np\n} # close');
});

test('RO-3: a label ends at a tab or a line break as GNU sed ends it, so a `w` right after is not read as part of the label', () => {
  // GNU sed writes the file `;x` for each of these.
  assertRefused(':a\tw;x', /a blank after the label of `:`/);
  assertRefused('ba\tw;x\n:a', /a blank after the label of `b`/);
  assertWrites(':a\nw;x', /the `w` command writes a file/);
  assertWrites('ba\nw;x\n:a', /the `w` command writes a file/);
});

test('RO-3: `a`/`i`/`c` text ends at an unescaped line break, so the next line is checked as a command (GNU sed writes `out`)', () => {
  assertWrites('a foo\nw out', /the `w` command writes a file/);
  assertWrites('a fo\nw out', /the `w` command writes a file/);
  assertWrites('1i x\nw out', /the `w` command writes a file/);
  assertWrites('$c bar\ne id', /the `e` command runs a shell command/);
  // A trailing backslash continues the text; an escaped backslash does not.
  assertReads('a foo\\\nw out');
  assertWrites('a foo\\\\\nw out', /the `w` command writes a file/);
  for (const s of ['i\\\nheader', 'c\\\nreplaced', '1i foo', '$a end', '/x/c bar']) assertReads(s);
});

test('RO-3: a line break inside an address, an `s` or a `y` part is refused, as GNU sed refuses it (unterminated)', () => {
  assertRefused('/a\nw out/p', /line break inside the address/);
  assertRefused('s/a\nw out/b/', /line break inside the `s` pattern/);
  assertRefused('s/a/b\nw out/', /line break inside the `s` replacement/);
  assertRefused('y/a\nb/cd/', /line break inside the `y` source/);
  assertRefused('y/ab/c\nd/', /line break inside the `y` target/);
  // An escaped line break stays inside the part (a multi-line replacement).
  assertReads('s/a/b\\\nc/');
});

test('RO-3: `+N` and `~N` are only a second address: as a first address GNU sed refuses them', () => {
  assertRefused('+3p', /unsupported command `\+`/);
  assertRefused('~2p', /unsupported command `~`/);
  for (const s of ['/x/,+2p', '1,~4p', '0~4p', '2,+0p']) assertReads(s);
  assertRefused('1,+p', /`\+` needs a number/);
  assertRefused('1,~p', /`~` needs a number/);
  assertRefused('1~p', /`~` needs a step number/);
});

test('RO-3: addresses with digits up to 9, a custom `\\c…c` delimiter and the I/M flags read', () => {
  for (const s of ['9p', '19p', '1,9d', '\\%/usr%p', '\\,a\\,b,p', '/A/Ip', '/a/Mp', '/a/IMp', '\\%a%I,\\%b%Mp'])
    assertReads(s);
  for (const s of ['\\', '\\\na\np', '\\\\a\\\\p', '1,\\']) assertRefused(s, /bad regular expression delimiter/);
});

test('RO-3: every read-only sed command with no argument reads, and so do the counted ones with their number', () => {
  for (const c of ['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']) {
    assertReads(c);
    assertReads(`1${c};$${c}`);
  }
  for (const s of ['l', 'l 5', 'L', 'q', 'q5', 'Q', 'Q 1', '/x/q 3']) assertReads(s);
  // Blanks between address, `!` and command are spaces or tabs.
  for (const s of ['1 p', '1\tp', '1 , 3 ! p', '1,3!\tp']) assertReads(s);
});

test('RO-3: what the parser cannot follow is named: the command, the character after it, the missing part', () => {
  assertRefused('px', /unexpected `x` after a command/);
  assertRefused('k/a/b/', /unsupported command `k`/);
  assertRefused('1', /an address needs a command/);
  assertRefused('/x/,$', /an address needs a command/);
  assertRefused('{p', /unbalanced `\{`/);
  assertRefused('p}', /unbalanced `\}`/);
  assertRefused('}{p', /unbalanced `\}`/);
  assertRefused(':', /`:` needs a label/);
  assertRefused(':;p', /`:` needs a label/);
  assertRefused('/abc', /unterminated address/);
  assertRefused('/ab\\', /unterminated address/);
  assertRefused('s/abc', /unterminated `s` pattern/);
  assertRefused('s/a/bc', /unterminated `s` replacement/);
  assertRefused('y/abc', /unterminated `y` source/);
  assertRefused('y/abc/xy', /unterminated `y` target/);
  for (const s of ['s', 's\na\nb\n', 's\\a\\b\\', 'y', 'y\nab\ncd\n']) assertRefused(s, /bad delimiter/);
});

test('RO-3: `s` takes any number as its occurrence flag, 9 and 10 included', () => {
  for (const s of ['s/a/b/9', 's/a/b/10', 's/a/b/2g', 's/a/b/Ip']) assertReads(s);
});

test('RO-2: the read-only long options of sed are allowed, with their values attached or detached', () => {
  for (const opt of [
    '--quiet',
    '--silent',
    '--debug',
    '--posix',
    '--regexp-extended',
    '--separate',
    '--sandbox',
    '--unbuffered',
    '--null-data',
    '--help',
    '--version',
    '--line-length=5',
    '--line-length 5',
  ]) {
    const c = `sed ${opt} -n p f`;
    assert.deepEqual(plan(c), { allowed: true, class: 'inspection', reason: 'ALLOWED' }, c);
  }
  assert.equal(plan('sed -n --expression p f').allowed, true);
  // After `--` every word is a script or a file, even one starting with `-`.
  assert.equal(plan('sed -n -- p -x').allowed, true);
});

test('RO-2, RO-3: in-place editing is refused under every spelling, as a mutation', () => {
  // GNU sed edits `g` in place for `--in=.bak` and `--i=.bak`; BSD sed's -I is in-place too.
  for (const c of ['sed -I p f', 'sed --in-place=.bak p f', 'sed --in=.bak p f', 'sed --i p f']) {
    const v = plan(c);
    assert.equal(v.class, 'mutation', c);
    assert.match(v.reason, /edits files in place/, c);
  }
});

test('RO-2: options that are not on the read-only list are refused, naming the option', () => {
  assert.deepEqual(plan('sed --follow-symlinks p f'), {
    allowed: false,
    class: 'unknown',
    reason: 'sed option `--follow-symlinks` is not on the read-only list',
  });
  assert.match(plan('sed -b p f').reason, /sed option `-b` is not on the read-only list/);
});

test('RO-2: sed without a script is refused as unknown, naming what is missing', () => {
  assert.deepEqual(plan('sed -n'), { allowed: false, class: 'unknown', reason: 'sed needs a script' });
  assert.deepEqual(plan('sed -e -n f'), { allowed: false, class: 'unknown', reason: '`sed -e` needs a script' });
  assert.equal(plan('sed -f s.sed f').class, 'unknown');
});

test('MODE-1, RO-3: a sed script that writes is classified a mutation in every mode, an unparseable one unknown', () => {
  for (const mode of ['plan', 'build'] as const) {
    assert.equal(checkCommand("sed 'w out' f", mode).class, 'mutation', mode);
    assert.equal(checkCommand("sed 's/a/b/e' f", mode).class, 'mutation', mode);
    assert.equal(checkCommand("sed 'k' f", mode).class, 'unknown', mode);
  }
  // A read-only sed is an inspection, whatever program decides the whole command's class.
  const words = ['sed', '-n', '1p', 'f'].map((text) => ({ text, glob: false }));
  assert.deepEqual(checkSed(words), { allowed: true, class: 'inspection', reason: null });
});
