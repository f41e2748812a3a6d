import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import type { TranscriptEntry } from '../../src/protocol';
import { Transcript, WINDOW } from '../../webview/src/components/Transcript';
import { StreamingMarkdown } from '../../src/extension/markdown';
import { assistant, hostStream, mountApp, plan, user } from './fixtures';

afterEach(cleanup);

test('UI-1: assistant markdown renders headings, lists, emphasis and code', async () => {
  const app = mountApp();
  await app.show([
    assistant(
      'a1',
      '## Findings\n\n- **auth** lives in `src/auth.ts`\n- tests are *thin*\n\n```ts\nexport const a = 1;\n```',
    ),
  ]);
  const msg = app.container.querySelector('.msg-assistant');
  assert.equal(msg?.querySelector('h2')?.textContent, 'Findings');
  assert.equal(msg?.querySelectorAll('li').length, 2);
  assert.equal(msg?.querySelector('strong')?.textContent, 'auth');
  assert.equal(msg?.querySelector('pre code')?.textContent, 'export const a = 1;\n');
});

test('UI-1: clicking a link sends openLink to the host and does not navigate', async () => {
  const app = mountApp();
  await app.show([assistant('a1', 'See [the docs](https://example.com/docs) or https://example.org/x')]);
  const link = screen.getByText('the docs');
  const click = new MouseEvent('click', { bubbles: true, cancelable: true });
  link.dispatchEvent(click);
  assert.equal(click.defaultPrevented, true, 'the webview does not follow the link');
  fireEvent.click(screen.getByText('https://example.org/x'));
  assert.deepEqual(app.commands('openLink'), [
    { type: 'openLink', href: 'https://example.com/docs' },
    { type: 'openLink', href: 'https://example.org/x' },
  ]);
});

test('UI-1: a code block has a copy button that sends the code to the host', async () => {
  const app = mountApp();
  await app.show([assistant('a1', 'Run:\n\n```sh\nnpm test\n```')]);
  const button = screen.getByLabelText('Copy code');
  fireEvent.click(button);
  assert.deepEqual(app.commands('copy'), [{ type: 'copy', text: 'npm test\n' }]);
  assert.equal(button.textContent, 'Copied');
});

test('UI-1: streamed deltas are batched into one render per animation frame', async () => {
  const app = mountApp();
  const stream = hostStream('a1', 'Hello');
  await app.show([stream.entry]);
  await app.deliver(stream.append(', '), stream.append('wor'), stream.append('ld'));
  assert.equal(app.pendingFrames(), 1, 'one frame scheduled for three deltas');
  assert.equal(
    app.container.querySelector('.msg-assistant')?.textContent?.trim(),
    'Hello',
    'nothing re-rendered before the frame',
  );
  await app.flushFrames();
  assert.equal(app.container.querySelector('.msg-assistant')?.textContent?.trim(), 'Hello, world');
  assert.equal(app.container.querySelector('.msg-assistant')?.getAttribute('aria-busy'), 'true');
});

test('UI-1: an entry replacement applies the deltas received before it, in order', async () => {
  const app = mountApp();
  const stream = hostStream('a1', 'Par');
  await app.show([stream.entry]);
  await app.deliver(stream.append('tial'), { type: 'entry', entry: assistant('a1', 'Final answer.') });
  await app.flushFrames();
  assert.equal(app.container.querySelector('.msg-assistant')?.textContent?.trim(), 'Final answer.');
  assert.equal(app.container.querySelector('.msg-assistant')?.getAttribute('aria-busy'), 'false');
});

