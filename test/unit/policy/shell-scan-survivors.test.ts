import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';
import { scanCommand, type ScannedSegment } from '../../../src/core/policy/shell-scan';

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

function segments(command: string): ScannedSegment[] {
  const r = scanCommand(command);
  assert.ok(r.ok, `${command}: ${r.ok ? '' : r.problem.message}`);
  return r.segments;
}

/** Every problem of every segment, as `class: message`. */
function problems(command: string): string[] {
  return segments(command).flatMap((s) => s.problems.map((p) => `${p.class}: ${p.message}`));
}

function words(segment: ScannedSegment | undefined): string[] {
  assert.ok(segment?.argv.ok);
  return segment.argv.words.map((w) => w.text);
}

function redirects(segment: ScannedSegment | undefined): [string, string, string | null][] {
  assert.ok(segment);
  return segment.redirects.map((r) => [r.kind, r.text, r.target]);
}

test('RO-2, RO-3: a redirection target ends at every operator and blank, so the command after it is still checked', () => {
  for (const [command, why] of [
    ['cat <a;rm -rf x', /`rm` creates, changes or deletes files/],
    ['cat <a&&rm x', /`rm` creates/],
    ['cat <a||rm x', /`rm` creates/],
    ['cat <a|rm x', /`rm` creates/],
    ['cat <a>out', /output redirection `> out` writes a file/],
    ['cat <a(x)', /parentheses start a subshell/],
    ['cat <a)', /parentheses start a subshell/],
    ['cat <a&', /`&` runs a command in the background/],
  ] as const) {
    const v = plan(command);
    assert.equal(v.allowed, false, command);
    assert.match(v.reason ?? '', why, command);
  }
  // `<` inside a target starts a second read, not part of the first file name.
  assert.deepEqual(redirects(segments('cat <a<b')[0]), [
    ['<', '<a', 'a'],
    ['<', '<b', 'b'],
  ]);
  for (const blank of [' ', '\t']) {
    const [seg] = segments(`cat <a${blank}b`);
    assert.deepEqual(words(seg), ['cat', 'b']);
    assert.deepEqual(redirects(seg), [['<', '<a', 'a']]);
  }
});

test('RO-3: blanks end a word, so a `#` after a space or a tab starts a comment and is refused', () => {
  for (const command of ['ls #x', 'ls\t#x']) {
    assert.deepEqual(problems(command), [
      'unknown: an unquoted `#` at the start of a word starts a comment that can hide the rest of the line; quote it',
    ]);
  }
  assert.deepEqual(plan('ls\ta'), { allowed: true, class: 'inspection', reason: null });
  assert.deepEqual(problems('ls a#b'), []);
});

test('RO-3: hidden characters are named by kind and code point, with the reason they are refused', () => {
  const refusal = (command: string) => {
    const r = scanCommand(command);
    assert.equal(r.ok, false, command);
    return r.ok ? null : r.problem;
  };
  assert.deepEqual(refusal('ls\ra'), {
    message:
      'the command contains a line break (U+000D): a second line can hide another command; run one command per call or join them with &&',
    class: 'unknown',
  });
  assert.match(refusal('ls\na')?.message ?? '', /a line break \(U\+000A\): a second line can hide another command/);
  assert.deepEqual(refusal('ls\u0001a'), {
    message:
      'the command contains a control character (U+0001): invisible or look-alike characters can make a command read differently from how it runs',
    class: 'unknown',
  });
  assert.match(refusal('ls\u007fa')?.message ?? '', /contains a control character \(U\+007F\): invisible/);
  assert.match(refusal('ls a\u200bb')?.message ?? '', /contains '\u200b' \(U\+200B\): invisible/);
  assert.deepEqual(problems('ls é'), [
    "unknown: 'é' (U+00E9) is outside quotes; look-alike characters are not allowed in command words",
  ]);
  assert.deepEqual(problems('ls \\é'), [
    "unknown: 'é' (U+00E9) is outside quotes; look-alike characters are not allowed in command words",
  ]);
  assert.deepEqual(problems('ls \\~'), []);
  // A character outside the BMP is named whole, by its code point.
  assert.equal(
    problems('ls 😀')[0],
    "unknown: '😀' (U+1F600) is outside quotes; look-alike characters are not allowed in command words",
  );
});

