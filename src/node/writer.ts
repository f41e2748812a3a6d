/**
 * The Writer port on Node: writes a temp file beside the target and renames it over, so an
 * editor or a test runner watching the file never reads half of it. An existing file keeps its
 * permission bits (a script stays executable); a new one gets the usual 0666 less the umask.
 * The caller has already confined the path to the workspace and resolved symlinks.
 */
import { promises as fsp, type Stats } from 'node:fs';
import { posix as path } from 'node:path';
import { NotRegularFileError, type Writer } from '../core/ports';
import { renameDurable, specialKindOf, writeNewFileDurable } from './fs';

let counter = 0;

export const nodeWriter: Writer = {
  async writeText(target, content) {
    await fsp.mkdir(path.dirname(target), { recursive: true });
    let existing: Stats | null = null;
    try {
      existing = await fsp.stat(target);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT') throw err;
    }
    // The rename would silently replace a FIFO, socket or device the user keeps in the tree.
    if (existing !== null && !existing.isFile()) throw new NotRegularFileError(target, specialKindOf(existing));
    // A new file gets the usual 0666 less the umask (no mode given).
    const mode = existing === null ? undefined : existing.mode & 0o7777;
    counter += 1;
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${counter}.vtplan-tmp`);
    try {
      await writeNewFileDurable(temp, content, mode);
      await renameDurable(temp, target);
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  },
};
