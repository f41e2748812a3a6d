import { test, beforeEach, afterEach } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileGlob, findFilesTool, grepTool, parseGitignore } from '../../../src/core/tools';
import { createNodeSearch, jsSearch, locateRipgrep, ripgrepCandidates, ripgrepOnPath } from '../../../src/node/search';
import type { Search } from '../../../src/core/ports';
import { ctxFor, findRipgrep, makeWorkspace, type Workspace } from './helpers';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
  ws.write('.gitignore', '# build output\ndist/\n*.log\n/secret.txt\n!keep.log\n');
  ws.write('src/app.ts', 'import { helper } from "./util";\nexport function main() {\n  return helper(1);\n}\n');
  ws.write('src/util.ts', 'export function helper(n: number) {\n  return n + 1; // TODO tidy\n}\n');
  ws.write('src/nested/deep.test.ts', 'test("helper", () => {});\n');
  ws.write('src/nested/.gitignore', 'generated.ts\n');
  ws.write('src/nested/generated.ts', 'export const helper = 0;\n');
  ws.write('docs/notes.md', 'Helper notes\nTODO: more\n');
  ws.write('.github/workflows/ci.yml', 'run: npm test # helper\n');
  ws.write('dist/app.js', 'function helper(){}\n');
  ws.write('debug.log', 'helper failed\n');
  ws.write('keep.log', 'helper kept\n');
  ws.write('secret.txt', 'helper secret\n');
  ws.write('node_modules/lib/index.js', 'helper\n');
  ws.write('.git/config', 'helper\n');
  ws.write('.vtcode/sessions/s1.jsonl', '{"text":"helper"}\n');
  ws.write('bin/blob.bin', Buffer.concat([Buffer.from('helper'), Buffer.from([0, 1, 2, 3])]));
  fs.symlinkSync(path.join(ws.root, 'src'), path.join(ws.root, 'src-link'));
});
afterEach(() => ws.cleanup());

const EXPECTED_HELPER = [
  '.github/workflows/ci.yml:1: run: npm test # helper',
  'keep.log:1: helper kept',
  'src/app.ts:1: import { helper } from "./util";',
  'src/app.ts:3: return helper(1);',
  'src/nested/deep.test.ts:1: test("helper", () => {});',
  'src/util.ts:1: export function helper(n: number) {',
];

const rgPath = findRipgrep();
const searches: Array<[string, () => Search]> = [
  ['JS fallback', () => jsSearch],
  [
    'ripgrep',
    () => {
      assert.ok(
        rgPath,
        'no rg binary: install VS Code into .cache with scripts/harness/setup.sh, put rg on PATH or set VTPLAN_RG',
      );
      return createNodeSearch({ rgPath });
    },
  ],
];