test('UI-1: unchanged rows and settled chunks are not touched while a row streams; only its tail is', async () => {
  const app = mountApp();
  const stream = hostStream('a1', 'First paragraph, finished.\n\nSecond');
  await app.show([assistant('a0', 'Earlier answer'), stream.entry]);
  const [earlier, streaming] = [...app.container.querySelectorAll('.msg-assistant')];
  const [settled, tail] = [...(streaming?.querySelectorAll('.md-stream > .md') ?? [])];
  assert.ok(earlier && settled && tail);
  assert.equal(settled.textContent?.trim(), 'First paragraph, finished.');
  const changed = new Set<Node>();
  const observer = new MutationObserver((records) => records.forEach((r) => changed.add(r.target)));
  observer.observe(app.container, { subtree: true, childList: true, characterData: true, attributes: true });
  await app.deliver(stream.append(' paragraph, still growing'));
  await app.flushFrames();
  observer.takeRecords().forEach((r) => changed.add(r.target));
  observer.disconnect();
  const seen = [...changed];
  assert.ok(seen.includes(tail), 'the tail was replaced');
  assert.ok(
    !seen.some((node) => earlier.contains(node) || settled.contains(node)),
    'the earlier row and the settled chunk were not touched',
  );
  assert.equal(tail.textContent?.trim(), 'Second paragraph, still growing');
  assert.ok(earlier.isConnected && settled.isConnected);
});

test("UI-1: the webview applies the host's keep/chunks, one append at a time or several merged into one frame", async () => {
  const app = mountApp();
  const stream = hostStream('a1');
  await app.show([stream.entry]);
  const shown = () => [...app.container.querySelectorAll('.msg-assistant .md-stream > .md')].map((el) => el.innerHTML);
  const expected = () =>
    stream.chunks().map((html) => Object.assign(document.createElement('div'), { innerHTML: html }).innerHTML);
  // One frame: a paragraph settles, then another, and a code block with a blank line opens.
  await app.deliver(
    ...['One.', '\n\nTwo', ' more.\n\n', 'Three\n\n```sh\nnpm test\n\nnpm run', ' build\n'].map((d) =>
      stream.append(d),
    ),
  );
  assert.equal(app.pendingFrames(), 1);
  await app.flushFrames();
  assert.ok(stream.chunks().length >= 3, `the host settled chunks: ${stream.chunks().length}`);
  assert.deepEqual(shown(), expected());
  for (const delta of ['```\n', '\nFour', ' and done.']) {
    await app.deliver(stream.append(delta));
    await app.flushFrames();
    assert.deepEqual(shown(), expected(), `after ${JSON.stringify(delta)}`);
  }
  assert.equal(app.container.querySelector('.msg-assistant')?.textContent?.includes('Four and done.'), true);
  // The code block settled whole, blank line included, and its copy button copies all of it.
  fireEvent.click(screen.getByLabelText('Copy code'));
  assert.deepEqual(app.commands('copy'), [{ type: 'copy', text: 'npm test\n\nnpm run build\n' }]);
});

test('UI-1: tool calls render as compact cards with status, target, blocked reason and expandable output', async () => {
  const app = mountApp();
  await app.show([
    {
      kind: 'tool',
      id: 't1',
      name: 'read_file',
      target: 'src/auth.ts',
      status: 'ok',
      blockedReason: null,
      output: 'export function login() {}',
      truncated: true,
    },
    {
      kind: 'tool',
      id: 't2',
      name: 'run_command',
      target: 'rm -rf build',
      status: 'blocked',
      blockedReason: 'Mutation blocked: plan mode is read-only',
      output: null,
      truncated: false,
    },
    {
      kind: 'tool',
      id: 't3',
      name: 'grep',
      target: 'rg -n login src',
      status: 'running',
      blockedReason: null,
      output: null,
      truncated: false,
    },
    {
      kind: 'tool',
      id: 't4',
      name: 'list_files',
      target: 'src/',
      status: 'error',
      blockedReason: null,
      output: 'ENOENT',
      truncated: false,
    },
  ]);
  const ok = screen.getByRole('group', { name: 'Tool read_file, done' });
  assert.ok(within(ok).getByText('src/auth.ts'));
  const details = ok.querySelector('details');
  assert.ok(details && !details.open, 'output is folded by default');
  assert.equal(details.querySelector('.tool-output')?.textContent, 'export function login() {}');
  assert.ok(within(ok).getByText('Output truncated.'));
  const blocked = screen.getByRole('group', { name: 'Tool run_command, blocked' });
  assert.ok(blocked.classList.contains('tool-blocked'));
  assert.equal(blocked.querySelector('.tool-reason')?.textContent, 'Mutation blocked: plan mode is read-only');
  assert.equal(blocked.querySelector('details'), null, 'nothing to expand without output');
  assert.ok(screen.getByRole('group', { name: 'Tool grep, running' }).querySelector('.ui-spinner'));
  assert.ok(screen.getByRole('group', { name: 'Tool list_files, failed' }).classList.contains('tool-error'));
});

