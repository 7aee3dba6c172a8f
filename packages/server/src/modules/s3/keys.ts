import { createHmac } from 'node:crypto';

/** Where the embedded endpoint answers, below the public URL (path-style: `/s3/BUCKET/KEY`). */
export const S3_PATH = '/s3';
/** The region the endpoint's credentials name; any region a client signs with is accepted. */
export const S3_REGION = 'us-east-1';

/**
 * The secret access key of a set of bucket credentials on the embedded endpoint: derived from
 * the secrets key and the credentials' id (their access key id), so it is never stored, and
 * deleting the credentials revokes it.
 */
export const s3SecretOf = (sealKey: Buffer, credentialsId: string) =>
  createHmac('sha256', sealKey).update(`orrery-s3-secret:${credentialsId}`).digest('base64url');

export const s3EndpointOf = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}${S3_PATH}`;
