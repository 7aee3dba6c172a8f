import { expect } from 'vitest';
import { S3Client } from '@aws-sdk/client-s3';
import { PersistentCredentials } from '@orrery/contract';
import type { TestServer, TestUser } from './harness.js';
import { call } from './fixtures.js';

const B = '/api/v1/buckets/buckets';
const C = '/api/v1/buckets/persistent_credentials';
const SCOPE = { org_name: 'acme', project_name: 'vision' };

export type Keys = Record<string, string>;

/** What an SDK call came to: `accepted`, or the S3 error as a client sees it (`403 AccessDenied`). */
export const s3Outcome = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'accepted';
  } catch (e) {
    const err = e as { name: string; $metadata?: { httpStatusCode?: number } };
    return `${err.$metadata?.httpStatusCode} ${err.name}`;
  }
};

/** An object's body, as text. */
export const bodyText = async (body: unknown) =>
  Buffer.from(
    await (body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
  ).toString();

/** An S3 client made only from what the console's credentials hand out. */
export const clientFrom = (c: Keys, secret = c.secret_access_key) =>
  new S3Client({
    endpoint: c.endpoint_url,
    region: c.region_name,
    forcePathStyle: true,
    credentials: { accessKeyId: c.access_key_id, secretAccessKey: secret },
  });

/** A request as the S3 client's middleware sees it once built. */
export interface BuiltRequest {
  body: unknown;
  headers: Record<string, string>;
}
type StackMiddleware = Parameters<S3Client['middlewareStack']['addRelativeTo']>[0];

/**
 * Edits every request of `client` just before or after the SDK signs it: `before`, what a
 * hand-made request would send; `after`, what a man in the middle would.
 */
export function editRequests(
  client: S3Client,
  relation: 'before' | 'after',
  edit: (request: BuiltRequest) => void,
) {
  const middleware =
    (next: (a: unknown) => Promise<unknown>) => async (args: { request: BuiltRequest }) => {
      edit(args.request);
      return next(args);
    };
  client.middlewareStack.addRelativeTo(middleware as unknown as StackMiddleware, {
    relation,
    toMiddleware: 'httpSigningMiddleware',
  });
}

export async function bucketWithKeys(s: TestServer, who: TestUser, name: string, readOnly = false) {
  const b = await call(s, 'POST', B, who, { name, ...SCOPE });
  expect(b.status).toBe(201);
  const c = await call(s, 'POST', `${C}?org_name=acme&project_name=vision`, who, {
    bucket_ids: [b.body.id],
    read_only: readOnly,
  });
  expect(c.status).toBe(201);
  return {
    bucket: b.body as { id: string },
    keys: PersistentCredentials.parse(c.body).credentials[0].credentials as Keys,
  };
}
