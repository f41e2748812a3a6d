import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

const plan = (c: string) => checkCommand(c, 'plan');

test('RO-3: uniq writes its second operand; --group/--all-repeated take no detached value (GNU getopt), and -- ends options', () => {
  const refused = [
    'uniq in out',
    'uniq --group in out',
    'uniq --all-repeated in out',
    'uniq -D in out',
    'uniq -c in out',
    'uniq -- in -out',
    'uniq -f 1 in out',
    'uniq -f1 in out',
    'uniq - out',
    'uniq in src/*.txt',
  ];
  for (const c of refused) assert.equal(plan(c).allowed, false, c);
  assert.match(plan('uniq --group in out').reason ?? '', /writes its second operand \(`out`\)/);
  assert.equal(plan('uniq --group in out').class, 'mutation');
  for (const c of [
    'uniq in',
    'uniq -c sorted.txt',
    'uniq --group sorted.txt',
    'uniq --group=append sorted.txt',
    'uniq -f 1 -s 2 -w 3 in',
    'sort a | uniq -c',
  ]) {
    assert.equal(plan(c).allowed, true, `${c}: ${plan(c).reason}`);
  }
});

test('RO-3: xxd is parsed as xxd does (one option per word, by its first letter): -r in any spelling and any output operand are refused', () => {
  const refused: [string, RegExp][] = [
    ['xxd -r dump.txt', /reverts a dump/],
    ['xxd -revert dump.txt', /reverts a dump/],
    ['xxd --revert dump.txt', /reverts a dump/],
    ['xxd -rps dump.txt', /reverts a dump/],
    ['xxd -r -ps dump.txt out.bin', /reverts a dump/],
    ['xxd -ps -r dump.txt', /reverts a dump/],
    ['xxd in.bin out.txt', /writes its second operand \(`out.txt`\)/],
    ['xxd in.bin -p', /writes its second operand \(`-p`\)/],
    ['xxd -ps in.bin out.txt', /writes its second operand/],
    ['xxd -- in.bin -r', /writes its second operand/],
    ['xxd -c 8 in.bin out.txt', /writes its second operand/],
    ['xxd -cols 8 in.bin out.txt', /separate word or a number/],
    ['xxd -x in.bin', /not on the read-only list/],
    // `-` as the output is stdout, but a second operand is refused whatever it is.
    ['xxd in.bin -', /writes its second operand/],
  ];
  for (const [c, why] of refused) assert.match(plan(c).reason ?? 'ALLOWED', why, c);
  for (const c of [
    'xxd in.bin',
    'xxd -ps in.bin',
    'xxd -p in.bin',
    'xxd -plain in.bin',
    'xxd -c 16 -g 1 in.bin',
    'xxd -c16 -s 0x10 -l 32 in.bin',
    'xxd -i -n name in.bin',
    'xxd -u -C -d in.bin',
    'cat f | xxd',
    'xxd -- in.bin',
  ]) {
    assert.equal(plan(c).allowed, true, `${c}: ${plan(c).reason}`);
  }
});

test('RO-3: sort -o/-T and --output/--temporary-directory write files; -h and -V are sort orders, also in a pipe', () => {
  for (const c of [
    'sort -o out f',
    'sort -uo out f',
    'sort --output=out f',
    'sort --out out f',
    'sort -T . f',
    'sort --temporary-directory=. f',
  ])
    assert.equal(plan(c).allowed, false, c);
  for (const c of [
    'sort -h f',
    'sort -V f',
    'ls | sort -h',
    'git tag | sort -V',
    'du -sh src | sort -rh',
    'sort -h < sizes.txt',
  ])
    assert.equal(plan(c).allowed, true, `${c}: ${plan(c).reason}`);
  // A probe fed input is still no probe.
  for (const c of ['rg --version < evil.sh', 'printf x | python3 --version', 'bash --version < evil.sh'])
    assert.equal(plan(c).allowed, false, c);
});