test('RO-3: an empty, blank or too long command is refused as unknown with its own reason', () => {
  for (const command of ['', '   ', '\t'])
    assert.deepEqual(scanCommand(command), {
      ok: false,
      problem: { message: 'the command is empty', class: 'unknown' },
    });
  const long = scanCommand(`ls ${'a'.repeat(20_000)}`);
  assert.equal(long.ok, false);
  assert.equal(long.ok ? null : long.problem.class, 'unknown');
});

test('RO-3: the first word of a command starts with a fresh word state', () => {
  // A descriptor digit at the very start belongs to the redirection, not to the argv.
  const [first] = segments('2>/dev/null ls');
  assert.deepEqual(words(first), ['ls']);
  assert.deepEqual(redirects(first), [['null', '2>/dev/null', '/dev/null']]);
  assert.match(segments('-a* x')[0]?.unanchoredGlob ?? '', /inside an option/);
  assert.deepEqual(problems('a,b} x'), []);
  assert.deepEqual(problems('a] x'), []);
  assert.deepEqual(problems('{a} x'), []);
});

test('RO-2: a trailing `;` ends the last command; an operator with nothing on one side is refused', () => {
  assert.deepEqual(plan('git status;'), { allowed: true, class: 'inspection', reason: null });
  assert.equal(segments('git status;').length, 1);
  for (const command of ['; ls', 'ls && ; ls', 'ls &&', '| ls', 'ls |'])
    assert.ok(problems(command).includes('unknown: an operator has no command on one side'), command);
});

test('RO-3: a lone backslash at the end is refused as unknown', () => {
  assert.deepEqual(problems('ls \\'), ['unknown: the command ends with a lone backslash']);
});

test('RO-2, RO-3: `|&`, `;;`, `;&`, `&>` and `&` are refused with the reason each one is not allowed', () => {
  assert.deepEqual(problems('a |& b'), [
    'unknown: `|&` is bash-only syntax (under /bin/sh it is a syntax error); use `2>&1 |`',
  ]);
  assert.deepEqual(
    segments('a |& b').map((s) => s.joiner),
    [null, '|'],
  );
  assert.deepEqual(problems('a ;; b'), ['unknown: `;;` belongs to `case` syntax, which the policy does not run']);
  assert.deepEqual(problems('a ;& b'), ['unknown: `;&` belongs to `case` syntax, which the policy does not run']);
  assert.equal(segments('a ;; b').length, 1);
  assert.deepEqual(
    segments('a ; b').map((s) => s.joiner),
    [null, ';'],
  );
  const [amp] = segments('x &>> f y');
  assert.deepEqual(words(amp), ['x', 'y']);
  assert.deepEqual(redirects(amp), [['write', '&>> f', 'f']]);
  assert.deepEqual(amp?.problems, [
    {
      message: '`&>` is bash-only syntax (under /bin/sh it is a background `&`); use `>/dev/null 2>&1`',
      class: 'unknown',
    },
  ]);
  assert.deepEqual(redirects(segments('x &> f y')[0]), [['write', '&> f', 'f']]);
  assert.deepEqual(problems('ls & x'), ['unknown: `&` runs a command in the background, outside the policy’s view']);
});

test('RO-2: an opening or closing parenthesis is refused and marks the segment as a subshell', () => {
  for (const command of ['(ls)', 'ls )', 'ls (']) {
    const [seg] = segments(command);
    assert.equal(seg?.subshell, true, command);
    assert.ok(
      seg?.problems.some(
        (p) =>
          p.class === 'unknown' &&
          p.message === 'parentheses start a subshell or grouping, which the policy does not allow',
      ),
      command,
    );
  }
});

