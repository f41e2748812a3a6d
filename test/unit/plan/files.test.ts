import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { APPROVALS_DIR, isPlanFilePath, planFileContent } from '../../../src/core/plan/files';

test('GATE-6: the extension activates on the folder where another process writes approval records', () => {
  const manifest = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8')) as {
    activationEvents: string[];
  };
  assert.ok(manifest.activationEvents.includes(`workspaceContains:${APPROVALS_DIR}/*.json`));
});

test('STORE-1: plan file content has \\n line endings (CRLF and lone CR), no surrounding blank lines, one trailing newline', () => {
  assert.equal(planFileContent('\n\n# Plan\r\nSummary\rDone.\n\n\n'), '# Plan\nSummary\nDone.\n');
  assert.equal(planFileContent('# Plan'), '# Plan\n');
});

test('STORE-1: plan files are `.vtcode/plans/<name>.md`, relative or absolute, either slash; tracker sidecars and other paths are not', () => {
  for (const yes of [
    '.vtcode/plans/fix.md',
    '/w/.vtcode/plans/add-login.md',
    'C:\\w\\.vtcode\\plans\\fix.md',
    '/w/.vtcode/plans/tasks.md',
  ])
    assert.equal(isPlanFilePath(yes), true, yes);
  for (const no of [
    '/w/.vtcode/plans/fix.tasks.md',
    '.vtcode/plans/fix.tasks.md',
    '/w/.vtcode/plans/sub/fix.md',
    '/w/.vtcode/plans/fix.md.bak',
    '/w/x.vtcode/plans/fix.md',
    '/w/docs/fix.md',
    '/w/.vtcode/plans/.md',
  ])
    assert.equal(isPlanFilePath(no), false, no);
});