test('UI-1, SYN-4: the plan card shows title, summary, numbered steps, status, and a rejected draft with the validator reasons', async () => {
  const app = mountApp();
  await app.show([
    plan({
      id: 'p1',
      planFile: '.vtcode/plans/login.md',
      status: 'persisted',
      markdown: '# Login',
      synopsis: {
        title: 'Add login rate limiting',
        summary: 'Limit failed logins per IP.',
        steps: [
          { number: 1, text: 'Add a limiter module' },
          { number: 2, text: 'Wire it into the login route and cover it with tests that exercise the window boundary' },
        ],
        overflow: '… and 3 more plan steps',
      },
      reasons: [],
    }),
    plan({
      id: 'p2',
      planFile: null,
      status: 'rejected',
      synopsis: null,
      markdown: '# Draft\n\nno steps',
      reasons: [
        { code: 'missing_steps', message: 'The plan has no numbered steps.', line: 3 },
        { code: 'no_verify', message: 'No verification.' },
      ],
    }),
  ]);
  const ready = screen.getByRole('region', { name: 'Plan ready: Add login rate limiting' });
  assert.ok(within(ready).getByText('Limit failed logins per IP.'));
  const steps = [...ready.querySelectorAll('.synopsis-steps li')];
  assert.deepEqual(
    steps.map((li) => [li.getAttribute('value'), li.textContent]),
    [
      ['1', 'Add a limiter module'],
      ['2', 'Wire it into the login route and cover it with tests that exercise the window boundary'],
    ],
  );
  assert.ok(within(ready).getByText('… and 3 more plan steps'));
  assert.ok(within(ready).getByText('.vtcode/plans/login.md'));
  const rejected = screen.getByRole('region', { name: 'Plan rejected: Plan' });
  const reasons = [...rejected.querySelectorAll('.plan-reasons li')].map((li) => li.textContent);
  assert.deepEqual(reasons, ['line 3: The plan has no numbered steps. missing_steps', 'No verification. no_verify']);
  assert.ok(rejected.querySelector('details.plan-draft .md h1'), 'the rejected draft is kept, folded');
});

test('UI-1: a streaming plan without a synopsis shows its markdown and a progress label', async () => {
  const app = mountApp();
  await app.show([
    plan({ id: 'p1', planFile: null, status: 'streaming', synopsis: null, markdown: '1. First step', reasons: [] }),
  ]);
  const card = screen.getByRole('region', { name: 'Drafting plan…: Plan' });
  assert.equal(card.querySelector('.plan-markdown li')?.textContent, 'First step');
});

test('SYN-2: reasoning is collapsed as "Thinking…", notices carry their level, the tracker shows its compact line (TRK-5)', async () => {
  const app = mountApp();
  await app.show([
    { kind: 'reasoning', id: 'r1', text: 'private chain of thought', streaming: true },
    { kind: 'notice', id: 'n1', level: 'warning', text: 'Mutation blocked is policy, not a failing check.' },
    { kind: 'notice', id: 'n2', level: 'error', text: 'Provider failed.' },
    { kind: 'tracker', id: 'k1', header: 'Tasks 1/4', current: 'Wire the limiter' },
  ]);
  const details = app.container.querySelector('details.reasoning') as HTMLDetailsElement | null;
  assert.ok(details && !details.open);
  assert.equal(details.querySelector('summary')?.textContent, 'Thinking…');
  assert.equal(app.container.querySelector('.msg-assistant'), null, 'reasoning is never shown as an answer');
  assert.ok(screen.getByRole('note', { name: 'Warning' }).classList.contains('notice-warning'));
  assert.ok(screen.getByRole('note', { name: 'Error' }).classList.contains('notice-error'));
  const tracker = screen.getByRole('group', { name: 'Task checklist' });
  assert.equal(tracker.textContent, 'Tasks 1/4» Wire the limiter');
});

