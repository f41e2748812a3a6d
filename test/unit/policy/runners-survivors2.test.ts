import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason ?? 'ALLOWED' };
}

function assertAllowed(command: string, cls: 'inspection' | 'verification') {
  const v = plan(command);
  assert.deepEqual([v.allowed, v.class], [true, cls], `${command}: ${v.reason}`);
}

function assertRefused(command: string, cls: 'mutation' | 'unknown', reason: RegExp) {
  const v = plan(command);
  assert.deepEqual([v.allowed, v.class], [false, cls], `${command}: ${v.reason}`);
  assert.match(v.reason, reason, command);
}

// pytest

test('RO-2, MODE-1: pytest refuses an @file argument anywhere (argparse reads more options from it, values included)', () => {
  for (const c of ['pytest @/tmp/args.txt', 'pytest -q @args', 'python3 -m pytest -k @/tmp/a', 'pytest tests @a']) {
    assertRefused(c, 'unknown', /@\S+` reads more arguments from a file/);
  }
  // `@` inside a word is not an argument file.
  assertAllowed('pytest -k a@b', 'verification');
});

test('RO-2: a valued pytest option consumes one word only when its value is not attached', () => {
  // With `--tb=short` the next word is an option of its own: `-p` loads a plugin.
  assertRefused('pytest --tb=short -p evil', 'unknown', /`pytest -p` is not on the read-only list/);
  assertRefused('pytest -kfoo -p evil', 'unknown', /`pytest -p` is not on the read-only list/);
  // A separate value is the option's value, even when it starts with a dash (argparse takes `-1`).
  assertAllowed('pytest --durations -1', 'verification');
  assertAllowed('pytest -k -1', 'verification');
});

test('RO-2: pytest flags that take no value are refused with one attached', () => {
  assertRefused('pytest --verbose=2', 'unknown', /`pytest --verbose=2` is not on the read-only list/);
});

test('RO-2: every listed pytest flag and valued option is verification', () => {
  for (const c of [
    'pytest --quiet --verbose --exitfirst -s -l --showlocals',
    'pytest --last-failed --ff --failed-first --nf --new-first --sw --stepwise --co --collect-only',
    'pytest --no-header --no-summary --strict-markers --runxfail --disable-warnings',
    'pytest --durations=5 --capture=no --color=yes --deselect=tests/a.py::b --ignore=tests/x',
    'pytest --durations 5 --capture no --color yes --deselect tests/a.py::b --ignore tests/x',
  ])
    assertAllowed(c, 'verification');
});

test('RO-2: a refused pytest option is named in the reason, with the cluster it came from', () => {
  assertRefused('pytest -p evil', 'unknown', /^`pytest -p` is not on the read-only list \(pytest options that load/);
  assertRefused('pytest -qp evil', 'unknown', /^`pytest -p` \(in `-qp`\) is not on the read-only list/);
  assertRefused(
    'pytest --junitxml=r.xml',
    'unknown',
    /^`pytest --junitxml=r.xml` is not on the read-only list \(pytest/,
  );
  assertRefused('pytest -- -p', 'unknown', /^`pytest --`: the policy does not follow what comes after `--`/);
  assertRefused('python3 -m pytest -p evil', 'unknown', /^`python3 -m pytest -p` is not/);
});

test('RO-2, MODE-1: python runs pytest only as `-m pytest`; any other word before `pytest` is a script', () => {
  for (const c of ['python3 evil.py pytest', 'python3', 'python3 -m', 'python -c 1'])
    assertRefused(c, 'mutation', /^`python3?` is an interpreter: it runs arbitrary code/);
});

// cargo

test('RO-2, MODE-1: cargo clippy --fix and the flags that only make sense with it rewrite sources', () => {
  for (const o of ['--fix', '--allow-dirty', '--allow-staged', '--allow-no-vcs'])
    assertRefused(`cargo clippy ${o}`, 'mutation', new RegExp(`^\`cargo clippy ${o}\` can rewrite sources`));
});

test('RO-2, MODE-1: cargo -Z (unstable features, alone or in a cluster) is refused after any subcommand', () => {
  assertRefused(
    'cargo check -Zunstable-options',
    'mutation',
    /^`cargo check -Z \(in -Zunstable-options\)` can rewrite sources/,
  );
  assertRefused('cargo test -vZ script', 'mutation', /^`cargo test -Z \(in -vZ\)` can rewrite sources/);
});

test('RO-2, MODE-1: only `cargo nextest run` is allowed; another word after a subcommand does not make it nextest', () => {
  assertAllowed('cargo nextest run', 'verification');
  for (const c of ['cargo foo run', 'cargo nextest archive --archive-file x.tar.zst', 'cargo nextest'])
    assertRefused(c, 'unknown', /^`cargo (foo|nextest)` is not on the read-only list/);
});

test('RO-2: cargo global flags, --color and a +toolchain before the subcommand are skipped', () => {
  for (const c of [
    'cargo -v check',
    'cargo -vv test',
    'cargo -q check',
    'cargo --quiet check',
    'cargo --verbose check',
    'cargo --locked check',
    'cargo --offline check',
    'cargo --frozen check',
    'cargo --color=always check',
    'cargo +nightly check',
    'cargo +nightly -v clippy',
  ])
    assertAllowed(c, 'verification');
  assertAllowed('cargo tree', 'inspection');
  assertAllowed('cargo -q metadata', 'inspection');
});

test('RO-2: bare cargo (or only global flags) is refused as usage, naming the allowed subcommands', () => {
  for (const c of ['cargo', 'cargo -v', 'cargo +nightly'])
    assertRefused(c, 'unknown', /^bare `cargo` prints usage; name `check`/);
});

