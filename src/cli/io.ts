/** What a CLI command may touch; tests pass their own to capture output. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whole standard input as text (used for `-` file arguments). */
  readStdin(): Promise<string>;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** Wrong flags or arguments: exit 2 with a one-line hint on stderr. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure that is not the user's typing (unreadable file, I/O): exit 2 as well, message on stderr. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

export interface CliCommand {
  name: string;
  /** One line for `vtplan --help`. */
  summary: string;
  /** Usage synopsis, e.g. `vtplan validate <file|-> [--json]`. */
  usage: string;
  /** More for `vtplan <command> --help`, after the usage and summary. */
  help?: string;
  /** Returns the process exit code. Throw UsageError / InputError for exit 2. */
  run(args: readonly string[], io: CliIO): Promise<number>;
}