test('RO-3: an unbalanced quote names which quote is open', () => {
  const message = (command: string) => {
    const r = scanCommand(command);
    return r.ok ? null : r.problem;
  };
  assert.deepEqual(message("ls 'a"), { message: 'the command has an unbalanced single quote', class: 'unknown' });
  assert.deepEqual(message('ls "a'), { message: 'the command has an unbalanced double quote', class: 'unknown' });
  assert.deepEqual(problems("cat <'a"), ['unknown: the command has an unbalanced quote']);
  assert.deepEqual(problems('cat <"a'), ['unknown: the command has an unbalanced quote']);
});

test('RO-3: substitutions, expansions and `$` quoting are refused with the reason', () => {
  assert.deepEqual(problems('echo `id'), ['unknown: backticks run a command substitution']);
  assert.equal(segments('echo `id')[0]?.substitution, true);
  assert.deepEqual(problems('echo "$(id)"'), ['unknown: `$(…)` runs a command substitution']);
  assert.deepEqual(problems("echo $'x'"), ['unknown: `$\'…\'` / `$"…"` quoting is not allowed; use plain quotes']);
  assert.deepEqual(problems('echo $"x"'), ['unknown: `$\'…\'` / `$"…"` quoting is not allowed; use plain quotes']);
  assert.deepEqual(problems('echo $HOME'), ['unknown: `$H…` expands a variable, so the command is not static']);
  assert.deepEqual(problems('ls <(id'), ['unknown: `<(…)` is process substitution, which runs a command']);
  for (const command of ['echo $', 'echo "a$"', 'echo "$ x"', 'echo $ x', 'echo $\tx'])
    assert.deepEqual(problems(command), [], command);
});

test('RO-3: a glob at the start of a word or inside an option is flagged, one inside an option value is not', () => {
  for (const command of ['sort \\-o*', "sort -o'x'*", "sort -'o'*", "sort '-o'*", 'sort -o?'])
    assert.match(
      segments(command)[0]?.unanchoredGlob ?? '',
      /the glob `[*?]` inside an option could change which option it is/,
      command,
    );
  assert.match(segments('sort ?.md')[0]?.unanchoredGlob ?? '', /a word starting with the glob `\?` could expand/);
  for (const command of ["sort --key'='*", 'sort --key=*', 'sort a*', "sort 'a'*", 'sort \\a*', "sort a'-'*"])
    assert.equal(segments(command)[0]?.unanchoredGlob, null, command);
  // The first glob of the segment is the one reported.
  assert.match(segments('sort *.md -o*')[0]?.unanchoredGlob ?? '', /a word starting with the glob `\*`/);
});

test('RO-3: unquoted brackets and braces are flagged only when they expand', () => {
  assert.deepEqual(problems('ls [ab]'), ['unknown: an unquoted `[…]` is a glob; quote it']);
  for (const command of ['ls a]', 'ls a{.}', 'ls {a}', 'ls a.b}', 'ls [a b]', 'ls {a b}', 'ls {a.}', 'ls {a}.. x'])
    assert.deepEqual(problems(command), [], command);
  for (const command of ['ls {a,b}', 'ls {1..3}', 'ls a{b,}']) {
    assert.deepEqual(
      problems(command),
      ['unknown: brace expansion `{a,b}` / `{1..9}` is not static; list the words explicitly or quote them'],
      command,
    );
    assert.equal(segments(command)[0]?.braces, true);
  }
  // A closing brace ends the expansion: a later `,` is plain text.
  assert.deepEqual(problems('ls {a}b,c}'), []);
});

test('RO-2: redirections are read by kind, with the descriptor and the file they name', () => {
  const [seg] = segments('cat a 2>&1 >/dev/null <b 2>&- >&2 <&3');
  assert.deepEqual(words(seg), ['cat', 'a']);
  assert.deepEqual(
    redirects(seg).map(([kind, text, target]) => [kind, text.trim(), target]),
    [
      ['dup', '2>&1', null],
      ['null', '>/dev/null', '/dev/null'],
      ['<', '<b', 'b'],
      ['dup', '2>&-', null],
      ['dup', '>&2', null],
      ['dup', '<&3', null],
    ],
  );
  assert.deepEqual(words(segments('cat a 2>&1|wc')[0]), ['cat', 'a']);
  assert.deepEqual(words(segments('cat a 2>/dev/null b')[0]), ['cat', 'a', 'b']);
  assert.deepEqual(words(segments('cat a <b c')[0]), ['cat', 'a', 'c']);
  assert.deepEqual(words(segments('cat a >&2 c')[0]), ['cat', 'a', 'c']);
  assert.deepEqual(words(segments('cat 12>/dev/null')[0]), ['cat', '12']);
  assert.deepEqual(words(segments('cat a1>/dev/null')[0]), ['cat', 'a1']);
});

