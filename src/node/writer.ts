/**
 * The Writer port on Node: writes a temp file beside the target and renames it over, so an
 * editor or a test runner watching the file never reads half of it. An existing file keeps its
 * permission bits (a script stays executable); a new one gets the usual 0644 less the umask.
 * The caller has already confined the path to the workspace and resolved symlinks.
 */
import { promises as fsp, type Stats } from 'node:fs';
import { posix as path } from 'node:path';
import { NotRegularFileError, type Writer } from '../core/ports';
import { specialKindOf } from './fs';

let counter = 0;

export const nodeWriter: Writer = {
  async writeText(target, content) {
    await fsp.mkdir(path.dirname(target), { recursive: true });
    let mode = 0o666;
    let existing: Stats | null = null;
    try {
      existing = await fsp.stat(target);
    } catch (err) {
      // New file: the process umask applies to 0o666.
      if ((err as { code?: string }).code !== 'ENOENT') throw err;
    }
    // The rename would silently replace a FIFO, socket or device the user keeps in the tree.
    if (existing !== null && !existing.isFile()) throw new NotRegularFileError(target, specialKindOf(existing));
    if (existing !== null) mode = existing.mode & 0o7777;
    counter += 1;
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${counter}.vtplan-tmp`);
    try {
      const handle = await fsp.open(temp, 'wx', mode);
      try {
        await handle.writeFile(content, 'utf8');
        if (mode !== 0o666) await handle.chmod(mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fsp.rename(temp, target);
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  },
};
