import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sedScriptProblem } from '../../../src/core/policy/sed';
import { awkProgramProblem } from '../../../src/core/policy/awk';

test('RO-3: sed scripts that only read and print pass', () => {
  for (const s of ['1,80p', '/a/,/b/p', '10p;20p', 's/a/b/g', 's|/usr|/opt|2', '$!N;P;D', '/x/{s/a/b/;p}', 'y/abc/xyz/', '0,/re/d', '1~2p', 'a\\\nappended', 'r other.txt', ':a;N;$!ba;s/\\n/ /g', 's/w/e/']) {
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
  for (const p of ['{print $1}', 'NR>1 {print $2}', '{ if ($3 > 100) print $1 }', 'length > 80', 'END { print NR }', '{ print ($1 > 5) }', '{ n = a / 2; print n }', '/a|b/ { c++ } END { print c }']) {
    assert.equal(awkProgramProblem(p), null, p);
  }
});

test('RO-3: awk side effects and ambiguous regexes are rejected', () => {
  const cases: [string, RegExp][] = [
    ['BEGIN { system("id") }', /system/],
    ['{ "date" | getline d }', /getline/],
    ['{ print > "f" }', /writes a file/],
    ['{ printf("%s", $0) >> "f" }', /writes a file/],
    ['{ print | "sh" }', /runs a command/],
    ['BEGIN { f = "x"; @f() }', /@/],
    ['/"/ { print > "f" }', /ambiguous/],
    ['$0 ~ /[/]"/ { print > "f" }', /inside `\[…\]`/],
    ['{ print x++ / 2 > "f" }', /writes a file/],
    ['{ print "a", "b" > $2 }', /writes a file/],
  ];
  for (const [p, why] of cases) assert.match(awkProgramProblem(p) ?? 'ALLOWED', why, p);
});
