/**
 * The options that turn a reading program into one that writes a file, runs another program or
 * decompresses through one (RO-3), each with the reason a user is shown. Spellings follow the
 * programs' own parsers: getopt_long accepts any unambiguous abbreviation of a long option
 * (`sort --out`, `file --comp`), and a short option may sit anywhere in a cluster (`sort -uo`), so
 * every prefix and every cluster letter counts (args.ts). Programs with a language or an option
 * model of their own live in their own modules (git, sed, awk, jq, xxd, runners).
 *
 * The list follows each program's manual (GNU coreutils and diffutils, file, ripgrep, fd, tree) and
 * covers VT Code's shell-policy deny-lists.
 */
import type { OptionRule } from './args';

const FD: readonly OptionRule[] = [
  { short: 'x', long: ['exec'], why: 'runs a command for every match' },
  { short: 'X', long: ['exec-batch'], why: 'runs a command on the matches' },
  { short: 'l', long: ['list-details'], why: 'runs `ls -l` on the matches; run `ls -l` on the paths yourself' },
];

export const WRITE_OPTIONS = {
  rg: [
    { long: ['pre'], why: 'runs a preprocessor program on every file it searches' },
    { long: ['pre-glob'], why: 'picks the files a `--pre` preprocessor program runs on' },
    {
      short: 'z',
      long: ['search-zip'],
      why: 'decompresses files through external programs (gzip, xz, bzip2, zstd, …) found on PATH',
    },
    { long: ['hostname-bin'], why: 'runs a program to find the host name for hyperlinks' },
  ],
  fd: FD,
  fdfind: FD,
  sort: [
    { short: 'o', long: ['output'], why: 'writes the sorted result to a file' },
    { short: 'T', long: ['temporary-directory'], why: 'writes its temporary files into the named folder' },
    { long: ['compress-program'], why: 'runs a compression program on its temporary files' },
  ],
  tree: [
    { short: 'o', long: ['output'], why: 'writes the listing to a file' },
    { short: 'R', why: 'writes a listing file (`00Tree.html`) into every folder it visits' },
  ],
  date: [{ short: 's', long: ['set'], why: 'sets the system clock' }],
  file: [
    { short: 'C', long: ['compile'], why: 'compiles a magic file and writes the result (`magic.mgc`)' },
    {
      short: 'zZ',
      long: ['uncompress', 'uncompress-noreport'],
      why: 'decompresses the files it reads, through external programs for some formats',
    },
    { short: 'p', long: ['preserve-date'], why: 'writes the access times of the files it reads back to them' },
  ],
  diff: [{ short: 'l', long: ['paginate'], why: 'passes its output through the `pr` program' }],
  base64: [{ short: 'o', long: ['output'], why: 'writes the result to a file (BSD and macOS base64)' }],
  printf: [{ short: 'v', why: 'assigns a shell variable instead of printing' }],
  hostname: [{ short: 'bF', long: ['boot', 'file'], why: 'sets the host name' }],
} satisfies Readonly<Record<string, readonly OptionRule[]>>;
