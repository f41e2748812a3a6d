import { runCli } from './run';
import type { CliIO } from './io';
import { errorStack } from '../core/errors';

const io: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  cwd: process.cwd(),
  env: process.env,
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`vtplan: internal error: ${errorStack(err)}\n`);
    process.exitCode = 1;
  },
);
