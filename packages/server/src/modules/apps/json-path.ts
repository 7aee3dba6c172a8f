/**
 * The JSONPath subset integrations use: `$`, `.name` and `[index]` steps (`$.a.b`, `$.a[1].b`).
 * Null when the path is not of that form; `undefined` result when it names nothing.
 */
export function parsePath(path: string): (string | number)[] | null {
  if (!path.startsWith('$')) return null;
  const steps: (string | number)[] = [];
  const re = /\.([A-Za-z_][\w-]*)|\[(\d+)\]/y;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const m = re.exec(path);
    if (!m) return null;
    steps.push(m[1] !== undefined ? m[1] : Number(m[2]));
  }
  return steps;
}

export function valueAt(root: unknown, steps: (string | number)[]): unknown {
  let at = root;
  for (const s of steps) {
    if (at === null || typeof at !== 'object') return undefined;
    if (typeof s === 'number' && !Array.isArray(at)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(at, s)) return undefined;
    at = (at as Record<string | number, unknown>)[s];
  }
  return at;
}
