/**
 * Issue 14 item 5 (RO-3): every option that makes a reading program write a file, run another
 * program or decompress through one is refused in plan mode, with the option as written and the
 * reason. First VT Code's deny-lists, program by program, then the rest of the class found in the
 * programs' own manuals, then the look-alikes that must stay allowed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCliCaptured } from '../../fixtures/cli';
import { checkCommand } from '../../../src/core/policy';

const plan = (c: string) => checkCommand(c, 'plan');

type Row = readonly [command: string, reason: RegExp];

/** VT Code's deny-lists (command_safety and execpolicy), one row per denied flag and spelling. */
const VT_CODE: Readonly<Record<string, readonly Row[]>> = {
  git: [
    ['git diff --output=patch.diff', /`git diff --output=patch\.diff` writes its output to a file/],
    ['git log -p --output patch.diff', /`git log --output` writes its output to a file/],
    ['git diff --ext-diff', /`git diff --ext-diff` runs the repository's external diff program/],
    ['git log -p --textconv', /`git log --textconv` runs the repository's text-conversion filters/],
    ['git log --exec=helper', /`git log --exec=helper` names a program for git to run/],
    ['git -p log', /`git -p` runs the pager program/],
    ['git --paginate log', /`git --paginate` runs the pager program/],
    ['git -c core.pager=cat status', /`git -c` \/ `--config-env` injects configuration/],
    ['git -ccore.pager=cat status', /injects configuration/],
    ['git --config-env=core.pager=HOME log', /injects configuration/],
    ['git --config-env core.pager=HOME log', /injects configuration/],
    ['git --exec-path=/tmp log', /`git --exec-path=\/tmp` picks the folder git runs its helper programs from/],
    ['git --git-dir=/tmp/repo status', /points git at another repository/],
    ['git --work-tree /tmp status', /points git at another working tree/],
    ['git --namespace=x log', /namespace the policy does not follow/],
    ['git --super-prefix=x/ status', /internal to git/],
  ],
  rg: [
    ['rg --pre xz pattern', /`rg --pre` runs a preprocessor program on every file/],
    ['rg --pre=xz pattern', /`rg --pre=xz` runs a preprocessor program/],
    ["rg --pre-glob '*.gz' pattern", /`rg --pre-glob` picks the files a `--pre` preprocessor program runs on/],
    ['rg -z pattern', /`rg -z` decompresses files through external programs/],
    ['rg -nz pattern', /`rg -z \(in -nz\)` decompresses/],
    ['rg --search-zip pattern', /`rg --search-zip` decompresses/],
    ['rg --hostname-bin=helper pattern', /`rg --hostname-bin=helper` runs a program to find the host name/],
  ],
  find: [
    ['find . -exec rm {} \\;', /`find -exec` runs a command/],
    ['find . -execdir rm {} +', /`find -execdir` runs a command/],
    ['find . -ok rm {} \\;', /`find -ok` runs a command/],
    ['find . -okdir rm {} \\;', /`find -okdir` runs a command/],
    ['find . -delete', /`find -delete` deletes files/],
    ['find . -fls out', /`find -fls` writes a file/],
    ['find . -fprint out', /`find -fprint` writes a file/],
    ['find . -fprint0 out', /`find -fprint0` writes a file/],
    ['find . -fprintf out %p', /`find -fprintf` writes a file/],
  ],
  base64: [
    ['base64 -o out a.txt', /`base64 -o` writes the result to a file/],
    ['base64 -oout a.txt', /`base64 -o \(in -oout\)` writes the result to a file/],
    ['base64 --output out a.txt', /`base64 --output` writes the result to a file/],
    ['base64 --output=out a.txt', /`base64 --output=out` writes the result to a file/],
  ],
  sed: [
    ["sed 's/a/b/e' a.txt", /runs|command/],
    ["sed 's/a/b/w out' a.txt", /writes|file/],
    ['sed -i s/a/b/ a.txt', /edits files in place/],
  ],
  cargo: [
    ['cargo fmt', /`cargo fmt` writes files/],
    ['cargo clean', /`cargo clean` writes files/],
  ],
};

/** The rest of the class: options of programs on our allow-list that VT Code does not list. */
const CLASS: readonly Row[] = [
  ['git grep --textc foo', /`git grep --textc` runs the repository's text-conversion filters/],
  ['git cat-file --textconv HEAD:a.bin', /text-conversion filters/],
  ['git cat-file --filt HEAD:a.bin', /`git cat-file --filt` runs the repository's clean, smudge and process filters/],
  ['git blame --textconv a.bin', /text-conversion filters/],
  ['git range-diff --output=x a b c', /`git range-diff --output=x` writes its output to a file/],
  ['git stash show --output=x', /`git stash show --output=x` writes its output to a file/],
  ['git reflog show --ext-diff', /`git reflog show --ext-diff` runs the repository's external diff program/],
  ['git grep --open foo', /`git grep --open` opens the matching files in a pager program/],
  ['git grep -nOvim foo', /`git grep -O \(in -nOvim\)` opens the matching files in a pager program/],
  ['git log --show-signature -1', /`git log --show-signature` runs the signature-verification program/],
  ['git log --format=%G? -1', /`git log --format=%G\?`: the `%G` placeholders run the signature-verification program/],
  ['git log --pretty=format:%GS -1', /the `%G` placeholders/],
  ['git help --web log', /`git help --web` starts a web browser/],
  ['git --bare log', /bare repository/],
  [
    'sort --compress-program=gzip a.txt',
    /`sort --compress-program=gzip` runs a compression program on its temporary files/,
  ],
  ['sort --compress=gzip a.txt', /runs a compression program/],
  ['sort -T /tmp a.txt', /`sort -T` writes its temporary files into the named folder/],
  ['sort -uo out a.txt', /`sort -o \(in -uo\)` writes the sorted result to a file/],
  ['diff -l a b', /`diff -l` passes its output through the `pr` program/],
  ['diff --pag a b', /`diff --pag` passes its output through the `pr` program/],
  ['file -C -m magic', /`file -C` compiles a magic file and writes the result/],
  ['file --comp -m magic', /`file --comp` compiles a magic file/],
  ['file -z a.gz', /`file -z` decompresses the files it reads/],
  ['file -Z a.gz', /`file -Z` decompresses/],
  ['file --uncompress-noreport a.gz', /decompresses/],
  ['file -p a.txt', /`file -p` writes the access times of the files it reads back to them/],
  ['tree -o out', /`tree -o` writes the listing to a file/],
  ['tree -R', /`tree -R` writes a listing file/],
  ['fd -l', /`fd -l` runs `ls -l` on the matches/],
  ['fd --list-details', /runs `ls -l`/],
  ['fd --exec-batch rm', /`fd --exec-batch` runs a command on the matches/],
  ['date -s now', /`date -s` sets the system clock/],
  ['man -P ./evil ls', /`man` runs a pager and formatters/],
  ['man -H ls', /`man` runs a pager and formatters/],
  ['info ls', /`info` is an interactive editor or pager/],
  ['less README.md', /`less` is an interactive editor or pager/],
  ['xxd -r dump out', /reverts a dump/],
  ['tar -tf a.tar', /`tar` creates or extracts archives/],
  ['unzip -l a.zip', /`unzip` creates or extracts archives/],
];

/** Look-alikes that read and must stay allowed. */
const ALLOWED: readonly string[] = [
  'git diff --text a.bin',
  'git grep --text foo',
  'git diff --no-textconv',
  'git diff --no-ext-diff',
  'git log -p --no-ext-diff -1',
  'git diff --output-indicator-new=+',
  'git ls-files -o',
  'git grep -o foo',
  'git log --format=%H%x09%s -1',
  "git log --format='%%G is literal' -1",
  'git log -c -1',
  'rg --pretty foo',
  'rg -n -w foo src',
  'sort -h sizes.txt',
  'diff -u a b',
  'file -b README.md',
  'base64 a.txt',
  'tree -L 2',
  'fd -e ts',
  'date +%F',
];

test("RO-3 (issue 14 item 5): every flag on VT Code's deny-lists is refused in plan mode with the option as written and the reason", () => {
  for (const [program, rows] of Object.entries(VT_CODE)) {
    for (const [command, reason] of rows) {
      const v = plan(command);
      assert.equal(v.allowed, false, `${program}: ${command}`);
      assert.match(v.reason ?? '', reason, `${program}: ${command}`);
    }
  }
});

test('RO-3 (issue 14 item 5): the rest of the class (options that write, run a program or decompress through one) is refused with its reason', () => {
  for (const [command, reason] of CLASS) {
    const v = plan(command);
    assert.equal(v.allowed, false, command);
    assert.match(v.reason ?? '', reason, command);
  }
});

test('RO-3: options that write or run programs are classed as mutation; the look-alikes stay allowed', () => {
  for (const command of [
    'git diff --output=x',
    'rg -z foo',
    'sort --compress-program=gzip a',
    'file -z a.gz',
    'diff -l a b',
    'base64 -o o a',
    'git -p log',
  ]) {
    assert.equal(plan(command).class, 'mutation', command);
  }
  for (const command of ALLOWED) {
    const v = plan(command);
    assert.equal(v.allowed, true, `${command}: ${v.reason}`);
  }
});

test('RO-3: a glob that could expand to an option is refused for programs that now have write options (diff, base64)', () => {
  for (const command of ['diff * b.txt', 'base64 *'])
    assert.match(plan(command).reason ?? 'ALLOWED', /begins with `-`/, command);
});

test('ADD-2, RO-3: vtplan check-command keeps its JSON contract for the new refusals', async () => {
  const { code, out } = await runCliCaptured(['check-command', '--json', '--', 'rg -z foo | head -3']);
  assert.equal(code, 1);
  const reason =
    'segment 1 of 2 (`rg -z foo`): `rg -z` decompresses files through external programs (gzip, xz, bzip2, zstd, …) found on PATH';
  assert.deepEqual(JSON.parse(out), {
    allowed: false,
    class: 'mutation',
    reason,
    segments: [
      { command: 'rg -z foo', allowed: false, reason: reason.replace(/^segment 1 of 2 \(`rg -z foo`\): /, '') },
      { command: 'head -3', allowed: true, reason: null },
    ],
    root: '/',
    paths: { allowed: true, reason: null },
  });
});
