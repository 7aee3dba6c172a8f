import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import {
  chunkSignatureMatches,
  STREAMING_SIGNED,
  STREAMING_SIGNED_TRAILER,
  STREAMING_UNSIGNED_TRAILER,
  UNSIGNED,
  type Signer,
} from './sigv4.js';
import { S3Error } from './xml.js';

/** A chunk header line is short; anything longer is not aws-chunked. */
const MAX_HEADER = 4096;

/** Fails the stream unless the body's SHA-256 is the one that was signed. */
class HashCheck extends Transform {
  private hash = createHash('sha256');
  constructor(private expected: string) {
    super();
  }
  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback) {
    this.hash.update(chunk);
    done(null, chunk);
  }
  override _flush(done: TransformCallback) {
    if (this.hash.digest('hex') === this.expected) return done();
    done(
      new S3Error(
        'XAmzContentSHA256Mismatch',
        "The provided 'x-amz-content-sha256' header does not match what was computed",
      ),
    );
  }
}

/**
 * Decodes an `aws-chunked` body (`hex-size[;chunk-signature=sig]\r\n data \r\n` … `0…\r\n`
 * trailers), checking each chunk's signature when the payload mode is signed.
 */
class ChunkDecoder extends Transform {
  private buf: Buffer = Buffer.alloc(0);
  private remaining = -1;
  private signature = '';
  private previous: string;
  private done = false;
  private decoded = 0;
  constructor(
    private signer: Signer,
    private signed: boolean,
    private declaredLength: number | null,
  ) {
    super();
    this.previous = signer.seedSignature;
  }

  override _transform(chunk: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    if (this.done) return cb();
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    try {
      this.parse();
      cb();
    } catch (e) {
      cb(e as Error);
    }
  }

  private parse() {
    for (;;) {
      if (this.remaining < 0) {
        const eol = this.buf.indexOf('\r\n');
        if (eol < 0) {
          if (this.buf.length > MAX_HEADER) throw malformed();
          return;
        }
        const [size, ...ext] = this.buf.subarray(0, eol).toString('latin1').split(';');
        if (!/^[0-9a-fA-F]+$/.test(size)) throw malformed();
        this.remaining = parseInt(size, 16);
        this.signature = ext.find((e) => e.startsWith('chunk-signature='))?.slice(16) ?? '';
        if (this.signed && !this.signature) throw malformed();
        this.buf = this.buf.subarray(eol + 2);
      }
      // The data and its closing CRLF (the last chunk has trailers or a bare CRLF instead).
      if (this.remaining === 0) {
        this.verify(Buffer.alloc(0));
        this.done = true;
        if (this.declaredLength !== null && this.decoded !== this.declaredLength) {
          throw new S3Error('IncompleteBody', 'The body is not x-amz-decoded-content-length long');
        }
        return;
      }
      if (this.buf.length < this.remaining + 2) return;
      const data = this.buf.subarray(0, this.remaining);
      if (this.buf.subarray(this.remaining, this.remaining + 2).toString('latin1') !== '\r\n') {
        throw malformed();
      }
      this.verify(data);
      this.decoded += data.length;
      this.push(Buffer.from(data));
      this.buf = this.buf.subarray(this.remaining + 2);
      this.remaining = -1;
    }
  }

  private verify(data: Buffer) {
    if (!this.signed) return;
    if (!chunkSignatureMatches(this.signer, this.previous, data, this.signature)) {
      throw new S3Error('SignatureDoesNotMatch', 'A chunk signature does not match');
    }
    this.previous = this.signature;
  }

  override _flush(cb: TransformCallback) {
    cb(this.done ? undefined : new S3Error('IncompleteBody', 'The chunked body ended early'));
  }
}

const malformed = () => new S3Error('InvalidRequest', 'The aws-chunked body is malformed');

/**
 * The request body as the bytes the client meant, checked against what it signed: a hex
 * SHA-256 is verified at the end (the store keeps nothing from a body that fails), streaming
 * signed chunks one by one; UNSIGNED-PAYLOAD passes as is (the headers were still signed).
 */
export function payloadOf(
  body: Readable,
  signer: Signer,
  headers: Record<string, string | string[] | undefined>,
): Readable {
  const mode = signer.payload;
  const declared = headers['x-amz-decoded-content-length'];
  const length = typeof declared === 'string' ? Number(declared) : null;
  let check: Transform | null;
  if (mode === UNSIGNED) check = null;
  else if (mode === STREAMING_SIGNED || mode === STREAMING_SIGNED_TRAILER) {
    check = new ChunkDecoder(signer, true, length);
  } else if (mode === STREAMING_UNSIGNED_TRAILER) {
    check = new ChunkDecoder(signer, false, length);
  } else if (/^[0-9a-f]{64}$/.test(mode)) check = new HashCheck(mode);
  else throw new S3Error('InvalidArgument', `Unsupported x-amz-content-sha256: ${mode}`);
  if (!check) return body;
  // The callback keeps a failed check from going unhandled; the reader sees the error too.
  return pipeline(body, check, () => {});
}

/** A small body (an XML request document), verified the same way, as text. */
export async function textOf(
  body: Readable,
  signer: Signer,
  headers: SignedHeaders,
  max = 1 << 20,
) {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const c of payloadOf(body, signer, headers)) {
    size += (c as Buffer).length;
    if (size > max) throw new S3Error('EntityTooLarge', 'The request document is too large');
    parts.push(c as Buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

type SignedHeaders = Record<string, string | string[] | undefined>;
