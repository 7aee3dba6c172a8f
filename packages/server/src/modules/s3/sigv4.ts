import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { S3Error } from './xml.js';

/**
 * AWS Signature Version 4 as S3 checks it, for the Authorization header and presigned URLs.
 * The secret is looked up by access key id; what the signature covers is rebuilt from the
 * request as received, so any change on the way (path, query, signed headers) fails it.
 */

export const UNSIGNED = 'UNSIGNED-PAYLOAD';
export const STREAMING_SIGNED = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD';
export const STREAMING_SIGNED_TRAILER = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER';
export const STREAMING_UNSIGNED_TRAILER = 'STREAMING-UNSIGNED-PAYLOAD-TRAILER';
export const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');
/** How far a request's clock may be from ours, as S3 allows. */
const SKEW_MS = 15 * 60 * 1000;
/** Presigned URLs live at most a week, as on S3. */
const MAX_EXPIRES_S = 7 * 24 * 3600;

export interface SignedRequest {
  method: string;
  /** The path and query exactly as received (`/s3/bucket/key?x=y`). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/** What a verified request proves: who signed it, and how its body is to be checked. */
export interface Signer {
  accessKeyId: string;
  /** The declared payload hash: a hex SHA-256, UNSIGNED-PAYLOAD or a streaming mode. */
  payload: string;
  /** For streaming signed payloads: each chunk's signature chains from the seed. */
  chunkKey: Buffer;
  scope: string;
  amzDate: string;
  seedSignature: string;
}

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters. */
export function uriEncode(s: string, keepSlash = false) {
  const encoded = encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

export function signingKey(secret: string, date: string, region: string, service: string) {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

function decodeOrFail(s: string) {
  try {
    return decodeURIComponent(s.replace(/\+/g, '%20'));
  } catch {
    throw new S3Error('AuthorizationQueryParametersError', 'Malformed query string');
  }
}

function queryPairs(rawQuery: string) {
  return rawQuery
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const i = p.indexOf('=');
      return i < 0
        ? [decodeOrFail(p), '']
        : [decodeOrFail(p.slice(0, i)), decodeOrFail(p.slice(i + 1))];
    });
}

function canonicalRequest(
  r: SignedRequest,
  signedHeaders: string[],
  payload: string,
  skipQuery?: string,
) {
  const q = r.url.indexOf('?');
  const rawPath = q < 0 ? r.url : r.url.slice(0, q);
  const path = uriEncode(decodeOrFail(rawPath.replace(/\+/g, '%2B')), true);
  const query = queryPairs(q < 0 ? '' : r.url.slice(q + 1))
    .filter(([k]) => k !== skipQuery)
    .map(([k, v]) => [uriEncode(k), uriEncode(v)])
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers = signedHeaders
    .map((h) => {
      const v = r.headers[h];
      const value = Array.isArray(v) ? v.join(',') : (v ?? '');
      return `${h}:${value.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  return [r.method, path, query, headers, signedHeaders.join(';'), payload].join('\n');
}

function parseCredential(credential: string) {
  const [accessKeyId, date, region, service, terminator] = credential.split('/');
  if (!accessKeyId || !date || !region || service !== 's3' || terminator !== 'aws4_request') {
    throw new S3Error('AuthorizationHeaderMalformed', 'The credential scope is malformed');
  }
  return { accessKeyId, date, region, scope: `${date}/${region}/s3/aws4_request` };
}

function parseAmzDate(amzDate: string) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!m) throw new S3Error('AccessDenied', 'X-Amz-Date is missing or malformed');
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

/** Compared as bytes: a signature of other characters but as many may differ in byte length. */
const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Checks the request's signature with the secret of its access key (null: no such key), and
 * answers who signed it. Throws S3Error for anything unsigned, expired or forged.
 */
export function verify(
  r: SignedRequest,
  secretOf: (accessKeyId: string) => string | null,
  now = Date.now(),
): Signer {
  const auth = r.headers.authorization;
  const query = new URLSearchParams(r.url.includes('?') ? r.url.slice(r.url.indexOf('?')) : '');
  let credential: string, signedHeaders: string, signature: string, amzDate: string;
  let payload: string;
  let presigned = false;
  if (typeof auth === 'string') {
    const m = /^AWS4-HMAC-SHA256 (.+)$/.exec(auth);
    if (!m) throw new S3Error('InvalidRequest', 'Only AWS4-HMAC-SHA256 signatures are supported');
    const parts = Object.fromEntries(
      m[1].split(',').map((p) => {
        const [k, ...v] = p.trim().split('=');
        return [k, v.join('=')];
      }),
    );
    if (!parts.Credential || !parts.SignedHeaders || !parts.Signature) {
      throw new S3Error('AuthorizationHeaderMalformed', 'The authorization header is malformed');
    }
    ({ Credential: credential, SignedHeaders: signedHeaders, Signature: signature } = parts);
    amzDate = String(r.headers['x-amz-date'] ?? '');
    payload = String(r.headers['x-amz-content-sha256'] ?? '');
    if (!payload)
      throw new S3Error('InvalidRequest', 'Missing required header x-amz-content-sha256');
  } else if (query.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256') {
    presigned = true;
    credential = query.get('X-Amz-Credential') ?? '';
    signedHeaders = query.get('X-Amz-SignedHeaders') ?? '';
    signature = query.get('X-Amz-Signature') ?? '';
    amzDate = query.get('X-Amz-Date') ?? '';
    payload = UNSIGNED;
  } else {
    throw new S3Error('AccessDenied', 'Anonymous access is not allowed: sign the request');
  }
  const c = parseCredential(credential);
  const at = parseAmzDate(amzDate);
  if (presigned) {
    const expires = Number(query.get('X-Amz-Expires'));
    if (!Number.isInteger(expires) || expires < 1 || expires > MAX_EXPIRES_S) {
      throw new S3Error('AuthorizationQueryParametersError', 'X-Amz-Expires must be 1 to 604800');
    }
    if (now > at + expires * 1000) throw new S3Error('AccessDenied', 'Request has expired');
    if (at - now > SKEW_MS)
      throw new S3Error('RequestTimeTooSkewed', 'The request is dated in the future');
  } else if (Math.abs(now - at) > SKEW_MS) {
    throw new S3Error(
      'RequestTimeTooSkewed',
      'The difference between the request time and the server time is too large',
    );
  }
  if (!amzDate.startsWith(c.date)) {
    throw new S3Error(
      'AuthorizationHeaderMalformed',
      'The credential date is not the request date',
    );
  }
  const secret = secretOf(c.accessKeyId);
  if (secret === null) {
    throw new S3Error('InvalidAccessKeyId', 'The access key id does not exist in our records');
  }
  const headers = signedHeaders.split(';');
  if (!headers.includes('host'))
    throw new S3Error('AccessDenied', 'The host header must be signed');
  const canonical = canonicalRequest(
    r,
    headers,
    payload,
    presigned ? 'X-Amz-Signature' : undefined,
  );
  const toSign = ['AWS4-HMAC-SHA256', amzDate, c.scope, sha256(canonical)].join('\n');
  const key = signingKey(secret, c.date, c.region, 's3');
  const expected = createHmac('sha256', key).update(toSign).digest('hex');
  if (!same(expected, signature)) {
    throw new S3Error(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided',
    );
  }
  return {
    accessKeyId: c.accessKeyId,
    payload,
    chunkKey: key,
    scope: c.scope,
    amzDate,
    seedSignature: signature,
  };
}

/** The signature of one chunk of a STREAMING-AWS4-HMAC-SHA256-PAYLOAD body. */
export function chunkSignature(s: Signer, previous: string, chunk: Buffer) {
  const toSign = [
    'AWS4-HMAC-SHA256-PAYLOAD',
    s.amzDate,
    s.scope,
    previous,
    EMPTY_SHA256,
    sha256(chunk),
  ].join('\n');
  return createHmac('sha256', s.chunkKey).update(toSign).digest('hex');
}

export const chunkSignatureMatches = (s: Signer, previous: string, chunk: Buffer, given: string) =>
  same(chunkSignature(s, previous, chunk), given);
