import type { Multipart } from './multipart.js';
import { payloadOf, textOf } from './payload.js';
import type { S3Request } from './routes.js';
import { checkKey, type BucketStore, type ObjectInfo } from './store.js';
import { S3Error, document, elements, tags, unescapeXml } from './xml.js';

const NO_SUCH_KEY = () => new S3Error('NoSuchKey', 'The specified key does not exist.');
const MAX_KEYS = 1000;

const xml = (r: S3Request, root: string, body: string) =>
  r.reply.type('application/xml').send(document(root, body));

/** The bucket of the request, if the caller's credentials open it (else as S3: AccessDenied). */
function bucketOf(r: S3Request) {
  if (!r.caller.buckets.has(r.bucket)) {
    throw new S3Error('AccessDenied', 'These credentials do not open this bucket');
  }
  return r.bucket;
}

function requireWrite(r: S3Request) {
  if (r.caller.readOnly) throw new S3Error('AccessDenied', 'These credentials are read-only');
}

const objectXml = (o: ObjectInfo) =>
  tags({
    Key: o.key,
    LastModified: o.mtime.toISOString(),
    ETag: o.etag,
    Size: o.size,
    StorageClass: 'STANDARD',
  });

const objectHeaders = (o: ObjectInfo) => ({
  etag: o.etag,
  'last-modified': o.mtime.toUTCString(),
  'accept-ranges': 'bytes',
  'content-type': 'application/octet-stream',
});

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` → an inclusive range, or null when absent. */
function rangeOf(header: string | undefined, size: number) {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return null;
  let start: number, end: number;
  if (!m[1]) {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  }
  if (start >= size || start > end) {
    throw new S3Error('InvalidRange', 'The requested range is not satisfiable');
  }
  return { start, end };
}

/** The S3 calls of `aws s3` and the SDKs, dispatched on method, path and query. */
export function objectCalls(store: BucketStore, multipart: Multipart) {
  async function listBuckets(r: S3Request) {
    const list = [...r.caller.buckets.values()]
      .map((b) => tags({ Name: b.providerBucketName, CreationDate: b.createdAt.toISOString() }))
      .map((b) => `<Bucket>${b}</Bucket>`)
      .join('');
    return xml(
      r,
      'ListAllMyBucketsResult',
      `<Owner>${tags({ ID: 'orrery', DisplayName: 'orrery' })}</Owner><Buckets>${list}</Buckets>`,
    );
  }

  async function listObjects(r: S3Request, bucket: string) {
    const q = r.query;
    const v2 = q.get('list-type') === '2';
    const prefix = q.get('prefix') ?? '';
    const delimiter = q.get('delimiter') || undefined;
    const max = Math.min(Number(q.get('max-keys') ?? MAX_KEYS), MAX_KEYS);
    if (!Number.isInteger(max) || max < 0) throw new S3Error('InvalidArgument', 'Invalid max-keys');
    let after = v2 ? (q.get('start-after') ?? '') : (q.get('marker') ?? '');
    const token = q.get('continuation-token');
    if (v2 && token) {
      after = Buffer.from(token, 'base64url').toString('utf8');
      if (!after) throw new S3Error('InvalidArgument', 'The continuation token is not valid');
    }
    const page = await store.list(bucket, { prefix, delimiter, after, max });
    const encode = q.get('encoding-type') === 'url';
    const enc = (s: string) => (encode ? encodeURIComponent(s).replace(/%2F/g, '/') : s);
    const body =
      tags({
        Name: bucket,
        Prefix: enc(prefix),
        Delimiter: delimiter && enc(delimiter),
        MaxKeys: max,
        EncodingType: encode ? 'url' : undefined,
        IsTruncated: page.next !== null,
        ...(v2
          ? {
              KeyCount: page.objects.length + page.prefixes.length,
              StartAfter: q.get('start-after') ?? undefined,
              ContinuationToken: token ?? undefined,
              NextContinuationToken:
                page.next === null ? undefined : Buffer.from(page.next).toString('base64url'),
            }
          : { Marker: q.get('marker') ?? '', NextMarker: page.next ?? undefined }),
      }) +
      page.objects
        .map((o) => `<Contents>${objectXml({ ...o, key: enc(o.key) })}</Contents>`)
        .join('') +
      page.prefixes
        .map((p) => `<CommonPrefixes>${tags({ Prefix: enc(p) })}</CommonPrefixes>`)
        .join('');
    return xml(r, 'ListBucketResult', body);
  }

  async function deleteObjects(r: S3Request, bucket: string) {
    requireWrite(r);
    const doc = await textOf(r.body, r.caller.signer, r.request.headers);
    const keys = elements(doc, 'Object').map((o) => unescapeXml(elements(o, 'Key')[0] ?? ''));
    if (!keys.length || keys.length > 1000) {
      throw new S3Error('MalformedXML', 'DeleteObjects takes 1 to 1000 keys');
    }
    const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(doc);
    let out = '';
    for (const key of keys) {
      try {
        checkKey(key);
        await store.delete(bucket, key);
        if (!quiet) out += `<Deleted>${tags({ Key: key })}</Deleted>`;
      } catch (e) {
        if (!(e instanceof S3Error)) throw e;
        out += `<Error>${tags({ Key: key, Code: e.code, Message: e.message })}</Error>`;
      }
    }
    return xml(r, 'DeleteResult', out);
  }

  async function onBucket(r: S3Request) {
    const { method } = r.request;
    if (method === 'PUT') {
      throw new S3Error('AccessDenied', 'Buckets are created in the Orrery console or API');
    }
    if (method === 'DELETE') {
      throw new S3Error('AccessDenied', 'Buckets are deleted in the Orrery console or API');
    }
    const bucket = bucketOf(r);
    await store.requireBucket(bucket);
    if (method === 'HEAD') return r.reply.header('x-amz-bucket-region', 'us-east-1').send();
    if (method === 'POST' && r.query.has('delete')) return deleteObjects(r, bucket);
    if (method === 'GET' && r.query.has('location')) {
      return xml(r, 'LocationConstraint', '');
    }
    if (method === 'GET' && r.query.has('uploads')) {
      return xml(r, 'ListMultipartUploadsResult', tags({ Bucket: bucket, IsTruncated: false }));
    }
    if (method === 'GET') return listObjects(r, bucket);
    throw new S3Error('NotImplemented', 'This bucket operation is not implemented');
  }

  async function getObject(r: S3Request, bucket: string) {
    const info = await store.head(bucket, r.key);
    if (!info) throw NO_SUCH_KEY();
    r.reply.headers(objectHeaders(info));
    const range = rangeOf(r.request.headers.range, info.size);
    if (range) {
      r.reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
        .header('content-length', range.end - range.start + 1);
    } else r.reply.header('content-length', info.size);
    if (r.request.method === 'HEAD') return r.reply.send();
    if (info.size === 0) return r.reply.send('');
    return r.reply.send(await store.get(bucket, r.key, range ?? undefined));
  }

  async function copyObject(r: S3Request, bucket: string, source: string) {
    let raw: string;
    try {
      raw = decodeURIComponent(source.split('?')[0]).replace(/^\//, '');
    } catch {
      throw new S3Error('InvalidArgument', 'x-amz-copy-source is not valid URI encoding');
    }
    const slash = raw.indexOf('/');
    const fromBucket = raw.slice(0, slash);
    const fromKey = raw.slice(slash + 1);
    if (slash < 0 || !r.caller.buckets.has(fromBucket)) {
      throw new S3Error('AccessDenied', 'These credentials do not open the source bucket');
    }
    checkKey(fromKey);
    r.body.resume();
    const info = await store.copy(fromBucket, fromKey, bucket, r.key);
    return xml(
      r,
      'CopyObjectResult',
      tags({ LastModified: info.mtime.toISOString(), ETag: info.etag }),
    );
  }

  async function onObject(r: S3Request) {
    const bucket = bucketOf(r);
    checkKey(r.key);
    await store.requireBucket(bucket);
    const { method } = r.request;
    const q = r.query;
    if (method === 'GET' || method === 'HEAD') return getObject(r, bucket);
    requireWrite(r);
    const uploadId = q.get('uploadId');
    if (method === 'PUT') {
      if (uploadId) {
        const body = payloadOf(r.body, r.caller.signer, r.request.headers);
        const etag = await multipart.part(
          bucket,
          r.key,
          uploadId,
          Number(q.get('partNumber')),
          body,
        );
        return r.reply.header('etag', etag).send();
      }
      const source = r.request.headers['x-amz-copy-source'];
      if (typeof source === 'string') return copyObject(r, bucket, source);
      const info = await store.put(
        bucket,
        r.key,
        payloadOf(r.body, r.caller.signer, r.request.headers),
      );
      return r.reply.header('etag', info.etag).send();
    }
    if (method === 'DELETE') {
      if (uploadId) await multipart.abort(bucket, r.key, uploadId);
      else await store.delete(bucket, r.key);
      return r.reply.status(204).send();
    }
    if (method === 'POST' && q.has('uploads')) {
      const id = await multipart.create(bucket, r.key);
      return xml(
        r,
        'InitiateMultipartUploadResult',
        tags({ Bucket: bucket, Key: r.key, UploadId: id }),
      );
    }
    if (method === 'POST' && uploadId) {
      const doc = await textOf(r.body, r.caller.signer, r.request.headers);
      const parts = elements(doc, 'Part').map((p) => ({
        n: Number(elements(p, 'PartNumber')[0]),
        etag: unescapeXml(elements(p, 'ETag')[0] ?? ''),
      }));
      const info = await multipart.complete(bucket, r.key, uploadId, parts);
      return xml(
        r,
        'CompleteMultipartUploadResult',
        tags({
          Location: r.request.url.split('?')[0],
          Bucket: bucket,
          Key: r.key,
          ETag: info.etag,
        }),
      );
    }
    throw new S3Error('NotImplemented', 'This object operation is not implemented');
  }

  return async (r: S3Request) => {
    if (!r.bucket) {
      if (r.request.method !== 'GET')
        throw new S3Error('MethodNotAllowed', 'Only GET is allowed here');
      return listBuckets(r);
    }
    return r.key ? onObject(r) : onBucket(r);
  };
}
