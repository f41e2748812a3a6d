/**
 * Child process for the crash-safety test: rewrites one plan file in a loop, alternating two
 * valid plans, through the private atomic writer, until it is killed.
 * Usage: node --import tsx crash-writer.ts <root> <target> <planA file> <planB file>
 */
import { readFileSync } from 'node:fs';
import { nodeFileSystem } from '../../../src/node/fs';
import { writePrivateAtomic } from '../../../src/core/store/atomic';

const [root, target, fileA, fileB] = process.argv.slice(2) as [string, string, string, string];
const plans = [readFileSync(fileA, 'utf8'), readFileSync(fileB, 'utf8')];

async function loop(): Promise<never> {
  for (let i = 0; ; i++) {
    await writePrivateAtomic(nodeFileSystem, { root, path: target, content: plans[i % 2] as string });
    if (i === 1) process.stdout.write('writing\n');
  }
}

void loop();
