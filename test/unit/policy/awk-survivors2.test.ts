import { test } from 'node:test';
import assert from 'node:assert/strict';
import { awkProgramProblem } from '../../../src/core/policy/awk';
import { checkCommand } from '../../../src/core/policy';

function refused(programs: string[], why: RegExp): void {
  for (const p of programs) assert.match(awkProgramProblem(p) ?? 'ALLOWED', why, JSON.stringify(p));
}

function allowed(programs: string[]): void {
  for (const p of programs) assert.equal(awkProgramProblem(p), null, JSON.stringify(p));
}

// Each refused program below ran `c` or wrote the file with mawk 1.3.4, gawk 5.2, onetrue awk or
// busybox awk (`-v c=...`), and was allowed before the lexer learnt the rule its test names.

test('RO-3: gawk and mawk keep a `/` inside `[]…]`, `[^]…]` and `[[:class:]…]` in the regex, so it is refused there', () => {
  const command = "awk -v c=id '/[]/]/ / 2 { print | c } /x/' f";
  assert.deepEqual(
    { allowed: checkCommand(command, 'plan').allowed, class: checkCommand(command, 'plan').class },
    { allowed: false, class: 'mutation' },
  );
  refused(
    ['/[]/]/ / 2 { print | c } /x/', '/[^]/]/ / 2 { print | c } /x/', '/[[:alpha:]/]/ / 2 { print | c } /x/'],
    /has `\/` inside `\[…\]`/,
  );
  refused(['/[[.a.]/]/ { print }', '/[[=a=]/]/ { print }', '/[a[:b]/]/ { print }'], /inside `\[…\]`/);
  allowed(['/[]a]/ { print }', '/[^]a]x/', '$0 ~ /[[:space:]]+$/', '/[a]]/', '/[[]/', '/[[:alpha:][]x/ { print }']);
});

test('RO-3: a `print` goes on after a newline that follows `,`, `&&`, `||` or `\\`, so a `>` there still writes', () => {
  refused(
    [
      '{ print $0,\n "x" > "out" }',
      '{ print $0 &&\n "x" > "out" }',
      '{ print $0 ||\n "x" > "out" }',
      '{ print $0, # a comment\n "x" > "out" }',
      '{ print $0 \\\n > "out" }',
      '{ print $0 \\ \n > "out" }',
      '{ print $0 \\\r\n > "out" }',
      '{ print $0,\r\n "x" > "out" }',
      '{ print $0 +\n 1 > "out" }',
    ],
    /`print > "file"` writes a file/,
  );
  // A newline after an operand, or after `print` alone, ends the statement as it does for awk.
  allowed(['{ print $1\n x = $2 > 3 }', '{ print\n x = $2 > 3 }', '{ printf "%s", $1\n if ($2 > 3) n++ }']);
});

test('RO-3: a carriage return, form feed or vertical tab is a blank to awk, not an operator before a regex', () => {
  refused(
    [
      '{ print $0 \r/ 2 | c (1/1) }',
      '{ print $0 \f/ 2 | c (1/1) }',
      '{ print $0 \v/ 2 | c (1/1) }',
      '{ print $0 \\\n/ 2 | c (1/1) }',
    ],
    /`\|` pipes to or from a command/,
  );
  allowed(['{ print $1 / 2\r\n}\r\n', 'NR > 1\t{ print\f$1 }']);
});

test('RO-3: after `else`, `do`, `return`, `exit`, `case`, `in`, `print` and `printf` a `/` starts a regex for every awk', () => {
  refused(
    [
      '{ if (0) x = 1; else /"/; print | c; # "\n}',
      '{ do /"/; while (0); print | c; # "\n}',
      'function f() { return /"/; print | c; # "\n}',
      '{ exit /"/; print | c; # "\n}',
      '{ switch ($1) { case /"/: print | c; # "\n} }',
      '{ x = 1 in /"/; print | c; # "\n}',
      '{ printf /"/; print | c; # "\n}',
      '{ print /"/; print | c; # "\n}',
    ],
    /regular expression contains `"`/,
  );
  allowed(['{ if ($1) n++; else /x/ }', '{ print /x/ ? "y" : "n" }']);
});

test('RO-3: a `/` after `length`, `x++`, `x--` or an `if`/`while`/`for` condition is refused when another `/` follows: awks disagree on what it starts', () => {
  refused(
    [
      'length /"/ { print | c } # "',
      '{ print x++ /"/ | c; # "\n}',
      '{ print x-- /"/ | c; # "\n}',
      '{ if (1) /"/; print | c; # "\n}',
      '{ while (0) /"/; print | c; # "\n}',
      '{ for (;;) /"/; print | c; # "\n}',
      '{ if\n(1) /"/; print | c; # "\n}',
    ],
    /`\/` after `length`, `\+\+`, `--` or an `if`\/`while`\/`for` condition is a division to some awks/,
  );
  // Without a second `/` no awk can read a regex there; a grouping or a call is a division for all.
  allowed([
    '{ print length / 2 }',
    '{ n = x++ / 2 }',
    '{ if (NR > 1) n++ }',
    '{ print (length) / 2, $1 / 3 }',
    '{ print length($0) / 2, $1 / 3 }',
    '{ x = (a + b) / 2; print "a/b" }',
    '!seen[$0]++',
    '{ for (i = NF; i > 0; i--) printf "%s ", $i; print "" }',
  ]);
});

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