const many = (n: number): TranscriptEntry[] =>
  Array.from({ length: n }, (_, i) =>
    i % 2 === 0 ? user(`u${i}`, `question ${i}`) : assistant(`a${i}`, `answer **${i}** with \`code\``),
  );

// How long the 2,000-message render takes is measured in bench/webview-render.bench.ts, not asserted here.
test('UI-1: a 2,000-message transcript renders only the latest window, and "show earlier" brings back older rows', () => {
  const entries = many(2_000);
  const { container } = render(<Transcript entries={entries} send={() => true} onInteractionDone={() => {}} />);
  assert.equal(container.querySelectorAll('.msg').length, WINDOW);
  assert.ok(container.querySelector('.msg')?.textContent?.includes(`question ${2_000 - WINDOW}`));
  fireEvent.click(screen.getByText(`Show earlier messages (${2_000 - WINDOW} hidden)`));
  assert.equal(container.querySelectorAll('.msg').length, 2 * WINDOW);
  assert.ok(container.querySelector('.msg')?.textContent?.includes(`question ${2_000 - 2 * WINDOW}`));
});

test('UI-1: while following the end, new entries slide the window so the DOM stays bounded', () => {
  const entries = many(WINDOW);
  const view = render(<Transcript entries={entries} send={() => true} onInteractionDone={() => {}} />);
  assert.equal(view.container.querySelector('.show-earlier'), null);
  const more = [...entries, ...many(WINDOW + 50).slice(WINDOW)];
  view.rerender(<Transcript entries={more} send={() => true} onInteractionDone={() => {}} />);
  assert.equal(view.container.querySelectorAll('.msg').length, WINDOW);
  assert.ok(view.container.querySelector('.show-earlier'));
});

test('UI-1: table alignment becomes a class, not a style attribute the CSP would refuse', async () => {
  const app = mountApp();
  await app.show([assistant('a1', '| name | size |\n|:-----|-----:|\n| a.ts | 12 |')]);
  const cells = [...app.container.querySelectorAll('.msg-assistant th, .msg-assistant td')];
  assert.deepEqual(
    cells.map((c) => c.getAttribute('class')),
    ['md-align-left', 'md-align-right', 'md-align-left', 'md-align-right'],
  );
  assert.ok(cells.every((c) => !c.hasAttribute('style')));
});

test('UI-1: while the user reads above, new entries do not move the rendered window; back at the end it shrinks again', () => {
  const entries = many(WINDOW + 100);
  const props = { send: () => true, onInteractionDone: () => {} };
  const view = render(<Transcript entries={entries} {...props} />);
  const body = view.container.querySelector('main.body') as HTMLElement;
  const scrollTo = (fromEnd: number) => {
    Object.defineProperty(body, 'scrollHeight', { configurable: true, value: 10_000 });
    Object.defineProperty(body, 'clientHeight', { configurable: true, value: 500 });
    body.scrollTop = 10_000 - 500 - fromEnd;
    fireEvent.scroll(body);
  };
  scrollTo(4_000);
  fireEvent.click(screen.getByText(`Show earlier messages (100 hidden)`));
  assert.equal(view.container.querySelectorAll('.msg').length, WINDOW + 100);
  const firstText = () => view.container.querySelector('.msg')?.textContent;
  assert.equal(firstText()?.trim(), 'question 0');
  const longer = [...entries, ...many(WINDOW + 120).slice(WINDOW + 100)];
  view.rerender(<Transcript entries={longer} {...props} />);
  assert.equal(firstText()?.trim(), 'question 0', 'nothing above the reader moved');
  scrollTo(0);
  const again = [...longer, user('last', 'last')];
  view.rerender(<Transcript entries={again} {...props} />);
  assert.equal(view.container.querySelectorAll('.msg').length, WINDOW);
});