test('RO-2: every cargo subcommand that writes, builds or changes dependencies is a mutation', () => {
  for (const s of [
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
  ])
    assertRefused(`cargo ${s}`, 'mutation', new RegExp(`^\`cargo ${s}\` writes files, builds artifacts`));
  assertRefused('cargo frobnicate', 'unknown', /^`cargo frobnicate` is not on the read-only list/);
});

// npm, pnpm, yarn

test('RO-2: every npm/pnpm/yarn subcommand that installs, changes or runs packages is a mutation', () => {
  for (const s of [
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
  ]) {
    for (const pm of ['npm', 'yarn'])
      assertRefused(`${pm} ${s}`, 'mutation', new RegExp(`^\`${pm} ${s}\` installs, changes or runs packages`));
  }
});

test('RO-2: pnpm runs its test script with `pnpm run-script test` too', () => {
  assertAllowed('pnpm run-script test', 'verification');
});

test('RO-2: a test form with extra words is refused, quoting exactly the extra words', () => {
  assertRefused(
    'npm test -- --grep policy',
    'unknown',
    /^`npm test` takes no further words in plan mode \(`-- --grep policy`\)/,
  );
  assertRefused('npm run test x', 'unknown', /^`npm run test` takes no further words in plan mode \(`x`\)/);
});

test('RO-2: bare yarn installs dependencies (a mutation); bare npm or pnpm is refused as usage', () => {
  assertRefused('yarn', 'mutation', /^bare `yarn` installs dependencies$/);
  assertRefused('npm', 'unknown', /^bare `npm` is not allowed in plan mode \(only `npm test`\)$/);
  assertRefused('pnpm', 'unknown', /^bare `pnpm` is not allowed in plan mode \(only `pnpm test`\)$/);
});

test('RO-2: npm run / run-script name the script they would run; other subcommands name the allowed forms', () => {
  assertRefused('npm run lint', 'unknown', /^`npm run lint` runs a package script; only the `test` script/);
  assertRefused('npm run-script lint', 'unknown', /^`npm run-script lint` runs a package script/);
  assertRefused('npm run', 'unknown', /^`npm run ` runs a package script/);
  assertRefused('npm doctor', 'unknown', /^`npm doctor` is not allowed in plan mode \(only `npm test` and `npm ls`\)$/);
  assertRefused('yarn ls', 'unknown', /^`yarn ls` is not allowed in plan mode/);
});

test('RO-2: npm ls takes every listed display option, depth/omit/include values and versioned package names', () => {
  for (const c of [
    'npm ls -a --json --long -l --parseable -p --link --package-lock-only',
    'npm ls --unicode --no-unicode --prod --production --dev -P -D',
    'npm ls --depth=10 --omit=dev,optional --include=peer',
    'npm ls react@18.2.0 @types/node@^20.1 left-pad@latest',
    'pnpm list --depth=2',
  ])
    assertAllowed(c, 'inspection');
});

test('RO-2: npm ls refuses, naming it, a word that is neither a display option nor a package name', () => {
  for (const odd of ['--prefix=/x--depth=0', '--depth=0/x', 'a/b', 'file:../x', 'react@18/x', '-g'])
    assertRefused(
      `npm ls ${odd}`,
      'unknown',
      new RegExp(`^\`npm ls ${odd.replace(/[.^$*+?()[\]{}|/]/g, '\\$&')}\` is not on`),
    );
});

// go

test('RO-2, MODE-1: a go test option with an attached value does not consume the next word', () => {
  assertRefused('go test -run=TestX -exec ./evil ./...', 'unknown', /^`go test -exec` is not on the read-only list/);
  // go's flag package takes the next word as a value even when it starts with a dash.
  assertAllowed('go test -run -exec ./...', 'verification');
  assertRefused(
    'go test -v=true ./...',
    'unknown',
    /^`go test -v=true` is not on the read-only list \(go test options/,
  );
});

test('RO-2: every listed go test flag and valued flag is verification', () => {
  assertAllowed('go test -v -short -race -cover -failfast -json -benchmem ./...', 'verification');
  assertAllowed(
    'go test -run=A -skip=B -count=1 -timeout=1m -bench=. -benchtime=1s -cpu=1,2 -parallel=2 -p=1 -tags=x -covermode=set -coverpkg=./... -shuffle=on -list=X -vet=off ./...',
    'verification',
  );
  assertAllowed('go test -skip B -bench . -cpu 1 -tags x -vet off ./...', 'verification');
  assertAllowed('go test --run=TestX ./...', 'verification');
});

test('RO-2: go is allowed only as `go test` and a bare `go version`', () => {
  assertAllowed('go version', 'inspection');
  for (const c of ['go', 'go version -m x', 'go vet ./...'])
    assertRefused(c, 'mutation', /^`go` builds, fetches or runs project code \(only `go test` and `go version`/);
});

// make

test('RO-2, MODE-1: make -n refuses a word that merely ends like a dry-run cluster (a makefile or --eval to load)', () => {
  assertRefused(
    'make -n -f/tmp/evil-n',
    'unknown',
    /^`make -f\/tmp\/evil-n` is not allowed in plan mode \(`make -n` takes/,
  );
  assertRefused("make -n '--eval=$(shell touch pwned)-k'", 'unknown', /^`make --eval=/);
});

test('RO-2, MODE-1: only a word that is a dry-run option makes make a dry run', () => {
  // `all-n` is a target: make runs it for real.
  assertRefused('make all-n', 'mutation', /^`make` runs build scripts that can change files \(only the dry run/);
  assertRefused('make -Cnative/sub', 'mutation', /^`make` runs build scripts/);
  for (const c of ['make -sn', 'make --recon', 'make -kn all']) assertAllowed(c, 'verification');
});
