import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sedScriptProblem } from '../../../src/core/policy/sed';
import { awkProgramProblem } from '../../../src/core/policy/awk';
import { checkCommand } from '../../../src/core/policy';

test('RO-3: sed scripts that only read and print pass', () => {
  for (const s of [
    '1,80p',
    '/a/,/b/p',
    '10p;20p',
    's/a/b/g',
    's|/usr|/opt|2',
    '$!N;P;D',
    '/x/{s/a/b/;p}',
    'y/abc/xyz/',
    '0,/re/d',
    '1~2p',
    'a\\\nappended',
    ':a;N;$!ba;s/\\n/ /g',
    's/w/e/',
    '/x/{p;b}',
  ]) {
    assert.equal(sedScriptProblem(s), null, s);
  }
});

test('RO-3: sed scripts that write or execute are named, whatever wraps them', () => {
  const cases: [string, RegExp][] = [
    ['w out', /`w` command writes/],
    ['1,5W out', /`W` command writes/],
    ['s/a/b/w out', /`w` flag/],
    ['s/a/b/gpw out', /`w` flag/],
    ['s/.*/id/e', /`e` flag/],
    ['1e id', /`e` command/],
    ['/x/{p;w out\n}', /writes/],
    ['s,a,b,;w out', /writes/],
    ['s/a\\/w/b/;e', /`e` command/],
  ];
  for (const [s, why] of cases) {
    const p = sedScriptProblem(s);
    assert.ok(p !== null && p.mutates, s);
    assert.match(p.message, why, s);
  }
});

test('RO-3: sed text the parser cannot follow is rejected, not skipped', () => {
  for (const s of ['s/a/b', '/unterminated', '{p', 'p}', 'k', 's/a/b/x']) {
    const p = sedScriptProblem(s);
    assert.ok(p !== null && !p.mutates, s);
  }
});

test('RO-3: awk comparisons and printing pass', () => {
  for (const p of [
    '{print $1}',
    'NR>1 {print $2}',
    '{ if ($3 > 100) print $1 }',
    'length > 80',
    'END { print NR }',
    '{ print ($1 > 5) }',
    '{ n = a / 2; print n }',
    '/a|b/ { c++ } END { print c }',
  ]) {
    assert.equal(awkProgramProblem(p), null, p);
  }
});

test('RO-3: awk side effects and ambiguous regexes are rejected', () => {
  const cases: [string, RegExp][] = [
    ['BEGIN { system("id") }', /system/],
    ['{ "date" | getline d }', /getline/],
    ['{ print > "f" }', /writes a file/],
    ['{ printf("%s", $0) >> "f" }', /writes a file/],
    ['{ print | "sh" }', /pipes to or from a command/],
    ['BEGIN { f = "x"; @f() }', /@/],
    ['/"/ { print > "f" }', /ambiguous/],
    ['$0 ~ /[/]"/ { print > "f" }', /inside `\[…\]`/],
    ['{ print x++ / 2 > "f" }', /writes a file/],
    ['{ print "a", "b" > $2 }', /writes a file/],
  ];
  for (const [p, why] of cases) assert.match(awkProgramProblem(p) ?? 'ALLOWED', why, p);
});

test('RO-3: sed commands that read a file named inside the script (`r`, `R`) are refused: the workspace path rule cannot see it', () => {
  for (const s of ['r /etc/passwd', '1r other.txt', '$R /etc/shadow', '/x/{r f\n}']) {
    const p = sedScriptProblem(s);
    assert.ok(p !== null, s);
    assert.match(p.message, /reads a file named inside the script/, s);
  }
});

test('RO-3: a sed label or branch followed by a blank is refused: GNU sed runs what follows as a command', () => {
  for (const s of [
    ':a w /tmp/f',
    ':a\tw /tmp/f',
    'ba w /tmp/f',
    'b x w f',
    't x e id',
    'T x e id',
    'v 4.2 w /tmp/f',
    '/x/{ba }',
  ]) {
    const p = sedScriptProblem(s);
    assert.ok(p !== null, s);
    assert.match(p.message, /a blank after the label/, s);
  }
  // The label ends at `;` (GNU), so what follows is checked as a command of its own.
  assert.match(sedScriptProblem('b x; e touch y')?.message ?? '', /`e` command/);
  assert.match(sedScriptProblem(':a;w /tmp/f')?.message ?? '', /`w` command/);
  // GNU sed also skips blanks between the flags of `s`.
  assert.match(sedScriptProblem('s/a/b/ w out')?.message ?? '', /`w` flag/);
  assert.match(sedScriptProblem('s/a/b/g e')?.message ?? '', /`e` flag/);
  for (const s of ['b', 'bend', ':a;N;$!ba', 't;p', '/x/{p;b}', 'b x;p', '$!{N;ba}'])
    assert.equal(sedScriptProblem(s), null, s);
});

