/**
 * A batch file or expression Orrery refuses. The message names the line (1-based) when it is
 * known, so that the console and the API can show it as is: "line 7: unsupported key `services`
 * in a task".
 */
export class BatchError extends Error {
  /** The message without its `line N:` prefix. */
  readonly reason: string;

  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(line === null ? message : `line ${line}: ${message}`);
    this.name = 'BatchError';
    this.reason = message;
  }
}

/** Re-throws an expression's error with the line of the field it came from, and the task. */
export function atLine<T>(line: number | null, where: string | null, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof BatchError && e.line === null) {
      throw new BatchError(where ? `${where}: ${e.reason}` : e.reason, line);
    }
    throw e;
  }
}
