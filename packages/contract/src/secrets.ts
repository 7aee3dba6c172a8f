import { z } from 'zod';
import { formatUri } from './uris.js';

/**
 * Secrets of a project. The wire follows the public secrets
 * service so that the official CLI works unchanged: keys are `[A-Za-z0-9_.-]`, 1 to 253
 * characters, not starting with a dot; values travel as base64 of at most 1 MiB of bytes.
 */
export const SECRET_KEY_MAX = 253;
export const SECRET_KEY_CHARS = /^[A-Za-z0-9_.-]+$/;
/** Used by the platform itself. */
export const RESERVED_SECRET_KEY = '---neuro---';
export const SECRET_VALUE_MAX_BYTES = 1024 * 1024;
/** The CLI sends no cluster; secrets then belong to the project in this cluster. */
export const SECRETS_DEFAULT_CLUSTER = 'default';

export const SECRET_KEY_MESSAGES = {
  required: 'Secret key is required',
  tooLong: `Secret key must be at most ${SECRET_KEY_MAX} characters`,
  chars: 'Secret key may contain only letters, digits, ".", "_" and "-"',
  dot: 'Secret key must not start with "."',
  reserved: `Secret key ${RESERVED_SECRET_KEY} is reserved`,
} as const;
export const SECRET_VALUE_MESSAGES = {
  required: 'Secret value is required',
  base64: 'Secret value must be base64-encoded',
  tooLarge: 'Secret value must be at most 1 MiB',
} as const;

export const SecretKey = z
  .string()
  .min(1, SECRET_KEY_MESSAGES.required)
  .max(SECRET_KEY_MAX, SECRET_KEY_MESSAGES.tooLong)
  .regex(SECRET_KEY_CHARS, SECRET_KEY_MESSAGES.chars)
  .refine((k) => !k.startsWith('.'), SECRET_KEY_MESSAGES.dot)
  .refine((k) => k !== RESERVED_SECRET_KEY, SECRET_KEY_MESSAGES.reserved);

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Bytes that a valid base64 text decodes to, without decoding it. */
export const base64Bytes = (b64: string) =>
  Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

export const SecretValue = z
  .string()
  .min(1, SECRET_VALUE_MESSAGES.required)
  // Size first: a regex over megabytes of wrong text is wasted work.
  .refine((v) => base64Bytes(v) <= SECRET_VALUE_MAX_BYTES, SECRET_VALUE_MESSAGES.tooLarge)
  .refine((v) => BASE64.test(v), SECRET_VALUE_MESSAGES.base64);

/** Where a secret lives; `cluster_name` is optional because the CLI never sends it. */
export const SecretScope = z.object({
  org_name: z.string().min(1),
  project_name: z.string().min(1),
  cluster_name: z.string().min(1).optional(),
});

export const SecretCreate = SecretScope.extend({ key: SecretKey, value: SecretValue });

/** A list entry: never the value. */
export const Secret = z
  .object({ key: z.string(), org_name: z.string(), project_name: z.string(), owner: z.string() })
  .meta({ id: 'Secret' });
export type SecretWire = z.infer<typeof Secret>;

export const SecretWithValue = Secret.extend({ value: z.string() }).meta({ id: 'SecretValue' });
export type SecretWithValueWire = z.infer<typeof SecretWithValue>;

export const secretUri = (cluster: string, org: string, project: string, key?: string) =>
  key === undefined
    ? formatUri('secret', cluster, org, project)
    : formatUri('secret', cluster, org, project, key);