test('RO-2, RO-3: sed options: -n/-e/--expression/-s/-z/-E combine freely, -e chunks are read as one script as sed joins them, -f is refused', () => {
  const allowed = [
    "sed -n -e '1p' -e '$p' f",
    "sed -ne '/a/p' f",
    "sed --expression='s/a/b/' f",
    "sed -s -n '1p' a b",
    "sed -z 's/a/b/' f",
    "sed -E -n 's/(a)/\\1/p' f",
    'sed -nE -e p f',
    "sed -e '/x/{' -e 'p' -e '}' f",
  ];
  for (const c of allowed)
    assert.equal(checkCommand(c, 'plan').allowed, true, `${c}: ${checkCommand(c, 'plan').reason}`);
  // `a\` continues into the next chunk, so sed reads `w x` as text: checked as sed reads it.
  assert.equal(checkCommand("sed -n -e 'a\\' -e 'w x' f", 'plan').allowed, true);
  const refused: [string, RegExp][] = [
    ["sed -e 's/a/b/' -e 'w out' f", /`w` command/],
    ["sed -n -e p -e '$W out' f", /`W` command/],
    ["sed --expression='1e id' f", /`e` command/],
    ["sed -s -n 'w out' f", /`w` command/],
    ["sed -z -E 's/x/y/e' f", /`e` flag/],
    ['sed -f s.sed f', /reads its script from a file/],
    ['sed -nf s.sed f', /reads its script from a file/],
    ['sed --file=s.sed f', /reads its script from a file/],
    ['sed --fi=s.sed f', /reads its script from a file/],
    ['sed -e -n f', /needs a script/],
    ['sed -ni p f', /in place/],
  ];
  for (const [c, why] of refused) assert.match(checkCommand(c, 'plan').reason ?? 'ALLOWED', why, c);
});

test('RO-3: awk programs naming ENVIRON, PROCINFO, ARGV, ARGC, system, getline, close, fflush or any pipe are refused', () => {
  const cases: [string, RegExp][] = [
    ['BEGIN { print ENVIRON["HOME"] }', /ENVIRON/],
    ['BEGIN { for (k in ENVIRON) print k }', /ENVIRON/],
    ['BEGIN { print PROCINFO["pid"] }', /PROCINFO/],
    ['BEGIN { ARGV[1] = "/etc/passwd"; ARGC = 2 } { print }', /ARGV/],
    ['{ print ARGC }', /ARGC/],
    ['{ close("x") }', /close/],
    ['{ fflush("cmd") }', /fflush/],
    ['{ print $1 | "sort -o out" }', /pipes to or from a command/],
    ['{ print |& "cat" }', /pipes to or from a command/],
    ['{ x = a | b }', /pipes to or from a command/],
    ['{ getline line < "/etc/passwd" }', /getline/],
    ['BEGIN { system("id") }', /system/],
  ];
  for (const [p, why] of cases) assert.match(awkProgramProblem(p) ?? 'ALLOWED', why, p);
  for (const p of ['$1 == 1 || $2 == 2', '/a|b/ { print }', '{ print "a|b" }', '$0 ~ /x|y/'])
    assert.equal(awkProgramProblem(p), null, p);
});

test('RO-3: awk options that load program files, includes or extensions are refused (-f, --file, -i, -l, -E, @include, mawk -W)', () => {
  for (const c of [
    'awk -f p.awk f',
    'awk --file=p.awk f',
    "gawk -i inplace '{print}' f",
    "gawk -l filefuncs 'BEGIN{}'",
    'gawk -E p.awk f',
    'gawk \'@include "x"; {print}\' f',
    'mawk -W exec p.awk f',
    'gawk --exec=p.awk f',
  ]) {
    assert.equal(checkCommand(c, 'plan').allowed, false, c);
  }
  for (const c of ["awk -F, '{print $2}' f", "awk -v n=3 'NR>n' f", "gawk --sandbox '{print}' f", "awk -- '{print}' f"])
    assert.equal(checkCommand(c, 'plan').allowed, true, c);
});
