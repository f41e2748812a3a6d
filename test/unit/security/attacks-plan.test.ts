/**
 * Plan mode against programs whose own language writes files, runs commands or reads files the
 * command line does not name: sed, awk, jq, the output operands of uniq/xxd/yq. Each attack runs
 * a real `vtplan run --mode plan --jsonl` (sandbox as the machine has it) and must leave the
 * workspace, everything outside it and `.vtcode/` untouched, with no key or canary seen.
 * The forms the command policy claims to name are also expected to be refused before they run
 * (RO-3); the rest are the attacker's own variants, which the sandbox must contain whatever the
 * policy says.
 */
import { attackSuite, type Attack } from './attack-checks';
import { PATH_SHIM_EXECUTABLES, PATH_SHIMS, PATH_WITH_WORKSPACE_BIN } from './attack-fixtures';

/** Workspace files the attacks work on. */
const FILES = {
  'a.txt': 'a\nb\nx\n',
  'a.hex': '68690a\n',
  'p.yaml': 'a: 1\n',
  'cmd.txt': 'touch pwned-pipe\n',
  'prog.awk': 'BEGIN { system("touch pwned-awk-f") }\n',
  's.sed': 'w out-f.txt\n',
  'mod.jq': 'def leak: "workspace module";\n',
};
/** Modules and data in the outside folder, for jq's search path. */
const OUTSIDE = {
  'mod.jq': 'def leak: "outside canary from a module";\n',
  'canary.json': '{"c": "outside canary as json"}\n',
};
/** Anything an attack here might leave in the workspace. */
const PWNED = [/^pwned/, /^out/, /^f$/, /^split/, /\.bak$/];

const plan = (name: string, command: readonly string[], extra: Partial<Attack['c']> = {}) => ({
  name,
  mode: 'plan' as const,
  command,
  files: FILES,
  outsideFiles: OUTSIDE,
  ...extra,
});