for (const [label, make] of searches) {
  test(`grep (${label}) skips .git, node_modules, .vtcode, binaries, symlinks and .gitignore-d files, in path order`, async () => {
    const r = await grepTool.run({ pattern: 'helper' }, ctxFor(ws, { search: make() }));
    assert.ok(r.ok, r.content);
    assert.deepEqual(r.content.split('\n'), EXPECTED_HELPER);
    assert.equal(r.summary, 'grep "helper": 6 matches in 5 files');
    assert.deepEqual(r.data, { matches: 6, files: 5, limitReached: false });
  });

  test(`grep (${label}) narrows by path and glob, fixed strings, case, max_results`, async () => {
    const ctx = ctxFor(ws, { search: make() });
    const byGlob = await grepTool.run({ pattern: 'helper', glob: '*.test.ts' }, ctx);
    assert.equal(byGlob.content, 'src/nested/deep.test.ts:1: test("helper", () => {});');
    const byPath = await grepTool.run({ pattern: 'return', path: 'src/util.ts' }, ctx);
    assert.equal(byPath.content, 'src/util.ts:2: return n + 1; // TODO tidy');
    const fixed = await grepTool.run({ pattern: 'helper(1)', fixed_strings: true }, ctx);
    assert.equal(fixed.content, 'src/app.ts:3: return helper(1);');
    const caseless = await grepTool.run({ pattern: 'HELPER NOTES', case_insensitive: true, path: 'docs' }, ctx);
    assert.equal(caseless.content, 'docs/notes.md:1: Helper notes');
    const cased = await grepTool.run({ pattern: 'HELPER NOTES', path: 'docs' }, ctx);
    assert.equal(cased.empty, true);
    assert.match(cased.content, /^No matches for `HELPER NOTES` in docs\.$/);
    // Past the cap, ripgrep returns the first matches its threads found; they still come in path order.
    const limited = await grepTool.run({ pattern: 'helper', max_results: 2 }, ctx);
    const shown = limited.content
      .split('\n')
      .slice(0, 2)
      .map((line) => EXPECTED_HELPER.indexOf(line));
    assert.ok(shown.every((i) => i >= 0) && (shown[0] as number) < (shown[1] as number), limited.content);
    assert.match(limited.content, /\[stopped at 2 matches; narrow the pattern, path or glob to see the rest\]$/);
    assert.equal(limited.data?.limitReached, true);
  });

  test(`grep (${label}) reports an invalid regular expression as a tool error`, async () => {
    const r = await grepTool.run({ pattern: 'helper(' }, ctxFor(ws, { search: make() }));
    assert.equal(r.ok, false);
    assert.match(r.content, /^grep could not search for `helper\(`: /);
  });

  test(`find_files (${label}) matches names at any depth or anchored paths, honouring .gitignore`, async () => {
    const ctx = ctxFor(ws, { search: make() });
    const ts = await findFilesTool.run({ glob: '*.ts' }, ctx);
    assert.deepEqual(ts.content.split('\n'), ['src/app.ts', 'src/nested/deep.test.ts', 'src/util.ts']);
    const anchored = await findFilesTool.run({ glob: 'src/*.ts' }, ctx);
    assert.deepEqual(anchored.content.split('\n'), ['src/app.ts', 'src/util.ts']);
    const under = await findFilesTool.run({ glob: '*.ts', path: 'src/nested' }, ctx);
    assert.equal(under.content, 'src/nested/deep.test.ts');
    const braces = await findFilesTool.run({ glob: '*.{md,yml}' }, ctx);
    assert.deepEqual(braces.content.split('\n'), ['.github/workflows/ci.yml', 'docs/notes.md']);
    const none = await findFilesTool.run({ glob: '*.rs' }, ctx);
    assert.equal(none.empty, true);
    assert.equal(none.content, 'No files match `*.rs`.');
    const capped = await findFilesTool.run({ glob: '*.ts', max_results: 1 }, ctx);
    assert.match(capped.content, /^src\/(app|util|nested\/deep\.test)\.ts\n\[stopped at 1 paths/);
  });

  test(`grep (${label}) shows a match deep in a long line, cut around it, and holds no more of the line`, async () => {
    ws.write('dist-min/bundle.js', `${'a'.repeat(50_000)}deepHelperCall(${'b'.repeat(50_000)}\n`);
    const r = await grepTool.run({ pattern: 'deepHelperCall' }, ctxFor(ws, { search: make() }));
    assert.ok(r.ok, r.content);
    assert.match(r.content, /^dist-min\/bundle\.js:1: …a+deepHelperCall\(b+…$/);
    const port = await make().grep({
      root: ws.root,
      pattern: 'deepHelperCall',
      fixed: true,
      caseInsensitive: false,
      maxResults: 5,
      maxLineChars: 300,
    });
    assert.equal(port.matches.length, 1);
    assert.ok(
      (port.matches[0]?.text.length ?? Infinity) <= 300,
      `excerpt of ${port.matches[0]?.text.length} characters`,
    );
  });

  test(`grep (${label}) cuts a long line around the match by characters when multi-byte text comes before, after or inside it`, async () => {
    const lines = [
      `${'é'.repeat(3000)}needleX${'z'.repeat(3000)}`,
      `${'a'.repeat(3000)}needleX${'ü😀'.repeat(3000)}`,
      `${'😀'.repeat(3000)}needleX${'ж'.repeat(3000)}`,
      `${'q'.repeat(3000)}needleX€😀${'r'.repeat(3000)}`,
    ];
    ws.write('wide/lines.txt', `${lines.join('\n')}\n`);
    const r = await make().grep({
      root: path.join(ws.root, 'wide'),
      pattern: 'needleX.',
      fixed: false,
      caseInsensitive: false,
      maxResults: 10,
      maxLineChars: 41,
    });
    assert.deepEqual(
      r.matches.map((m) => m.text),
      [
        `…${'é'.repeat(15)}needleXz${'z'.repeat(16)}…`,
        // A cut never splits a surrogate pair: one unit less at the end, or at the start.
        `…${'a'.repeat(15)}needleXü${'😀ü'.repeat(5)}…`,
        `…${'😀'.repeat(7)}needleXж${'ж'.repeat(16)}…`,
        `…${'q'.repeat(15)}needleX€😀${'r'.repeat(14)}…`,
      ],
    );
  });

  test(`grep (${label}): when the cap and the preview cut both apply, the notice says there are more matches than shown`, async () => {
    ws.write('many.txt', Array.from({ length: 400 }, (_, i) => `needle ${i}`).join('\n'));
    const r = await grepTool.run(
      { pattern: 'needle', max_results: 100 },
      ctxFor(ws, { search: make(), previewBytes: 600 }),
    );
    assert.equal(r.data?.limitReached, true);
    assert.match(
      r.content,
      /\[output cut to the preview limit: showed \d+ of \d+ bytes\. \d+ of the first 100 matching lines shown; the search stopped at 100 matches and there are more\. Narrow the pattern, path or glob\.\]$/,
    );
  });

  test(`find_files (${label}): when the cap and the preview cut both apply, the notice says there are more paths than shown`, async () => {
    for (let i = 0; i < 60; i++) ws.write(`gen/file-${String(i).padStart(2, '0')}.ts`, '');
    const r = await findFilesTool.run(
      { glob: 'gen/*.ts', max_results: 50 },
      ctxFor(ws, { search: make(), previewBytes: 400 }),
    );
    assert.equal(r.data?.limitReached, true);
    assert.match(
      r.content,
      /\d+ of the first 50 paths shown; the search stopped at 50 paths and there are more\. Narrow the glob or the path\.\]$/,
    );
  });

  test(`find_files (${label}) reads globs and .gitignore as git and ripgrep do: \`[]]\`, an escaped trailing space`, async () => {
    ws.write('edge/.gitignore', 'trail\\ \nplain \n[]]x.txt\n');
    for (const name of ['trail ', 'trail', 'plain', ']x.txt', ']y.txt', 'a.txt']) ws.write(`edge/${name}`, '');
    const ctx = ctxFor(ws, { search: make() });
    const all = await findFilesTool.run({ glob: '*', path: 'edge' }, ctx);
    // `trail\ ` ignores the name with the space only; `plain ` loses its unescaped trailing space.
    assert.deepEqual(all.content.split('\n'), ['edge/.gitignore', 'edge/]y.txt', 'edge/a.txt', 'edge/trail']);
    const bracket = await findFilesTool.run({ glob: '[]]*' }, ctx);
    assert.equal(bracket.content, 'edge/]y.txt');
    const notBracket = await findFilesTool.run({ glob: '[!]]*.txt', path: 'edge' }, ctx);
    assert.equal(notBracket.content, 'edge/a.txt');
  });

  test(`grep and find_files (${label}) order paths folder by folder: a/b.txt before a.txt`, async () => {
    ws.write('order/a.txt', 'helper order\n');
    ws.write('order/a/b.txt', 'helper order\n');
    ws.write('order/a-z.txt', 'helper order\n');
    const ctx = ctxFor(ws, { search: make() });
    const grep = await grepTool.run({ pattern: 'helper order', path: 'order' }, ctx);
    assert.deepEqual(grep.content.split('\n'), [
      'order/a/b.txt:1: helper order',
      'order/a-z.txt:1: helper order',
      'order/a.txt:1: helper order',
    ]);
    const files = await findFilesTool.run({ glob: '*.txt', path: 'order' }, ctx);
    assert.deepEqual(files.content.split('\n'), ['order/a/b.txt', 'order/a-z.txt', 'order/a.txt']);
  });
}

test('grep: a search root outside the workspace is refused before searching', async () => {
  const r = await grepTool.run({ pattern: 'x', path: '../outside' }, ctxFor(ws, { search: jsSearch }));
  assert.equal(r.error?.code, 'outside_workspace');
});

test('NAV-5: grep output is cut to the preview limit with a hint to narrow it', async () => {
  ws.write('many.txt', Array.from({ length: 400 }, (_, i) => `needle ${i}`).join('\n'));
  const r = await grepTool.run(
    { pattern: 'needle', max_results: 400 },
    ctxFor(ws, { search: jsSearch, previewBytes: 2048 }),
  );
  assert.ok(Buffer.byteLength(r.content) <= 2048);
  assert.match(r.content, /\d+ of 400 matching lines shown; narrow the pattern, path or glob\.\]$/);
});

