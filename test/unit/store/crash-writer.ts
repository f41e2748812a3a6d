/**
 * Child process for the crash-safety test: rewrites one plan file in a loop, alternating two
 * valid plans, through the private atomic writer, until it is killed.
 * Usage: node --import tsx crash-writer.ts <root> <target> <planA file> <planB file> <killAt> <cut>
 *
 * Write number <killAt> (1-based, counting every file the writer writes) stops after its first
 * <cut> characters are on disk, reports `in-write <path> <cut>` on stdout and waits: the parent's
 * SIGKILL then lands inside the write window by construction, not by timing.
 */
import { readFileSync } from 'node:fs';
import { nodeFileSystem } from '../../../src/node/fs';
import type { FileSystem } from '../../../src/core/ports';
import { writePrivateAtomic } from '../../../src/core/store/atomic';

const [root, target, fileA, fileB, killAtArg, cutArg] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const plans = [readFileSync(fileA, 'utf8'), readFileSync(fileB, 'utf8')];
const killAt = Number(killAtArg);
const cut = Number(cutArg);

let writes = 0;
const interruptible: FileSystem = {
  ...nodeFileSystem,
  async writeNewFileDurable(path, content, mode) {
    writes += 1;
    if (writes !== killAt) return nodeFileSystem.writeNewFileDurable(path, content, mode);
    await nodeFileSystem.writeNewFileDurable(path, content.slice(0, cut), mode);
    process.stdout.write(`in-write ${path} ${cut}\n`);
    // The rest of the content never comes: the parent kills this process now.
    setInterval(() => undefined, 60_000);
    return new Promise<void>(() => undefined);
  },
};

async function loop(): Promise<never> {
  for (let i = 0; ; i++) {
    await writePrivateAtomic(interruptible, { root, path: target, content: plans[i % 2] as string });
  }
}

void loop();
