/** A mistake in how the tool was called: exit 2, with a message saying what to change. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Where the tool runs: its environment, the directory relative paths mean, and where it prints. */
export interface CliContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  print(line: string): void;
  printError(line: string): void;
}