test('globs: *, ?, **, [..], {a,b}; a slash anchors the glob at the root', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/deep/a.ts', true],
    ['*.ts', 'a.tsx', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/deep/a.ts', false],
    ['src/*.ts', 'lib/src/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['**/test/*.ts', 'a/b/test/x.ts', true],
    ['file?.md', 'file1.md', true],
    ['file?.md', 'file10.md', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'b.txt', false],
    ['*.{js,ts}', 'x/y.js', true],
    ['docs/', 'docs', true],
    ['/secret.txt', 'secret.txt', true],
    ['/secret.txt', 'a/secret.txt', false],
    ['*', '.hidden', true],
    ['[]]', ']', true],
    ['[]]', 'a', false],
    ['[!]]', 'a', true],
    ['[!]]', ']', false],
    ['a\\ ', 'a ', true],
    ['a\\ ', 'a', false],
    ['a\\*', 'a*', true],
    ['a\\*', 'ab', false],
  ];
  for (const [glob, p, expected] of cases) assert.equal(compileGlob(glob).matches(p), expected, `${glob} vs ${p}`);
  assert.throws(() => compileGlob('*.{ts'), /^Error: invalid glob "\*\.\{ts": Missing closing: "\}"/);
  assert.throws(() => compileGlob('[ab'), /^Error: invalid glob "\[ab": Missing closing: "\]"/);
  assert.throws(() => compileGlob(''), /empty/);
});

test('.gitignore: comments, negation, folder-only rules, anchoring; the last matching rule wins', () => {
  const rules = parseGitignore('# c\n\nbuild/\n*.log\n!keep.log\n/root-only.txt\nsrc/gen/\n');
  assert.equal(rules.decide('build', true), true);
  assert.equal(rules.decide('build', false), undefined);
  assert.equal(rules.decide('a/b/x.log', false), true);
  assert.equal(rules.decide('keep.log', false), false);
  assert.equal(rules.decide('root-only.txt', false), true);
  assert.equal(rules.decide('sub/root-only.txt', false), undefined);
  assert.equal(rules.decide('src/gen', true), true);
  assert.equal(rules.decide('x/src/gen', true), undefined);
  const edges = parseGitignore('trail\\ \nplain \n[]]\nCase.txt\n');
  assert.equal(rules.decide('build/out.js', false), true, 'a file below an ignored folder is ignored');
  assert.equal(edges.decide('trail ', false), true);
  assert.equal(edges.decide('trail', false), undefined);
  assert.equal(edges.decide('plain', false), true);
  assert.equal(edges.decide(']', false), true);
  assert.equal(edges.decide('case.txt', false), undefined, 'names compare case-sensitively, as git on Linux');
});

test('ripgrep is found below a VS Code appRoot in either package layout', async () => {
  const appRoot = path.join(ws.base, 'app');
  assert.equal(await locateRipgrep(appRoot), undefined);
  const universal = path.join(
    appRoot,
    'node_modules/@vscode/ripgrep-universal/bin',
    `${process.platform}-${process.arch}`,
    'rg',
  );
  fs.mkdirSync(path.dirname(universal), { recursive: true });
  fs.writeFileSync(universal, '#!/bin/sh\n', { mode: 0o755 });
  assert.equal(await locateRipgrep(appRoot), universal);
  const classic = path.join(appRoot, 'node_modules/@vscode/ripgrep/bin/rg');
  fs.mkdirSync(path.dirname(classic), { recursive: true });
  fs.writeFileSync(classic, '#!/bin/sh\n', { mode: 0o644 });
  assert.equal(await locateRipgrep(appRoot), universal, 'a non-executable file is skipped');
  fs.chmodSync(classic, 0o755);
  assert.equal(await locateRipgrep(appRoot), classic);
  assert.ok(ripgrepCandidates('/app', 'win32', 'x64').every((c) => c.endsWith('rg.exe')));
});

test("the CLI's rg is the first executable file named rg in an absolute PATH folder", () => {
  const dirs = ['plain', 'folder', 'exec', 'later'].map((d) => path.join(ws.base, d));
  for (const d of dirs) fs.mkdirSync(d);
  fs.writeFileSync(path.join(dirs[0] as string, 'rg'), '#!/bin/sh\n', { mode: 0o644 });
  fs.mkdirSync(path.join(dirs[1] as string, 'rg'));
  fs.writeFileSync(path.join(dirs[2] as string, 'rg'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dirs[3] as string, 'rg'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(ws.root, 'rg'), '#!/bin/sh\n', { mode: 0o755 });
  const cwd = process.cwd();
  process.chdir(ws.root);
  try {
    // '' and '.' (the current folder, here holding an executable rg) are passed over.
    assert.equal(ripgrepOnPath(['', '.', ...dirs].join(':'), 'linux'), path.join(dirs[2] as string, 'rg'));
    assert.equal(ripgrepOnPath(['.', dirs[0], dirs[1]].join(':'), 'linux'), undefined);
    assert.equal(ripgrepOnPath(undefined, 'linux'), undefined);
  } finally {
    process.chdir(cwd);
  }
});

test('EXEC-5: an aborted search rejects as cancelled in both implementations; the grep tool reports it', async () => {
  const controller = new AbortController();
  controller.abort();
  for (const search of searches.map(([, make]) => make())) {
    await assert.rejects(
      search.grep({
        root: ws.root,
        pattern: 'helper',
        fixed: false,
        caseInsensitive: false,
        maxResults: 10,
        maxLineChars: 300,
        signal: controller.signal,
      }),
      /cancelled/,
    );
    await assert.rejects(
      search.findFiles({ root: ws.root, glob: '*.ts', maxResults: 10, signal: controller.signal }),
      /cancelled/,
    );
  }
  const ctx = ctxFor(ws, { search: jsSearch });
  const running = new AbortController();
  ctx.signal = running.signal;
  const slow: Search = {
    grep: (req) =>
      new Promise((_, reject) => {
        // On a loaded machine the signal can fire before the tool reaches the search.
        const cancel = (): void => reject(new Error('the search was cancelled'));
        if (req.signal?.aborted) cancel();
        else req.signal?.addEventListener('abort', cancel);
      }),
    findFiles: jsSearch.findFiles,
  };
  ctx.ports = { ...ctx.ports, search: slow };
  setTimeout(() => running.abort(), 20);
  const r = await grepTool.run({ pattern: 'helper' }, ctx);
  assert.equal(r.error?.code, 'cancelled');
  assert.equal(r.content, 'grep was cancelled.');
});

test('grep (JS fallback) reads a file in chunks: a line across a chunk boundary, a character split by it and the line numbers after it are right', async () => {
  // 1 MiB chunks: the 'é' (2 bytes in UTF-8) straddles the first boundary, inside the matching line.
  const head = 'x\n'.repeat(524_286); // 1,048,572 bytes
  const content = `${head}ab é helperAcross\nafter\nhelperLast`;
  assert.equal(Buffer.byteLength(`${head}ab `) + 1, 1024 * 1024, 'the first byte of é is the last of the chunk');
  ws.write('big.txt', content);
  const r = await jsSearch.grep({
    root: path.join(ws.root, 'big.txt'),
    pattern: 'helper',
    fixed: false,
    caseInsensitive: false,
    maxResults: 10,
    maxLineChars: 300,
  });
  assert.deepEqual(
    r.matches.map((m) => [m.line, m.text]),
    [
      [524_287, 'ab é helperAcross'],
      [524_289, 'helperLast'],
    ],
  );
});

test("grep (JS fallback) finds plain text that a chunk boundary splits, where it looks for the text's bytes before decoding lines", async () => {
  // The first 1 MiB chunk ends after "hel": only the bytes kept from its end let the next chunk find "helper".
  const head = 'x\n'.repeat(524_286); // 1,048,572 bytes
  const content = `${head}ahelperSplit\nafter\n`;
  assert.equal(Buffer.byteLength(`${head}ahel`), 1024 * 1024, '"hel" ends the first chunk');
  ws.write('split.txt', content);
  for (const fixed of [true, false]) {
    const r = await jsSearch.grep({
      root: path.join(ws.root, 'split.txt'),
      pattern: 'helperSplit',
      fixed,
      caseInsensitive: false,
      maxResults: 10,
      maxLineChars: 300,
    });
    assert.deepEqual(
      r.matches.map((m) => [m.line, m.text]),
      [[524_287, 'ahelperSplit']],
      `fixed: ${fixed}`,
    );
  }
});

test('EXEC-5: a stop signal fired while the JS fallback searches ends it with "cancelled"', async () => {
  for (let i = 0; i < 50; i++) ws.write(`tree/d${i}/f.txt`, 'helper\n');
  const controller = new AbortController();
  const grep = jsSearch.grep({
    root: ws.root,
    pattern: 'helper',
    fixed: false,
    caseInsensitive: false,
    maxResults: 1000,
    maxLineChars: 300,
    signal: controller.signal,
  });
  const find = jsSearch.findFiles({ root: ws.root, glob: '*.txt', maxResults: 1000, signal: controller.signal });
  // Both have started (each ran up to its first await) and neither can have finished yet.
  controller.abort();
  // Both watched at once: the second may reject while the first is awaited.
  await Promise.all([
    assert.rejects(grep, /the search was cancelled/),
    assert.rejects(find, /the search was cancelled/),
  ]);
});

/** Resolves once no process has this pid (it ended and was reaped); the test's timeout bounds the wait. */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      assert.equal((err as NodeJS.ErrnoException).code, 'ESRCH');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test(
  'EXEC-5: a stop signal fired while ripgrep runs kills it: the search rejects as cancelled and the process is gone',
  { skip: process.platform === 'win32', timeout: 60_000 },
  async () => {
    // A stand-in for rg that records its pid and then never ends on its own.
    const pidFile = path.join(ws.base, 'rg.pid');
    const fakeRg = path.join(ws.base, 'fake-rg');
    fs.writeFileSync(
      fakeRg,
      `#!/bin/sh\necho $$ > '${pidFile}.tmp' && mv '${pidFile}.tmp' '${pidFile}'\nexec sleep 600\n`,
      { mode: 0o755 },
    );
    for (const run of [
      (signal: AbortSignal) =>
        createNodeSearch({ rgPath: fakeRg }).grep({
          root: ws.root,
          pattern: 'helper',
          fixed: false,
          caseInsensitive: false,
          maxResults: 10,
          maxLineChars: 300,
          signal,
        }),
      (signal: AbortSignal) =>
        createNodeSearch({ rgPath: fakeRg }).findFiles({ root: ws.root, glob: '*.ts', maxResults: 10, signal }),
    ]) {
      fs.rmSync(pidFile, { force: true });
      const controller = new AbortController();
      const search = run(controller.signal);
      const pid = await new Promise<number>((resolve) => {
        const poll = (): void => {
          if (fs.existsSync(pidFile)) resolve(Number(fs.readFileSync(pidFile, 'utf8')));
          else setImmediate(poll);
        };
        poll();
      });
      assert.doesNotThrow(() => process.kill(pid, 0), 'the stand-in is running before the stop signal');
      controller.abort();
      await assert.rejects(search, /the search was cancelled/);
      // The search settles once SIGKILL is sent; the process then ends and Node reaps it.
      await gone(pid);
    }
  },
);

test(
  'EXEC-5: a stopped ripgrep search settles without waiting for rg to close its output, and rg ends',
  { skip: process.platform === 'win32', timeout: 60_000 },
  async () => {
    // A stand-in for rg that prints matches, leaves a child holding its output open (as a
    // preprocessor would) and never ends on its own: the search must not wait for the pipe.
    const pidFile = path.join(ws.base, 'rg.pid');
    const holderFile = path.join(ws.base, 'holder.pid');
    const fakeRg = path.join(ws.base, 'fake-rg');
    const match = (n: number): string =>
      JSON.stringify({
        type: 'match',
        data: { path: { text: `f${n}.txt` }, lines: { text: 'helper\n' }, line_number: n, submatches: [] },
      });
    fs.writeFileSync(
      fakeRg,
      [
        '#!/bin/sh',
        `sleep 120 & echo $! > '${holderFile}'`,
        `echo $$ > '${pidFile}.tmp' && mv '${pidFile}.tmp' '${pidFile}'`,
        `printf '%s\\n' '${match(1)}' '${match(2)}' '${match(3)}'`,
        'exec sleep 600',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const waitForPid = (file: string): Promise<number> =>
      new Promise((resolve) => {
        const poll = (): void => {
          if (fs.existsSync(file)) resolve(Number(fs.readFileSync(file, 'utf8')));
          else setTimeout(poll, 5);
        };
        poll();
      });
    const grep = (maxResults: number, signal?: AbortSignal) =>
      createNodeSearch({ rgPath: fakeRg }).grep({
        root: ws.root,
        pattern: 'helper',
        fixed: false,
        caseInsensitive: false,
        maxResults,
        maxLineChars: 300,
        ...(signal === undefined ? {} : { signal }),
      });
    const holders: number[] = [];
    try {
      // The cap: the third match stops the search, which comes back with the first two.
      const capped = await grep(2);
      holders.push(await waitForPid(holderFile));
      assert.deepEqual(
        capped.matches.map((m) => m.line),
        [1, 2],
      );
      assert.equal(capped.limitReached, true);
      const cappedPid = await waitForPid(pidFile);
      await gone(cappedPid);

      // The stop signal.
      fs.rmSync(pidFile, { force: true });
      fs.rmSync(holderFile, { force: true });
      const controller = new AbortController();
      const running = grep(100, controller.signal);
      const pid = await waitForPid(pidFile);
      holders.push(await waitForPid(holderFile));
      controller.abort();
      await assert.rejects(running, /the search was cancelled/);
      await gone(pid);
    } finally {
      for (const holder of holders) process.kill(holder, 'SIGKILL');
    }
  },
);
