import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup, screen } from '@testing-library/preact';
import { idle, mountApp } from './fixtures';
import { getToolkitButton, press, queryToolkitButton } from './toolkit';

afterEach(cleanup);

const live = (container: Element) => container.querySelector('.sr-only[aria-live="polite"]')?.textContent?.trim();

test('UI-1: the header badge shows Plan / Build / Auto with a distinct class per mode, and the model name', async () => {
  const app = mountApp();
  for (const [mode, label] of [
    ['plan', 'Plan'],
    ['build', 'Build'],
    ['auto', 'Auto'],
  ] as const) {
    await app.deliver({ type: 'status', status: { ...idle, mode, model: 'claude-test' } });
    const badge = app.container.querySelector('.mode-badge');
    assert.equal(badge?.textContent, label);
    assert.ok(badge?.classList.contains(`mode-${mode}`));
    assert.match(badge?.getAttribute('aria-label') ?? '', new RegExp(`^${label} mode`));
  }
  assert.ok(screen.getByText('claude-test'));
});

test('RO-1, UI-1: the header says when agent commands run without an OS sandbox (policy only), and quietly when they are sandboxed', async () => {
  const app = mountApp();
  await app.deliver({ type: 'status', status: { ...idle, sandbox: null } });
  assert.equal(app.container.querySelector('.sandbox-warning, .sandbox-ok'), null, 'nothing before the session says');
  await app.deliver({
    type: 'status',
    status: { ...idle, sandbox: { sandboxed: false, summary: 'sandbox: unavailable (bwrap not found) — policy only' } },
  });
  const warning = app.container.querySelector('.sandbox-warning');
  assert.equal(warning?.textContent?.trim(), 'No sandbox — policy only');
  assert.equal(warning?.getAttribute('role'), 'status');
  assert.match(
    warning?.getAttribute('title') ?? '',
    /^sandbox: unavailable \(bwrap not found\) — policy only\. Plan mode runs inspection commands only; run "vtplan doctor"/,
  );
  await app.deliver({
    type: 'status',
    status: { ...idle, sandbox: { sandboxed: true, summary: 'sandbox: bubblewrap 0.8.0 (/usr/bin/bwrap)' } },
  });
  assert.equal(app.container.querySelector('.sandbox-warning'), null);
  assert.equal(
    app.container.querySelector('.sandbox-ok')?.getAttribute('title'),
    'Agent commands run in an OS sandbox (bubblewrap 0.8.0 (/usr/bin/bwrap))',
  );
});

test('UI-1: the footer shows the status text, and Stop only while busy', async () => {
  const app = mountApp();
  await app.show([]);
  const footer = () => screen.getByRole('contentinfo', { name: 'Status' });
  assert.equal(footer().textContent, 'Ready');
  assert.equal(queryToolkitButton('Stop the running turn'), null);
  await app.deliver({ type: 'status', status: { ...idle, busy: true, status: 'Planning...' } });
  assert.equal(footer().querySelector('.status-text')?.textContent, 'Planning...');
  await press(getToolkitButton('Stop the running turn'));
  assert.deepEqual(app.commands('stop'), [{ type: 'stop' }]);
  await app.deliver({ type: 'status', status: { ...idle, status: 'Blocked: repair attempts exhausted' } });
  assert.ok(footer().classList.contains('is-blocked'));
  assert.equal(queryToolkitButton('Stop the running turn'), null);
  await app.deliver({ type: 'status', status: { ...idle, status: 'Waiting for approval' } });
  assert.ok(footer().classList.contains('is-waiting'));
});

test('UI-1: status changes and host announcements reach the visually hidden live region, repeats included', async () => {
  const app = mountApp();
  await app.show([]);
  assert.equal(live(app.container), '');
  await app.deliver({ type: 'status', status: { ...idle, busy: true, status: 'Planning...' } });
  assert.equal(live(app.container), 'Planning...');
  await app.deliver({ type: 'announce', text: 'Plan ready for review' });
  assert.equal(live(app.container), 'Plan ready for review');
  const before = app.container.querySelector('.sr-only')?.textContent;
  await app.deliver({ type: 'announce', text: 'Plan ready for review' });
  assert.notEqual(app.container.querySelector('.sr-only')?.textContent, before, 'the same words count as a new change');
  await app.deliver({ type: 'status', status: { ...idle, busy: true, status: 'Planning...' } });
  assert.equal(live(app.container), 'Plan ready for review', 'an unchanged status is not re-announced');
  const region = app.container.querySelector('.sr-only');
  assert.equal(region?.getAttribute('role'), 'status');
  assert.equal(region?.getAttribute('aria-atomic'), 'true');
});
