/** S3's XML: error documents with S3's codes and statuses, and the few answers clients parse. */

const STATUS: Record<string, number> = {
  AccessDenied: 403,
  InvalidAccessKeyId: 403,
  SignatureDoesNotMatch: 403,
  RequestTimeTooSkewed: 403,
  AuthorizationHeaderMalformed: 400,
  AuthorizationQueryParametersError: 400,
  InvalidRequest: 400,
  InvalidArgument: 400,
  InvalidRange: 416,
  InvalidPart: 400,
  InvalidPartOrder: 400,
  MalformedXML: 400,
  XAmzContentSHA256Mismatch: 400,
  IncompleteBody: 400,
  EntityTooLarge: 400,
  KeyTooLongError: 400,
  NoSuchBucket: 404,
  NoSuchKey: 404,
  NoSuchUpload: 404,
  MethodNotAllowed: 405,
  NotImplemented: 501,
};

export class S3Error extends Error {
  readonly status: number;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.status = STATUS[code] ?? 400;
  }
}

export const escapeXml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/** `<Name>value</Name>` for each defined field, values escaped. */
export function tags(fields: Record<string, string | number | boolean | undefined | null>) {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `<${k}>${escapeXml(String(v))}</${k}>`)
    .join('');
}

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
export const document = (root: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${NS}">${body}</${root}>`;

export const errorDocument = (e: S3Error, resource: string, requestId: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${tags({
    Code: e.code,
    Message: e.message,
    Resource: resource,
    RequestId: requestId,
  })}</Error>`;

/** Text of every `<name>` element in a small request document (DeleteObjects, Complete…). */
export function elements(xml: string, name: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g');
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push(m[1]);
  return out;
}

export const unescapeXml = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