test('RO-2: a redirection that writes is refused as a mutation and keeps its target for the path check', () => {
  const write = (command: string) => {
    const [seg] = segments(command);
    return { problems: seg?.problems.map((p) => `${p.class}: ${p.message}`), redirects: redirects(seg) };
  };
  assert.deepEqual(write('cat a <>b'), {
    problems: ['mutation: `<>` opens a file for reading and writing (and creates it)'],
    redirects: [['write', '<> b', 'b']],
  });
  assert.deepEqual(write('cat a >|b'), {
    problems: ['mutation: `>|` overwrites a file'],
    redirects: [['write', '>| b', 'b']],
  });
  assert.deepEqual(write('cat a >>b'), {
    problems: ['mutation: output redirection `>> b` writes a file (only `2>&1` and `/dev/null` are allowed)'],
    redirects: [['write', '>> b', 'b']],
  });
  assert.deepEqual(write('cat a >&file'), {
    problems: ['mutation: output redirection `>& file` writes a file (only `2>&1` and `/dev/null` are allowed)'],
    redirects: [['write', '>& file', 'file']],
  });
  assert.deepEqual(write('cat a >'), {
    problems: ['mutation: output redirection `>` writes a file (only `2>&1` and `/dev/null` are allowed)'],
    redirects: [],
  });
  assert.deepEqual(write('cat a <>'), {
    problems: ['mutation: `<>` opens a file for reading and writing (and creates it)'],
    redirects: [],
  });
  assert.deepEqual(write('cat a > /dev/nullx'), {
    problems: ['mutation: output redirection `> /dev/nullx` writes a file (only `2>&1` and `/dev/null` are allowed)'],
    redirects: [['write', '> /dev/nullx', '/dev/nullx']],
  });
  assert.deepEqual(words(segments('cat a >|b c')[0]), ['cat', 'a', 'c']);
  assert.deepEqual(words(segments('cat a >b c')[0]), ['cat', 'a', 'c']);
});

test('RO-2: a descriptor duplication must be digits or `-` ending at a word end', () => {
  for (const [command, shown] of [
    ['cat a 2>&1x', '>&1x'],
    ['cat a <&x', '<&x'],
    ['cat a <&', '<&'],
    ['cat a <&-1', '<&-1'],
  ] as const)
    assert.deepEqual(
      problems(command),
      [`unknown: \`${shown}\` is not a plain descriptor duplication like \`2>&1\``],
      command,
    );
  for (const command of ['cat a 2>&1', 'cat a 2>&10', 'cat a >&-', 'cat a <&0;ls', 'cat a 2>&1 ', 'cat a 2>&1)'])
    assert.ok(!problems(command).some((p) => p.includes('descriptor')), command);
});

test('RO-3: here-documents and process substitutions are refused, and the text after them is still read', () => {
  for (const command of ['cat <<EOF', 'cat <<<x', 'cat <<-EOF'])
    assert.deepEqual(
      problems(command),
      ['unknown: here-documents and here-strings (`<<`, `<<<`) are not allowed'],
      command,
    );
  assert.deepEqual(words(segments('cat <<<x')[0]), ['cat', 'x']);
  assert.deepEqual(words(segments('cat <<-x')[0]), ['cat', 'x']);
  assert.deepEqual(words(segments('cat <<x')[0]), ['cat', 'x']);
  assert.deepEqual(problems('cat <'), ['unknown: `<` has no file to read']);
});