test('RO-3: `-F`/`-v`/`--field-separator`/`--assign` followed by a `-` word take it as their value in every awk, so the program is the word after', () => {
  assert.deepEqual(plan("awk -F -v 'BEGIN { system(\"id\") }' '{print}' f"), {
    allowed: false,
    class: 'unknown',
    reason:
      'awk option `-F` needs a value, attached to it when the value starts with `-` (`-F-`, `--field-separator=-`)',
  });
  for (const c of [
    "gawk --field-separator -v 'BEGIN { system(\"id\") }' '{print}' f",
    "mawk -v -F '{print}' f",
    "awk --assign -F '{print}' f",
    'awk -F',
  ])
    assert.match(plan(c).reason ?? 'ALLOWED', /option `-(F|v|-field-separator|-assign)` needs a value/, c);
  for (const c of ["awk -F- '{print $1}' f", "awk --field-separator=- '{print $1}' f", "awk -F : '{print $1}' f"])
    assert.deepEqual(plan(c), { allowed: true, class: 'inspection', reason: null }, c);
});

test('RO-3: BWK awk (macOS, the BSDs) skips `--field-separator` and `--assign` and runs a detached value as the program, so only `=` is accepted', () => {
  assert.deepEqual(plan("awk --field-separator 'BEGIN { system(\"id\") }' '{print}' f"), {
    allowed: false,
    class: 'unknown',
    reason:
      'awk `--field-separator BEGIN { system("id") }`: write `--field-separator=BEGIN { system("id") }`, since an awk that does not know `--field-separator` runs `BEGIN { system("id") }` as the program',
  });
  assert.match(plan("nawk --assign x=1 '{print x}' f").reason ?? 'ALLOWED', /write `--assign=x=1`/);
  for (const c of ["gawk --assign=x=1 '{print x}' f", "gawk --field-separator=, --sandbox --posix '{print $2}' f"])
    assert.deepEqual(plan(c), { allowed: true, class: 'inspection', reason: null }, c);
});

test('RO-3: a glob before or as the awk program is refused: its expansion could put a file name where the program is read', () => {
  for (const c of ["awk -F ./* '{print}' f", 'awk 1* f', "awk -v ./x* '{print}' f"])
    assert.deepEqual(
      plan(c),
      {
        allowed: false,
        class: 'unknown',
        reason: 'a glob before or as the awk program could put a file name in its place; quote it',
      },
      c,
    );
  assert.deepEqual(plan("awk '{print}' ./*.txt"), { allowed: true, class: 'inspection', reason: null });
  assert.deepEqual(plan("awk -F, '{print}' ./*.txt"), { allowed: true, class: 'inspection', reason: null });
});

test('RO-3: gawk `SYMTAB` is refused: `SYMTAB["ENV" "IRON"]` reads the environment and `SYMTAB["ARG" "V"]` adds files to read', () => {
  refused(
    ['BEGIN { print SYMTAB["ENV" "IRON"]["HOME"] }', 'BEGIN { SYMTAB["ARG" "V"][1] = "/etc/passwd" } { print }'],
    /gawk `SYMTAB` reaches every global variable/,
  );
  allowed(['{ symtab[$1]++ }', '{ MYSYMTAB = 1 }']);
});

test('RO-2: gawk-only long options on the list are allowed, `--` ends the options, and a missing program is named', () => {
  for (const c of [
    "gawk --traditional --re-interval --characters-as-bytes '{print}' f",
    "awk -- '-1' f",
    "awk -F, -- '{print $2}' f",
  ])
    assert.deepEqual(plan(c), { allowed: true, class: 'inspection', reason: null }, c);
  assert.deepEqual(plan('awk -v x=1'), { allowed: false, class: 'unknown', reason: 'awk needs a program' });
});

test('RO-3: where a newline, `;`, `}` or `{` ends a print statement, a later `>` is a comparison; a second line after `\\` is joined', () => {
  allowed([
    '{ print $1 \n x = $2 > 3 }',
    '{ print $1 \\\n\n x = $2 > 3 }',
    '{ print $1; x = $2 > 3 }',
    '{ if ($1) print $1 } $2 > 3 { n++ }',
    '{ print {x = $2 > 3} }',
    '{ print } # a comment at the end',
    // onetrue awk and busybox awk run a bare `printf`; the newline after it ends the statement.
    '{ printf\n x = $2 > 3 }',
  ]);
  refused(['{ print $0\\\n > "out" }', '{ print $1 \\\n > "out" }'], /`print > "file"` writes a file/);
});

test('RO-3: strings and regexes: escapes are skipped, a line break ends neither, `>` inside a regex is refused', () => {
  allowed(['{ x = "a\\"b"; print x }', '$0 ~ /a\\"b/ { print }', '$0 ~ /a/ / 2', '{ s = "\\\\" }']);
  refused(['{ x = "a\nb" }', '{ x = "ab }'], /awk program has an unterminated string/);
  refused(['/a>b/ { print }'], /awk regular expression contains `>`, which makes the program ambiguous to check/);
  refused(['/a;b/ { print }'], /contains `;`/);
  refused(['/ab { print }'], /awk program has an unterminated regular expression/);
  refused(['/a\nb/'], /contains `\\n`/);
});

test('RO-3: after `]` a `/` is a division, so a `|` behind it is seen; after `switch (…)` it is refused like after `if (…)`', () => {
  refused(['{ print a[1] / 2 | c / 3 }'], /`\|` pipes to or from a command/);
  refused(
    ['{ switch (1) /"/; print | c; switch (1) /"/ }'],
    /is a division to some awks and a regular expression to others/,
  );
});