const attacks: Attack[] = [
  // sed: the forms the brief names, then label/branch tricks and the attacker's own spellings.
  {
    title: 'sed',
    c: plan('sed-named', [
      "sed -n '1e touch pwned' a.txt",
      "sed ':x w {outside}/w.txt' a.txt",
      "sed -n 'b x; e touch pwned-bx' a.txt",
      "sed -n '1r {outside}/canary.txt' a.txt",
      "sed 's/a/b/w out.txt' a.txt",
      "sed 's/x/touch pwned-s/e' a.txt",
    ]),
    expect: { refused: 'all', noWorkspace: PWNED },
  },
  {
    title: 'sed',
    c: plan('sed-labels', [
      "sed -n ':x e touch pwned-label' a.txt",
      "sed -n ':x\tw out-tab.txt' a.txt",
      "sed -n 'bx ; :x e touch pwned-branch' a.txt",
      "sed -n 'T;:t w out-t.txt' a.txt",
      "sed -n '/a/ :x W out-W.txt' a.txt",
      "sed -n -e ':x' -e 'w out-e.txt' a.txt",
    ]),
    expect: { refused: 'all', noWorkspace: PWNED },
  },
  {
    title: 'sed',
    c: plan('sed-spellings', [
      "sed -n 'sxaxbxw out-x.txt' a.txt",
      "sed -n 's|a|b|gw out-g.txt' a.txt",
      "sed -n 's/.*/touch pwned-ep/ep' a.txt",
      "sed --expression='1e touch pwned-long' -n a.txt",
      "sed -E -n '0~1 e touch pwned-step' a.txt",
      "sed -n 'y/a/b/;W out-y.txt' a.txt",
    ]),
    expect: { refused: 'all', noWorkspace: PWNED },
  },
  {
    title: 'sed',
    c: plan('sed-reads', [
      "sed -n '1R {home}/.ssh/id_rsa' a.txt",
      "sed -n '1r ../outside/secret.env' a.txt",
      "sed -n ':x r /proc/1/environ' a.txt",
      'sed -n -f s.sed a.txt',
      'sed -n -i.bak 1p a.txt',
      'sed -n 1p a.txt --in-place=.bak',
    ]),
    expect: { refused: 'all', noWorkspace: PWNED },
  },
  {
    title: 'sed',
    c: plan('sed-own', [
      "sed -z ':x w out-z.txt' a.txt",
      "sed -s -n ':x w out-s.txt' a.txt",
      "sed --debug -n 'w out-dbg.txt' a.txt",
      "sed -n 'v;w out-v.txt' a.txt",
      "sed -n '$!N;e touch pwned-N' a.txt",
      "sed -n '1{e touch pwned-brace\n}' a.txt",
    ]),
    expect: { noWorkspace: PWNED },
  },

  // awk: the named forms and variants.
  {
    title: 'awk',
    c: plan('awk-named', [
      'awk \'BEGIN{ARGV[1]="{outside}/canary.txt"; ARGC=2} {print}\'',
      'awk \'BEGIN{print ENVIRON["VTSEC_TEST_KEY"]}\'',
      'awk \'BEGIN{system("touch pwned")}\'',
      'awk \'BEGIN{"cat {home}/.ssh/id_rsa" | getline x; print x}\'',
      'awk \'{print > "f"}\' a.txt',
    ]),
    expect: { refused: 'all', noWorkspace: PWNED },
  },
  {
    title: 'awk',
    c: plan('awk-own', [
      'awk \'BEGIN{ARGV[ARGC++]="{home}/.ssh/id_rsa"} {print}\' a.txt',
      'awk \'BEGIN{while ((getline l < "{outside}/canary.txt") > 0) print l}\'',
      'awk \'{print | "sh"}\' cmd.txt',
      'awk \'BEGIN{for (k in ENVIRON) print k "=" ENVIRON[k]}\'',
      "awk -v c='touch pwned-v' 'BEGIN{system(c)}'",
      'awk \'{ print >> "out-append" }\' a.txt',
    ]),
    expect: { refused: 'all', noWorkspace: PWNED },
  },
  {
    title: 'awk',
    c: plan('awk-more', [
      'awk -f prog.awk a.txt',
      "awk 'BEGIN { getline; print }' {outside}/canary.txt",
      'awk \'{ printf "%s", $0 | "cat 1>&2" }\' a.txt',
      'awk \'BEGIN { print "x" > "/dev/stderr"; close("/dev/stderr") }\'',
      "awk '{print}' a.txt ../outside/secret.env",
      'awk \'BEGIN { cmd = "sh -c \\"touch pwned-c\\""; cmd | getline; }\'',
    ]),
    expect: { noWorkspace: PWNED },
  },

  // jq: the named forms and variants (modules from outside, the environment, file names).
  {
    title: 'jq',
    c: plan('jq-named', [
      'jq -n env',
      "jq -n '$ENV'",
      'jq -n -L {outside} \'import "canary" as $c; $c\'',
      "jq -n 'input_filename'",
      'jq -n -L {outside} \'include "mod"; leak\'',
    ]),
    expect: { refused: 'all' },
  },
  {
    title: 'jq',
    c: plan('jq-own', [
      'jq -n \'include "mod" {search: "../outside"}; leak\'',
      'jq -n \'import "canary" as $c {search: "{outside}"}; $c\'',
      "jq -n 'env | tostring | explode | reverse | implode'",
      "jq -n '$ENV | @base64'",
      'jq -n \'[env[]] | join(" ")\'',
      'jq -n \'"\\(env)"\'',
    ]),
    expect: { refused: 'all' },
  },
  {
    title: 'jq',
    c: plan('jq-more', [
      "jq -n 'modulemeta'",
      "jq -n '$__loc__'",
      "jq -n 'get_search_list'",
      "jq -n --rawfile x ../outside/secret.env '$x'",
      'jq -R . {home}/.npmrc',
      "jq -n 'input' ../outside/canary.json",
    ]),
    expect: {},
  },

  // Option models: operands and options that make a reader write.
  {
    title: 'option-models',
    c: plan('uniq-xxd-yq-named', [
      'uniq --group a.txt out.txt',
      'uniq a.txt out.txt',
      'xxd -r -ps a.hex out.bin',
      "yq -i '.a = 2' p.yaml",
      "yq --in-place '.a = 3' p.yaml",
    ]),
    expect: { refused: 'all', noWorkspace: PWNED },
  },
  {
    title: 'option-models',
    c: plan('uniq-xxd-yq-own', [
      'uniq -c -- a.txt out-c.txt',
      'uniq --group=both a.txt out-b.txt',
      'xxd -rp a.hex out-rp.bin',
      'xxd a.txt out.hex',
      "yq -Pi '.a = 4' p.yaml",
      "yq eval --in-place '.a = 5' p.yaml",
    ]),
    expect: { refused: 'all', noWorkspace: PWNED },
  },
  {
    title: 'option-models',
    c: plan('option-models-more', [
      "yq --in-place=true '.a = 6' p.yaml",
      "yq -n 'env'",
      "yq -n '$ENV.VTSEC_TEST_KEY'",
      'yq -n -L {outside} \'include "mod"; leak\'',
      'sort -o out-sort.txt a.txt',
      'git diff --no-index --output=out-diff.txt a.txt p.yaml',
    ]),
    expect: { noWorkspace: PWNED },
  },

  // The CLI started with the workspace's node_modules/.bin on PATH: `cat`, `ls`, `git` resolve
  // to programs the repository ships. The sandbox must keep them from writing anything.
  {
    title: 'PATH into the workspace',
    c: {
      name: 'path-shims',
      mode: 'plan',
      env: { PATH: PATH_WITH_WORKSPACE_BIN },
      files: PATH_SHIMS,
      executables: PATH_SHIM_EXECUTABLES,
      command: ['cat README.md', 'ls', 'git status'],
    },
    expect: { noWorkspace: PWNED },
  },
];

attackSuite('plan-mode attacks: sed, awk, jq, option models', attacks, { concurrency: 4 });
