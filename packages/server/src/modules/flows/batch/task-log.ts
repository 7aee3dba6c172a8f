/**
 * The commands a task's log carries, as the flow client reads them after its job ends:
 * `::set-output name=N::V` and `::save-state name=N::V`; `::stop-commands::TOKEN` ignores
 * commands (so a task can print untrusted text) until a line `::TOKEN::`.
 */
export function parseTaskLog(text: string): {
  outputs: Record<string, string>;
  state: Record<string, string>;
} {
  const outputs = new Map<string, string>();
  const state = new Map<string, string>();
  let stopToken: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (stopToken !== null) {
      if (line === `::${stopToken}::`) stopToken = null;
      continue;
    }
    const stop = /^::stop-commands::(.+)$/.exec(line);
    if (stop) {
      stopToken = stop[1];
      continue;
    }
    const m = /^::(set-output|save-state) name=([^:]+)::(.*)$/.exec(line);
    if (!m) continue;
    (m[1] === 'set-output' ? outputs : state).set(m[2], m[3]);
  }
  // Built from entries so that any name a log sets stays an ordinary key.
  return { outputs: Object.fromEntries(outputs), state: Object.fromEntries(state) };
}