test('GATE-1: while its gate is pending, the plan card collapses so the synopsis is shown once; resolved, it shows again', async () => {
  const synopsis = {
    title: 'Shout flag',
    summary: 'Add a flag.',
    steps: [{ number: 1, text: 'Add `shout` to src/greet.js' }],
    overflow: null,
  };
  const planEntry = plan({
    id: 'p1',
    planFile: '.vtcode/plans/shout-flag.md',
    status: 'persisted',
    synopsis,
    markdown: '# Shout flag',
    reasons: [],
  });
  const gate = (state: 'pending' | 'resolved'): TranscriptEntry => ({
    kind: 'approval',
    id: 'g1',
    planFile: '.vtcode/plans/shout-flag.md',
    synopsis,
    contextUsage: 0,
    state,
    choice: state === 'resolved' ? 'execute' : null,
  });
  const app = mountApp();
  await app.show([planEntry, gate('pending')]);
  const card = app.container.querySelector('.plan-card');
  assert.ok(card?.classList.contains('plan-under-review'));
  assert.equal(card?.querySelector('.synopsis-steps'), null, 'the steps are shown by the gate only');
  assert.equal(app.container.querySelectorAll('.synopsis-steps').length, 1);
  await app.show([planEntry, gate('resolved')]);
  const full = app.container.querySelector('.plan-card');
  assert.equal(full?.classList.contains('plan-under-review'), false);
  assert.ok(full?.querySelector('.synopsis-steps'));
});

test('UI-1, EVT-1: a streaming plan card applies appends like a message: settled blocks stay untouched, only the tail changes', async () => {
  const app = mountApp();
  const renderer = new StreamingMarkdown();
  let markdown = '# Shout flag\n\nFirst paragraph, finished.\n\nSecond';
  const chunks = renderer.update(markdown).chunks;
  await app.show([
    {
      kind: 'plan',
      id: 'p1',
      planFile: null,
      status: 'streaming',
      synopsis: null,
      markdown,
      html: chunks.join(''),
      htmlChunks: chunks,
      reasons: [],
    },
  ]);
  const card = app.container.querySelector('.plan-card');
  const parts = [...(card?.querySelectorAll('.plan-markdown.md-stream > .md') ?? [])];
  assert.equal(parts.length, chunks.length, 'one element a chunk');
  const settled = parts.slice(0, -1);
  const tail = parts.at(-1);
  assert.ok(settled.length >= 1 && tail, 'the finished paragraph has settled');
  const changed = new Set<Node>();
  const observer = new MutationObserver((records) => records.forEach((r) => changed.add(r.target)));
  observer.observe(app.container, { subtree: true, childList: true, characterData: true, attributes: true });
  const append = (delta: string) => {
    markdown += delta;
    return { type: 'append' as const, id: 'p1', text: delta, html: renderer.update(markdown) };
  };
  await app.deliver(append(' paragraph,'), append(' still growing'));
  assert.equal(app.pendingFrames(), 1, 'plan appends are batched per frame too');
  await app.flushFrames();
  observer.takeRecords().forEach((r) => changed.add(r.target));
  observer.disconnect();
  assert.ok([...changed].includes(tail), 'the tail was replaced');
  assert.ok(![...changed].some((node) => settled.some((s) => s.contains(node))), 'the settled blocks were not touched');
  assert.equal(tail.textContent?.trim(), 'Second paragraph, still growing');
  assert.equal(card?.querySelector('h1')?.textContent, 'Shout flag');
});
