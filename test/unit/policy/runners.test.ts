import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

const plan = (c: string) => checkCommand(c, 'plan');

test('RO-2: npm/pnpm/yarn test take no further word in plan mode: extra words reach the test command', () => {
  for (const c of [
    'npm test',
    'npm t',
    'npm tst',
    'npm run test',
    'npm run-script test',
    'pnpm test',
    'pnpm t',
    'pnpm run test',
    'yarn test',
    'yarn run test',
  ]) {
    assert.deepEqual([plan(c).allowed, plan(c).class], [true, 'verification'], c);
  }
  const refused = [
    'npm test -- --import=data:text/javascript,console.log',
    'npm test -- --require=./evil.js',
    'npm test --node-options=--require=./evil.js',
    'npm test --script-shell=./evil.sh',
    'npm test --prefix /tmp',
    'npm t x',
    'npm test -- --grep policy',
    'npm run test -- --watch',
    'npm run-script test x',
    'pnpm test --filter x',
    'yarn test --watch',
    'yarn run test x',
  ];
  for (const c of refused) assert.match(plan(c).reason ?? 'ALLOWED', /takes no further words in plan mode/, c);
  // Options before the subcommand are words too.
  for (const c of [
    'npm --prefix /tmp test',
    'npm -w a test',
    'npm --silent test',
    'pnpm -C sub test',
    'yarn --cwd x test',
  ])
    assert.equal(plan(c).allowed, false, c);
});

test('RO-2: npm -v / --version / ls, node -v / --version are read-only and allowed; npm ls keeps to display options', () => {
  for (const c of [
    'npm -v',
    'npm --version',
    'node -v',
    'node --version',
    'pnpm -v',
    'yarn -v',
    'npm ls',
    'npm list',
    'npm ls --all',
    'npm ls --depth=0',
    'npm ls react',
    'npm ls @types/node --json',
    'pnpm ls --json',
  ]) {
    assert.deepEqual([plan(c).allowed, plan(c).class], [true, 'inspection'], `${c}: ${plan(c).reason}`);
  }
  for (const c of [
    'npm ls -g',
    'npm ls --global',
    'npm ls --prefix=/tmp',
    'yarn list',
    'node -v x',
    'node -e 1',
    'printf x | node -v',
  ])
    assert.equal(plan(c).allowed, false, c);
});

test('RO-2: pytest and python -m pytest are verification; options that load plugins or config, or write reports, are refused', () => {
  for (const c of [
    'pytest',
    'py.test',
    'pytest -q',
    'pytest -x -vv tests/test_a.py::test_b',
    "pytest -k 'a and not b' -m slow",
    'pytest --tb=short --maxfail=2',
    'pytest -rA --lf',
    'python -m pytest',
    'python3 -m pytest -q tests',
  ]) {
    assert.deepEqual([plan(c).allowed, plan(c).class], [true, 'verification'], `${c}: ${plan(c).reason}`);
  }
  for (const c of [
    'pytest -p evil',
    'pytest -pevil',
    'pytest -qp evil',
    'pytest -c /tmp/p.ini',
    'pytest --rootdir=/tmp',
    'pytest -o addopts=-pevil',
    'pytest --override-ini=x',
    'pytest --junitxml=r.xml',
    'pytest -W error::evil.W',
    'pytest --pdbcls=evil:P',
    'pytest --pyargs os',
    'pytest --confcutdir=/',
    'pytest -- -p',
    'python -m pytest -p evil',
    'python3 -c 1',
    'python3 -m http.server',
    'python3 x.py',
  ]) {
    assert.equal(plan(c).allowed, false, c);
  }
});

test('RO-2: go test ./... is verification; go test options that run programs, write files or pass arguments on are refused', () => {
  for (const c of [
    'go test ./...',
    'go test .',
    'go test -v -run TestX ./pkg/...',
    'go test -run=TestX -count=1 -race ./...',
    'go test -short -timeout 30s ./...',
  ]) {
    assert.deepEqual([plan(c).allowed, plan(c).class], [true, 'verification'], `${c}: ${plan(c).reason}`);
  }
  assert.equal(plan('go version').class, 'inspection');
  for (const c of [
    'go test -exec ./evil ./...',
    'go test -toolexec=./evil ./...',
    'go test -o t.bin ./...',
    'go test -c ./...',
    'go test -coverprofile=c.out ./...',
    'go test ./... -args -x',
    'go test -C /tmp ./...',
    'go test -modfile=x.mod ./...',
    'go test -mod=mod ./...',
    'go test -ldflags=-X ./...',
    'go test -fuzz=F ./...',
    'go test -test.coverprofile=x ./...',
    'go run .',
    'go build ./...',
    'go generate ./...',
    'go env',
  ]) {
    assert.equal(plan(c).allowed, false, c);
  }
});

test('RO-2: make -n (dry run) is allowed with targets; anything else make runs is refused', () => {
  for (const c of ['make -n', 'make -n all', 'make --dry-run build test', 'make -ns', 'make --just-print'])
    assert.deepEqual([plan(c).allowed, plan(c).class], [true, 'verification'], c);
  for (const c of [
    'make',
    'make all',
    'make -t',
    'make -nt',
    'make -n VAR=x',
    'make -n -f /tmp/M',
    'make -n -C /tmp',
    'make -n --eval=x',
    'make -n -j4',
  ])
    assert.equal(plan(c).allowed, false, c);
});

test('RO-2: cargo verification forms still pass after the move to runners.ts', () => {
  for (const c of ['cargo check', 'cargo test -p core', 'cargo nextest run'])
    assert.equal(plan(c).class, 'verification', c);
  for (const c of ['cargo build', 'cargo test --config x', 'cargo run']) assert.equal(plan(c).allowed, false, c);
});
