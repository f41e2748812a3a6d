import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeCommand } from '../../../src/core/guards';
import { checkCommand, checkCommandInWorkspace } from '../../../src/core/policy';

const ROOT = '/w';

interface Case {
  command: string;
  /** The words of each segment as the one reading splits them; `null` when the command cannot be read at all. */
  words: string[][] | null;
  /** The plan-mode verdict. */
  allowed: boolean;
  /** The navigation accounting's request key (NAV-3). */
  request: string;
}

/** Tricky commands: every consumer must see the same segments and the same words. */
const CASES: Case[] = [
  // `#` inside a word is literal for sh (shell-quote alone would start a comment there).
  { command: 'echo a#b c', words: [['echo', 'a#b', 'c']], allowed: true, request: 'run_command:echo a#b c' },
  // `#` at the start of a word is a comment that could hide `; rm …` from a reader.
  {
    command: 'ls #x; rm -rf y',
    words: [
      ['ls', 'x'],
      ['rm', '-rf', 'y'],
    ],
    allowed: false,
    request: 'run_command:ls #x; rm -rf y',
  },
  {
    command: "rg 'a;b' src # note",
    words: [['rg', 'a;b', 'src', 'note']],
    allowed: false,
    request: "run_command:rg 'a;b' src # note",
  },
  // Operators split segments; quoted or escaped ones stay inside a word.
  {
    command: 'ls && pwd || true; echo done | cat',
    words: [['ls'], ['pwd'], ['true'], ['echo', 'done'], ['cat']],
    allowed: true,
    request: 'run_command:ls | pwd | true | echo done | cat',
  },
  {
    command: "grep 'a|b' f | wc -l",
    words: [
      ['grep', 'a|b', 'f'],
      ['wc', '-l'],
    ],
    allowed: true,
    request: 'run_command:grep a|b f | wc -l',
  },
  {
    command: 'echo "x && y"; ls',
    words: [['echo', 'x && y'], ['ls']],
    allowed: true,
    request: 'run_command:echo x && y | ls',
  },
  { command: 'grep x\\;y f', words: [['grep', 'x;y', 'f']], allowed: true, request: 'run_command:grep x;y f' },
  // A harmless redirection is not a word; the output limit and the leading `cd` are not what is navigated.
  {
    command: 'rg foo src 2>/dev/null | head -5',
    words: [
      ['rg', 'foo', 'src'],
      ['head', '-5'],
    ],
    allowed: true,
    request: 'run_command:rg foo src',
  },
  {
    command: 'cd src && ls "a b" | tail -3',
    words: [
      ['cd', 'src'],
      ['ls', 'a b'],
      ['tail', '-3'],
    ],
    allowed: true,
    request: 'run_command:ls a b',
  },
  // A write to a file whose name starts with `#`.
  { command: 'ls >#x', words: [['ls']], allowed: false, request: 'run_command:ls >#x' },
  // Line continuations and heredoc-like input.
  { command: 'ls \\\n src', words: null, allowed: false, request: 'run_command:ls \\\n src' },
  { command: 'ls src \\', words: [['ls', 'src']], allowed: false, request: 'run_command:ls src \\' },
  { command: 'cat <<EOF', words: [['cat', 'EOF']], allowed: false, request: 'run_command:cat <<EOF' },
  { command: 'cat <<< x', words: [['cat', 'x']], allowed: false, request: 'run_command:cat <<< x' },
];

test('RO-2, NAV-3, issue 17 item 2: the policy, the workspace path rule and the navigation accounting consume one reading of a command', () => {
  for (const c of CASES) {
    const verdict = checkCommandInWorkspace(c.command, 'plan', ROOT);
    const reading = verdict.reading;
    const words = reading.ok
      ? reading.segments.map((s) => (s.argv.ok ? s.argv.words.map((w) => w.text) : s.argv.reason))
      : null;
    assert.deepEqual(words, c.words, `${JSON.stringify(c.command)}: words of the reading`);
    const raws = reading.ok ? reading.segments.map((s) => s.raw) : [c.command.trim()];
    assert.deepEqual(
      verdict.segments.map((s) => s.command),
      raws,
      `${JSON.stringify(c.command)}: the policy's segments are the reading's`,
    );
    assert.deepEqual(
      verdict.paths.segments.map((s) => s.command),
      raws,
      `${JSON.stringify(c.command)}: the path rule's segments are the reading's`,
    );
    const policyAlone = checkCommand(c.command, 'plan');
    assert.deepEqual(
      policyAlone.segments.map((s) => s.command),
      raws,
      `${JSON.stringify(c.command)}: checkCommand reads it the same way`,
    );
    assert.equal(policyAlone.allowed, c.allowed, `${JSON.stringify(c.command)}: ${policyAlone.reason}`);
    assert.equal(verdict.allowed, c.allowed, `${JSON.stringify(c.command)}: ${verdict.reason}`);
    assert.equal(describeCommand(verdict).request, c.request, `${JSON.stringify(c.command)}: navigation request`);
  }
});