test('RO-3: quoted text in a redirection target is one word and its expansions are still refused', () => {
  assert.deepEqual(redirects(segments("cat <'a;rm x'")[0]), [['<', "<'a;rm x'", "'a;rm x'"]]);
  assert.deepEqual(redirects(segments('cat <"a b"c d')[0]), [['<', '<"a b"c', '"a b"c']]);
  assert.deepEqual(redirects(segments("cat <a'b\"c'")[0]), [['<', "<a'b\"c'", "a'b\"c'"]]);
  assert.deepEqual(redirects(segments('cat <\\;x')[0]), [['<', '<\\;x', '\\;x']]);
  assert.deepEqual(problems('cat <"$(id)"'), ['unknown: `$(…)` runs a command substitution']);
  assert.deepEqual(problems("cat <'$(id)'"), []);
  const [seg] = segments("cat <'a' b");
  assert.deepEqual(words(seg), ['cat', 'b']);
});

test('RO-2: a `>` right after a read target starts a write, seen by the scan itself', () => {
  assert.deepEqual(redirects(segments('cat <a>out')[0]), [
    ['<', '<a', 'a'],
    ['write', '> out', 'out'],
  ]);
});

test('RO-3: the descriptor of a redirection is one digit glued to it; any other word stays in the argv', () => {
  assert.deepEqual(words(segments('cat a>/dev/null')[0]), ['cat', 'a']);
  assert.deepEqual(words(segments('cat a ->/dev/null')[0]), ['cat', 'a', '-']);
  const [seg] = segments('cat 0</dev/null 9>/dev/null');
  assert.deepEqual(words(seg), ['cat']);
  assert.deepEqual(
    redirects(seg).map(([kind, text]) => [kind, text.trim()]),
    [
      ['<', '0</dev/null'],
      ['null', '9>/dev/null'],
    ],
  );
  for (const command of ['cat a >&0', 'cat a >&9'])
    assert.deepEqual(redirects(segments(command)[0]), [['dup', command.slice(6), null]], command);
  assert.deepEqual(problems('cat a 2>&1-'), ['unknown: `>&1-` is not a plain descriptor duplication like `2>&1`']);
  // `>&` followed by a file name is a write to that file, not a duplication.
  assert.deepEqual(redirects(segments('cat a >&/dev/null')[0]), [['null', '>&/dev/null', '/dev/null']]);
});

test('RO-3: the word state follows quoted text: its length and a `#` after it', () => {
  assert.deepEqual(problems("ls ''ab#x"), []);
  assert.deepEqual(words(segments("ls ''ab#x")[0]), ['ls', 'ab#x']);
});

test('RO-3: brace expansion needs an unescaped `..` or `,` inside one pair of braces', () => {
  assert.deepEqual(problems('ls {a\\..}'), []);
  assert.deepEqual(problems('ls a,b}'), []);
  assert.equal(problems('ls {a,b}{c}').length, 1);
});

test('RO-2: an empty command between two `;` is refused', () => {
  assert.ok(problems('ls ; ; ls').includes('unknown: an operator has no command on one side'));
});

test('RO-2: the words after a redirection stay separate words, also in a segment refused for parentheses', () => {
  for (const command of ['cat a>/dev/null(b)', 'cat a<b(b)', 'cat a>&2(b)', 'cat a>|c(b)'])
    assert.deepEqual(words(segments(command)[0]), ['cat', 'a', 'b'], command);
});

test('RO-2: a quoted redirection target is read as one word for the path check', () => {
  const targetWords = (command: string) => {
    const [r] = segments(command)[0]?.redirects ?? [];
    assert.ok(r?.targetWords?.ok, command);
    return r.targetWords.words.map((w) => w.text);
  };
  assert.deepEqual(targetWords("cat <'a b'c"), ['a bc']);
  assert.deepEqual(targetWords('cat <"a b"c'), ['a bc']);
  assert.deepEqual(targetWords('cat <a\\ b'), ['a b']);
  assert.deepEqual(targetWords("cat x <'/etc/passwd'"), ['/etc/passwd']);
});
