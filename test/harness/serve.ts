/** Serves the workbench for `npm start` until interrupted. Keeps its profile between runs. */
import { mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { repoRoot, startServer } from './vscode-server';

async function main(): Promise<void> {
  const folder = process.argv[2];
  if (!folder) throw new Error('usage: serve.ts <folder>');
  const runDir = join(tmpdir(), `vtplan-start-${userInfo().uid}`);
  mkdirSync(runDir, { recursive: true });
  const wanted = Number(process.env.VTPLAN_PORT ?? 3210);
  // The workbench as users see it (notification toasts show): no smoke-test driver, so the
  // extension is loaded as an installed one rather than through the development payload.
  const options = { runDir, smokeTestDriver: false, installedExtensions: [repoRoot] };
  const server = await startServer({
    ...options,
    port: Number.isInteger(wanted) && wanted > 0 ? wanted : undefined,
  }).catch(() => startServer(options));
  const url = server.url(folder);
  console.log(
    `\nVT Code Planning is running in VS Code (offline server) on ${folder}\n\n  Open: ${url}\n\nPress Ctrl+C to stop.`,
  );
  const stop = () => {
    void server.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await new Promise(() => undefined);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
