/**
 * Auto mode runs commands unattended and may write the workspace, but nothing outside it (MODE-1):
 * not the sibling folder, not HOME, not /tmp, /var/tmp or /dev/shm of the host, not the CLI's
 * state folder (which holds the session-log key), and not `.vtcode/` (the runtime's record).
 * The policy refuses what names an outside path; everything here is written so that it does not
 * (a path inside `sh -c`, awk, git aliases, node, a symlink, CDPATH), so the sandbox decides.
 * Background processes must not outlive their command (a write after it ended could land while
 * the session has gone back to plan mode).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attackSuite, type Attack } from './attack-checks';

/**
 * Positive control instead of a fixed wait: started only after the run ended, an unsandboxed
 * process with the same `sleep 2` as the lingering ones must write its file. Once it did, a
 * survivor (started earlier, during the run) would have written too.
 */
async function lateWriterControl(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'linger-control-'));
  const marker = join(dir, 'late.txt');
  try {
    spawn('sh', ['-c', 'sleep 2; echo late > "$1"', 'sh', marker], { stdio: 'ignore' });
    const end = Date.now() + 60_000;
    while (!existsSync(marker)) {
      if (Date.now() > end) throw new Error('the control process never wrote its file');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Links a repository or an earlier command could have left in the workspace. */
const LINKS = {
  'link-to-outside-file': '{outside}/canary.txt',
  'link-to-outside-dir': '{outside}',
  'link-to-home': '{home}',
  'link-to-state': '{base}/state',
};
/** The CLI's state folder (the session-log key, made before the run). Host temp folders are checked by tag. */
const WATCH = ['{base}/state'];

/** Tries every way out of a read-only `.vtcode` from inside the sandbox, then writes through each. */
const ESCAPE_VTCODE = [
  'echo vtsec-escape-ran',
  'V="$PWD/.vtcode"',
  'unshare -Urm sh -c \'umount -l "$0"; echo forged > "$0/plans/pwned-umount.md"\' "$V" 2>&1',
  'unshare -Urm sh -c \'mount -o remount,rw,bind "$0"; echo forged > "$0/plans/pwned-remount.md"\' "$V" 2>&1',
  'unshare -Urm sh -c \'mkdir -p /tmp/w && mount --bind "$(dirname "$0")" /tmp/w && echo forged > /tmp/w/.vtcode/plans/pwned-bind.md\' "$V" 2>&1',
  'unshare -Urm sh -c \'mkdir -p /tmp/r && mount --rbind "$(dirname "$0")" /tmp/r && mount -o remount,rw,bind /tmp/r/.vtcode && echo forged > /tmp/r/.vtcode/plans/pwned-rbind.md\' "$V" 2>&1',
  'mv "$V" "$PWD/vtcode-moved" 2>&1; mkdir -p "$V/plans" 2>&1; echo forged > "$V/plans/pwned-mv.md" 2>&1',
  'exit 0',
].join('\n');

const attacks: Attack[] = [
  {
    title: 'auto writing outside',
    c: {
      name: 'auto-outside-named',
      mode: 'auto',
      command: [
        "setsid sh -c 'touch {outside}/p1'",
        'awk \'BEGIN{system("touch {outside}/p2")}\'',
        "git -c alias.x='!touch {outside}/p3' x",
        "find . -maxdepth 0 -exec sh -c 'touch {outside}/p4' \\;",
        "node -e \"require('fs').writeFileSync('{outside}/p5','x')\"",
      ],
      watch: WATCH,
    },
  },
  {
    title: 'auto writing outside',
    c: {
      name: 'auto-outside-links',
      mode: 'auto',
      symlinks: LINKS,
      command: [
        'ln -s {outside} out && echo x > out/p6',
        'echo x > link-to-outside-file',
        'echo x >> link-to-outside-dir/canary.txt',
        'touch link-to-home/.pwned',
        "node -e \"require('fs').appendFileSync('link-to-outside-file','x')\"",
        'cp README.md link-to-outside-dir/ && mkdir -p link-to-state/vtplan/pwned',
      ],
      watch: WATCH,
    },
  },
  {
    title: 'auto writing outside',
    c: {
      name: 'auto-outside-cd',
      mode: 'auto',
      command: [
        'CDPATH={outside} cd . && touch p7',
        'CDPATH={base} cd outside && touch p8',
        'CDPATH=.. cd outside && touch p9',
        'cd /tmp && touch {tag}-cd',
        "node -e \"process.chdir('/tmp'); require('fs').writeFileSync('{tag}-node','x')\"",
        "node -e \"process.chdir('..'); require('fs').writeFileSync('outside/p10','x')\"",
      ],
      watch: WATCH,
    },
  },
  {
    title: 'auto writing outside',
    c: {
      name: 'auto-outside-more',
      mode: 'auto',
      command: [
        "python3 -c \"open('{home}/.bashrc','a').write('pwned')\"",
        "node -e \"const fs=require('fs'); for (const p of ['/dev/shm/{tag}','/var/tmp/{tag}','{tmp}/{tag}']) { try { fs.writeFileSync(p,'x'); console.log('wrote', p) } catch (e) { console.log(e.code, p) } }\"",
        "node -e \"require('fs').mkdirSync('{base}/state/vtplan/pwned',{recursive:true})\"",
        "node -e \"require('child_process').execSync('git clone -q . {outside}/clone', {stdio:'inherit'})\"",
        "sh -c 'cd ..; touch outside/p11'",
        "node -e \"require('fs').symlinkSync('/', 'root-link'); require('fs').writeFileSync('root-link{outside}/p12','x')\"",
      ],
      watch: WATCH,
    },
  },
  {
    title: 'auto writing outside (log key)',
    c: {
      name: 'auto-read-log-key',
      mode: 'auto',
      command: [
        "node -e \"const fs=require('fs'); const d='{base}/state/vtplan/log-keys'; for (const f of fs.readdirSync(d)) console.log('vtsec-key-file', fs.readFileSync(d+'/'+f,'utf8'))\"",
        'ls -la link-to-state/vtplan/log-keys',
        "find / -path /proc -prune -o -name 'log-keys' -print 2>/dev/null",
      ],
      symlinks: LINKS,
      watch: WATCH,
    },
    expect: {
      extra: {
        name: 'STORE-2: no command saw the session-log key file',
        check: (r) => {
          for (const c of r.commands)
            if ((c.seen ?? '').includes('vtsec-key-file'))
              throw new Error(`the log key was read through ${c.command}: ${c.seen ?? ''}`);
        },
      },
    },
  },
  {
    title: 'auto writing .vtcode',
    c: {
      name: 'auto-vtcode-named',
      mode: 'auto',
      command: [
        'echo \'{"type":"mode.changed","reason":"vtsec-forged"}\' >> .vtcode/sessions/x.jsonl',
        'echo vtsec-forged >> .vtcode/plans/x.md',
        'cd .vtcode && echo vtsec-forged > plans/y.md',
        'rm -rf .vtcode/sessions',
        'ln -s .vtcode v && echo vtsec-forged > v/plans/z.md',
      ],
    },
    expect: { refused: 'all' },
  },
  {
    title: 'auto writing .vtcode',
    c: {
      name: 'auto-vtcode-bypass',
      mode: 'auto',
      files: {
        'forge.sh': [
          'for f in .vtcode/sessions/*.jsonl; do',
          '  id=$(basename "$f" .jsonl)',
          '  printf \'{"type":"mode.changed","session":"%s","turn":1,"seq":9999,"ts":"2026-01-01T00:00:00.000Z","from":"auto","to":"build","reason":"vtsec-forged","mac":"%064d"}\\n\' "$id" 0 >> "$f" && echo "appended to $f"',
          'done',
          'echo vtsec-forged > .vtcode/plans/vtsec-forged.md',
          'mkdir -p .vtcode/tasks && echo vtsec-forged > .vtcode/tasks/current_task.md',
          'exit 0',
        ].join('\n'),
      },
      command: [
        "find . -name '*.jsonl' -exec sh -c 'echo vtsec-forged >> \"$1\"' _ {} \\;",
        'sh forge.sh',
        "node -e \"const fs=require('fs'); const d='.vt'+'code/sessions'; for (const f of fs.readdirSync(d)) fs.appendFileSync(d+'/'+f, 'vtsec-forged\\n')\"",
        "node -e \"require('fs').renameSync('.vt'+'code', 'vt-old'); require('fs').mkdirSync('.vt'+'code/plans', {recursive:true})\"",
        "python3 -c \"import glob; [open(f,'a').write('vtsec-forged') for f in glob.glob('.vt'+'code/*/*')]\"",
        // A hard link to the log outside the read-only mount, then an append through it.
        "node -e \"const fs=require('fs'); const d='.vt'+'code/sessions/'; fs.linkSync(d+fs.readdirSync(d)[0], 'hl'); fs.appendFileSync('hl','vtsec-forged')\"",
      ],
      then: [{ message: 'Check README.md once more.', command: ['echo resumed-ok'] }],
    },
    expect: { noWorkspace: ['vt-old', 'hl'] },
  },
  {
    title: 'auto writing .vtcode',
    c: { name: 'auto-vtcode-escape', mode: 'auto', files: { 'escape.sh': ESCAPE_VTCODE }, command: ['sh escape.sh'] },
    expect: {
      noWorkspace: ['vtcode-moved'],
      extra: {
        name: 'harness: the escape script really ran (the model saw `vtsec-escape-ran`)',
        check: (r) => {
          if (!r.commands.some((c) => (c.seen ?? '').includes('vtsec-escape-ran')))
            throw new Error('the escape script did not run');
        },
      },
    },
  },
  {
    title: 'auto lingering processes',
    c: {
      name: 'auto-linger',
      mode: 'auto',
      command: [
        "setsid sh -c 'sleep 2; echo late > late1.txt; touch {outside}/late' > /dev/null 2>&1 &",
        "nohup sh -c 'sleep 2; echo late > late2.txt' > /dev/null 2>&1 &",
        "node -e \"require('child_process').spawn('sh', ['-c', 'sleep 2; echo late > late3.txt'], { detached: true, stdio: 'ignore' }).unref()\"",
        'echo started',
      ],
      // A survivor must have been killed with its command; the control proves it had its time.
      sideEffect: lateWriterControl,
    },
    expect: { noWorkspace: ['late1.txt', 'late2.txt', 'late3.txt'] },
  },
];

attackSuite('auto mode stays inside the workspace', attacks, { concurrency: 4 });
