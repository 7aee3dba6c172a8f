import fc from 'fast-check';

/**
 * Hostile inputs for the fuzz run over the OpenAPI document: what an attacker sends,
 * mixed with names that exist so that the run gets past "not found" into the handlers.
 */

/** A JSON schema as @fastify/swagger writes it, as much as the generators read of it. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
}

/** Text the database refuses (NUL, lone surrogates): a 500 on about 25 routes once. */
const REFUSED_TEXT = ['\u0000', 'a\u0000b', '\ud800', 'x\udfff'];

const HOSTILE_STRINGS = [
  '',
  ' ',
  'x'.repeat(8000),
  'é'.repeat(3000),
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '..',
  '../../etc/passwd',
  '%2e%2e%2f',
  '..%2f..%2fetc%2fpasswd',
  '\\..\\..\\',
  '1e308',
  '-1e308',
  '-1',
  '0',
  'NaN',
  'Infinity',
  '9'.repeat(40),
  'null',
  'true',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '\r\nX-Injected: 1',
  '\uFEFF\u202E',
  'storage://default/acme/vision/../../other',
  'job://default/../acme',
  '*',
];

/** Numbers at and beyond every edge: 1e308 overflowed a numeric column once. */
export const HOSTILE_NUMBERS = [
  1e308,
  -1e308,
  -1,
  0,
  -0,
  0.5,
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53 + 2,
  2 ** 63,
  Number.MIN_VALUE,
  1e-12,
];

/** Percent-encoded forms a path segment or query value may carry as they are. */
const RAW_ENCODED = ['%2e%2e%2f', '%2e%2e', '..%2f..', '%00', '%ff%fe', '%', '%E0%A4%A', '%c0%af'];

