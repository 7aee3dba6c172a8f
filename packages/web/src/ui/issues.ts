import { useState } from 'react';

/** Messages by dotted field path (`cpu_max_watts`, `quota.total_running_jobs`). */
export type FieldIssues = Record<string, string>;

/** A contract schema as far as this needs it (zod's safeParse), so the console needs no zod of its own. */
interface Checker {
  safeParse(
    value: unknown,
  ):
    | { success: true }
    | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

/**
 * What a contract schema refuses in `value`, the first message per field: a form checks with the
 * very schema the server checks with, before any request, so that nothing the server would
 * refuse is sent and both say the same words.
 */
export function issuesOf(schema: Checker, value: unknown): FieldIssues {
  const parsed = schema.safeParse(value);
  if (parsed.success) return {};
  const found: FieldIssues = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join('.');
    found[key] ??= issue.message;
  }
  return found;
}

/**
 * A form's own check with `issuesOf`: nothing is said before the first send; from then on each
 * field shows its message as it is typed. `sendable()` marks the send and tells whether to go on.
 */
export function useLocalIssues(schema: Checker, value: unknown, extra: FieldIssues = {}) {
  const [tried, setTried] = useState(false);
  const found = { ...issuesOf(schema, value), ...extra };
  return {
    issues: found,
    shown: (path: string): string | undefined => (tried ? found[path] : undefined),
    sendable: () => {
      setTried(true);
      return Object.keys(found).length === 0;
    },
  };
}
