/**
 * xxd in plan mode (RO-3). xxd does not use getopt: each word is one option, known by its first
 * letter after `-` or `--` (`-ps`, `-plain`, `--postscript` are all `-p`; `-revert` is `-r`),
 * options end at the first other word, and the word after the input file is an output file that
 * xxd creates. `-r` turns a dump back into bytes (and patches the output file in place). Both
 * are refused; so is any option word whose value the policy cannot place with certainty.
 */
import type { Word } from './args';
import { allow, reject, type SegmentVerdict } from './verdict';

/** Options without a value: autoskip, bits, little-endian, uppercase, postscript, include, capitalize, decimal, EBCDIC, help, version. */
const FLAGS = 'abeupiCdEhv';
/** Options with a value: cols, groupsize, len, name, offset, seek. */
const VALUED = 'cglnos';

export function checkXxd(words: readonly Word[]): SegmentVerdict {
  let i = 1;
  for (; i < words.length; i += 1) {
    const w = words[i] as Word;
    const t = w.text;
    if (t === '--') {
      i += 1;
      break;
    }
    if (!t.startsWith('-') || t === '-') break;
    const body = t.startsWith('--') && t.length > 2 ? t.slice(1) : t;
    const letter = body[1] ?? '';
    if (letter === 'r')
      return reject('mutation', `\`xxd ${t}\` reverts a dump into binary, patching its output file in place`);
    if (FLAGS.includes(letter)) continue;
    if (!VALUED.includes(letter)) return reject('unknown', `xxd option \`${t}\` is not on the read-only list`);
    const rest = body.slice(2);
    if (rest === '') {
      i += 1;
      continue;
    }
    // An attached value is certain only when it is a number; `-cols 8` and `-c8` differ.
    if (!/^[-+]?\d/.test(rest))
      return reject(
        'unknown',
        `\`xxd ${t}\`: write the value as a separate word or a number attached to the letter (\`-c 8\`, \`-c8\`)`,
      );
  }
  const operands = words.slice(i);
  if (operands.some((o) => o.glob))
    return reject('unknown', 'a glob after `xxd` could expand to two files, and xxd writes the second');
  if (operands.length > 1) return reject('mutation', `\`xxd\` writes its second operand (\`${operands[1]?.text}\`)`);
  return allow('inspection');
}