/** Bodies no JSON serializer writes: invalid UTF-8, truncated, nested deeper than any stack. */
const RAW_BODIES: { type: string; body: Buffer | string }[] = [
  {
    type: 'application/json',
    body: Buffer.from([0x7b, 0x22, 0x6b, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]),
  },
  { type: 'application/json', body: Buffer.from([0xff, 0xfe, 0x00, 0x00]) },
  { type: 'application/json', body: '{"a":' },
  { type: 'application/json', body: '' },
  { type: 'application/json', body: 'null' },
  { type: 'application/json', body: '1e308' },
  { type: 'application/json', body: '"\\u0000"' },
  { type: 'application/json', body: '['.repeat(100_000) + ']'.repeat(100_000) },
  { type: 'application/json', body: '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000) },
  { type: 'application/json', body: '{"__proto__":{"admin":true},"constructor":{"prototype":{}}}' },
  { type: 'text/plain', body: 'plain\u0000text' },
  { type: 'application/x-www-form-urlencoded', body: 'a=%00&b=%ff&c=..%2f' },
  { type: 'application/octet-stream', body: Buffer.from([0, 1, 2, 0xff]) },
];

/** Headers the server reads itself: tokens, cookies, ranges, proxies' forwarding. */
const HOSTILE_HEADERS: Record<string, string>[] = [
  { authorization: 'Bearer a.b.c' },
  { authorization: `Bearer ${'x'.repeat(8000)}` },
  { authorization: 'Basic %%%' },
  { cookie: 'orrery_job_token=%E0%A4%A; orrery_job_token=%' },
  { range: 'bytes=99999999999999999999999-' },
  { range: 'bytes=-99999999999999999999999' },
  { 'content-range': 'bytes 99999999999999999999-99999999999999999999/*' },
  { 'sec-websocket-protocol': 'bearer.%%%, bearer.' },
  { 'x-forwarded-for': '%00', 'x-forwarded-host': '..', 'x-forwarded-proto': 'gopher' },
  { 'accept-encoding': 'br;q=NaN, *;q=1e308' },
];

export interface Pools {
  /** Names that exist (organizations, projects, users, ids): a way past "not found". */
  names: string[];
  /**
   * Values that exist for a field of that name (`org_name`, `job`): a request with every other
   * field right gets past validation and "not found" into the handler with its one bad field.
   */
  hints: Record<string, string[]>;
  /** Prefixes of wildcard paths (`acme/vision/file.txt`), only ever used in a URL path. */
  paths: string[];
}

export function arbitraries(pools: Pools) {
  const text = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 4, arbitrary: fc.constantFrom(...pools.names) },
    { weight: 2, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  /** Text for a named field: often a value that exists for that name, else anything. */
  const textFor = (name: string | undefined) => {
    const known = name ? pools.hints[name] : undefined;
    return known
      ? fc.oneof(
          { weight: 19, arbitrary: fc.constantFrom(...known) },
          { weight: 1, arbitrary: text },
        )
      : text;
  };
  const number = fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS), fc.double(), fc.integer());
  const { any } = fc.letrec<{ any: unknown }>((tie) => ({
    any: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      number,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('any'), { maxLength: 4 }),
      fc.dictionary(text, tie('any'), { maxKeys: 4 }),
    ),
  }));

  /** A value for a schema: usually of its type (to reach the handler), sometimes anything. */
  const valueFor = (
    schema: Schema | undefined,
    depth = 0,
    name?: string,
  ): fc.Arbitrary<unknown> => {
    if (!schema || depth > 4) return any;
    const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
    if (alternatives?.length) {
      return fc.oneof(...alternatives.map((s) => valueFor(s, depth + 1, name)), any);
    }
    const types = [schema.type ?? []].flat();
    const typed: fc.Arbitrary<unknown>[] = [];
    if (schema.enum) typed.push(fc.constantFrom(...schema.enum));
    if (types.includes('string')) typed.push(textFor(name));
    if (types.includes('number') || types.includes('integer')) typed.push(number);
    if (types.includes('boolean')) typed.push(fc.boolean());
    if (types.includes('array'))
      typed.push(fc.array(valueFor(schema.items, depth + 1), { maxLength: 3 }));
    if (types.includes('object') || schema.properties) {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      typed.push(
        fc.record(
          Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valueFor(s, depth + 1, k)])),
          { requiredKeys: Object.keys(props).filter((k) => required.has(k)) },
        ),
      );
    }
    if (typed.length === 0) return any;
    return fc.oneof({ weight: 9, arbitrary: fc.oneof(...typed) }, { weight: 1, arbitrary: any });
  };

  /** The one bad value of a request: hostile text, an extreme number, or any shape at all. */
  const hostile = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<unknown>(...REFUSED_TEXT) },
    { weight: 4, arbitrary: fc.constantFrom<unknown>(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: fc.constantFrom<unknown>(...HOSTILE_NUMBERS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) },
    { weight: 1, arbitrary: any },
  );
  /** A value as it appears in a URL: encoded, or escapes no encoder writes. */
  const inUrl = (value: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: 5, arbitrary: value.map(urlText) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_ENCODED) },
    );
  /** A good value for a field: one that exists for its name, else one of its declared type. */
  const plausible = (schema: Schema | undefined, name: string) => {
    const known = pools.hints[name];
    return known ? fc.constantFrom<unknown>(...known) : valueFor(schema, 1, name);
  };
  /** A wildcard path (storage, the registry, OIDC): existing prefixes, then hostile segments. */
  const wildcard = fc
    .tuple(fc.constantFrom(...pools.paths, ''), fc.array(inUrl(text), { maxLength: 3 }))
    .map(([prefix, segments]) => [prefix, ...segments].filter(Boolean).join('/'));

  /**
   * Requests of an operation: every field plausible (existing names where known, values of the
   * declared type) but one, which is hostile; sometimes a raw body no serializer writes. One bad
   * field among good ones is what reaches a handler, and the database, with it.
   */
  const requestOf = (op: Operation) => {
    const params = (op.parameters ?? []).filter((p) => p.in === 'path');
    const queries = (op.parameters ?? []).filter((p) => p.in === 'query');
    const schema = op.requestBody?.content['application/json']?.schema;
    const takesBody = !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(op.method);
    const props = Object.entries(schema?.properties ?? {});
    const required = new Set(schema?.required ?? []);
    const fields: {
      where: 'path' | 'query' | 'body';
      name: string;
      good: fc.Arbitrary<unknown>;
    }[] = [
      ...params.map((p) => ({
        where: 'path' as const,
        name: p.name,
        good: p.name === '*' ? wildcard : plausible(p.schema, p.name).map(urlText),
      })),
      ...queries.map((q) => ({
        where: 'query' as const,
        name: q.name,
        // A known name is usually given: most routes need their scope to get anywhere.
        good: fc.option(plausible(q.schema, q.name).map(urlText), {
          nil: undefined,
          freq: pools.hints[q.name] ? 9 : 2,
        }),
      })),
      ...props.map(([name, s]) => ({
        where: 'body' as const,
        name,
        good: required.has(name)
          ? plausible(s, name)
          : fc.option(plausible(s, name), {
              nil: undefined,
              freq: pools.hints[name] ? 9 : 2,
            }),
      })),
    ];
    return fc
      .record({
        good: fc.tuple(...fields.map((f) => f.good)),
        bad: fc.nat({ max: fields.length }),
        hostile,
        hostileInUrl: inUrl(hostile),
        wholeBody: props.length ? fc.constant(null) : fc.option(body(schema), { freq: 3 }),
        raw: fc.option(fc.constantFrom(...RAW_BODIES), { freq: 8 }),
        headers: fc.option(fc.constantFrom(...HOSTILE_HEADERS), { freq: 4, nil: {} }),
      })
      .map(({ good, bad, hostile: h, hostileInUrl, wholeBody, raw, headers }) => {
        const values = fields.map((f, i) =>
          i !== bad ? good[i] : f.where === 'body' ? h : hostileInUrl,
        );
        let path = op.path;
        const query: string[] = [];
        const json: Record<string, unknown> = {};
        fields.forEach((f, i) => {
          if (values[i] === undefined) return;
          if (f.where === 'path') path = path.replace(`{${f.name}}`, String(values[i]));
          else if (f.where === 'query') query.push(`${f.name}=${String(values[i])}`);
          else json[f.name] = values[i];
        });
        const url = query.length ? `${path}?${query.join('&')}` : path;
        if (!takesBody) return { url, headers, body: null };
        return {
          url,
          headers,
          body:
            raw ?? (props.length ? { type: 'application/json', body: toJson(json) } : wholeBody),
        };
      });
  };

  const body = (schema: Schema | undefined) =>
    valueFor(schema).map((v) => ({ type: 'application/json', body: toJson(v) }));

  return { requestOf };
}

/** An operation of the OpenAPI document, as much as the generators read of it. */
export interface Operation {
  method: string;
  path: string;
  parameters?: { in: 'path' | 'query' | 'header'; name: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}

const LONE = /([\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/;

/**
 * Percent-encoding that also writes a lone surrogate, as the three bytes a careless encoder
 * writes (invalid UTF-8), where encodeURIComponent throws.
 */
const encode = (s: string) =>
  s
    .split(LONE)
    .map((part, i) => {
      if (i % 2 === 0) return encodeURIComponent(part);
      const u = part.charCodeAt(0);
      return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');

/** A generated value in a URL: text as it is, anything else as JSON (objects may lack toString). */
const urlText = (v: unknown) => encode(typeof v === 'string' ? v : toJson(v));

/** JSON of a generated value; NaN and infinities become null as JSON has no form for them. */
const toJson = (v: unknown) => JSON.stringify(v) ?? 'null';
