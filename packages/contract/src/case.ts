/**
 * snake_case on the wire, camelCase in TypeScript. This is the one place where keys are converted.
 * Values under OPAQUE_KEYS are user-owned maps (environment variables, labels) and keep their keys.
 */
type SnakeToCamel<S extends string> = S extends `${infer H}_${infer T}`
  ? `${H}${Capitalize<SnakeToCamel<T>>}`
  : S;
type CamelToSnake<S extends string> = S extends `${infer C}${infer R}`
  ? C extends Lowercase<C>
    ? `${C}${CamelToSnake<R>}`
    : `_${Lowercase<C>}${CamelToSnake<R>}`
  : S;

export type Camel<T> = T extends readonly (infer U)[]
  ? Camel<U>[]
  : T extends Date
    ? T
    : T extends object
      ? { [K in keyof T as K extends string ? SnakeToCamel<K> : K]: Camel<T[K]> }
      : T;
export type Snake<T> = T extends readonly (infer U)[]
  ? Snake<U>[]
  : T extends Date
    ? T
    : T extends object
      ? { [K in keyof T as K extends string ? CamelToSnake<K> : K]: Snake<T[K]> }
      : T;

// `input`: a template's input JSON Schema (property names are wire names) and an app's input values.
export const OPAQUE_KEYS = new Set([
  'env',
  'secret_env',
  'secretEnv',
  'labels',
  'annotations',
  'input',
]);

const snakeToCamel = (k: string) => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const camelToSnake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function convert(value: unknown, key: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => convert(v, key));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[key(k)] = OPAQUE_KEYS.has(k) ? v : convert(v, key);
  }
  return out;
}

export const toCamel = <T>(value: T): Camel<T> => convert(value, snakeToCamel) as Camel<T>;
export const toSnake = <T>(value: T): Snake<T> => convert(value, camelToSnake) as Snake<T>;
