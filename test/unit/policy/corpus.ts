import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'security');

/** Commands of a security corpus file: one a line, `#` comment lines and blank lines skipped. */
export function corpus(name: 'mutating.txt' | 'readonly.txt'): string[] {
  return readFileSync(join(DIR, name), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(#|$)/.test(line));
}
