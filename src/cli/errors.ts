/** Errors the CLI reports to the user with an exit code instead of a stack trace. */

/** A usage or configuration problem (exit 2 unless stated). */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}
