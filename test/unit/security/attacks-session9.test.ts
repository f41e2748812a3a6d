/**
 * The holes found by issue 19's surviving mutants, tried end to end through a session (MODE-1,
 * RO-2, RO-3): a script given as a glob that a file name in the workspace fills in (sed, awk,
 * jq), git's manual viewer, pytest argument files, cargo's pass-through, `hostname --`; with the
 * OS sandbox and with the policy alone. Each call must be refused before it runs, and plan mode
 * must leave the workspace as it was.
 */
import assert from 'node:assert/strict';
import { attackSuite, type Attack } from './attack-checks';
import type { CaseReport } from './harness';

const FILES = {
  notes: 'one\ntwo\n',
  'f.json': '{"a":1}\n',
  'BEGIN{system("touch pwned-awk")}': '',
  'keys,$ENV.HOME': '',
  'a x': '',
  args: '-p no:cacheprovider\n',
};
const COMMANDS = [
  'sed -n a* notes',
  'awk B* notes',
  'jq k* f.json',
  'git help log',
  'git log --help',
  'pytest @args',
  'cargo test -- --logfile pwned-cargo.txt',
  'cargo clippy -- @args',
  'hostname -- pwned-host',
];

/** Three calls per session: more refusals in a row close the tools, which would refuse the rest for another reason. */
const GROUPS = [COMMANDS.slice(0, 3), COMMANDS.slice(3, 6), COMMANDS.slice(6)];

const attacks: Attack[] = (['bwrap', 'none'] as const).flatMap((sandbox) =>
  GROUPS.map((commands, g) => ({
    title: `issue 19 holes ${g + 1}, sandbox ${sandbox}`,
    c: {
      name: `issue19-holes-${g + 1}-${sandbox}`,
      mode: 'plan' as const,
      sandbox,
      files: FILES,
      command: commands,
      noWorkspace: ['pwned-awk', 'pwned-cargo.txt'],
    },
    expect: {
      refused: 'all' as const,
      extra: {
        name: 'RO-3: each call was refused by the command policy itself, not by closed tools',
        check: (r: CaseReport) => {
          assert.deepEqual(
            r.commands.map((c) => c.command),
            commands,
          );
          for (const c of r.commands)
            assert.match(c.result?.content ?? c.blocked ?? '', /^(Mutation blocked|Not run:)/, c.command);
        },
      },
    },
  })),
);

attackSuite('issue 19 holes through a session', attacks, { concurrency: 3 });
