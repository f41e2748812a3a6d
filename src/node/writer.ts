/**
 * The Writer port on Node: writes a temp file beside the target and renames it over, so an
 * editor or a test runner watching the file never reads half of it. An existing file keeps its
 * permission bits (a script stays executable); a new one gets the usual 0644 less the umask.
 * The caller has already confined the path to the workspace and resolved symlinks.
 */
import { promises as fsp } from 'node:fs';
import { posix as path } from 'node:path';
import type { Writer } from '../core/ports';

let counter = 0;

export const nodeWriter: Writer = {
  async writeText(target, content) {
    await fsp.mkdir(path.dirname(target), { recursive: true });
    let mode = 0o666;
    try {
      mode = (await fsp.stat(target)).mode & 0o7777;
    } catch {
      // New file: the process umask applies to 0o666.
    }
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
