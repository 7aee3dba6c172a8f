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

/**
 * Text of every `<name>` element in a small request document (DeleteObjects, Complete…). Found
 * with indexOf, not a lazy regular expression, which would rescan the rest of a document of
 * unclosed elements from every opening: quadratic in a 1 MiB body.
 */
export function elements(xml: string, name: string): string[] {
  const out: string[] = [];
  const open = `<${name}>`;
  const close = `</${name}>`;
  for (let at = xml.indexOf(open); at >= 0;) {
    const start = at + open.length;
    const end = xml.indexOf(close, start);
    // No closing tag after this opening means none after any later one either.
    if (end < 0) break;
    out.push(xml.slice(start, end));
    at = xml.indexOf(open, end + close.length);
  }
  return out;
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** A character XML allows (its `Char` production); a reference to anything else is malformed. */
const xmlChar = (c: number) =>
  c === 0x9 ||
  c === 0xa ||
  c === 0xd ||
  (c >= 0x20 && c <= 0xd7ff) ||
  (c >= 0xe000 && c <= 0xfffd) ||
  (c >= 0x10000 && c <= 0x10ffff);

const malformed = () =>
  new S3Error('MalformedXML', 'The XML you provided was not well-formed or did not validate');

/**
 * Element text with its references resolved, in one pass (so `&#38;lt;` is `&lt;`, not `<`). A
 * reference XML does not define (an unknown name, a number beyond Unicode or naming a character
 * XML forbids) and a bare `&` answer MalformedXML, as S3's parser does.
 */
export const unescapeXml = (s: string) =>
  s.replace(/&([^;&]*)(;?)/g, (_, ref: string, semi: string) => {
    if (!semi) throw malformed();
    if (Object.hasOwn(NAMED, ref)) return NAMED[ref];
    const m = /^#(?:x([0-9a-fA-F]{1,8})|([0-9]{1,10}))$/.exec(ref);
    if (!m) throw malformed();
    const code = m[1] !== undefined ? parseInt(m[1], 16) : Number(m[2]);
    if (!xmlChar(code)) throw malformed();
    return String.fromCodePoint(code);
  });
