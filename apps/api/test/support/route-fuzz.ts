import fc from 'fast-check';
import type { InjectOptions, RouteOptions } from 'fastify';
import { z } from 'zod';

/** A route as declared, with the parts of its schema a client controls. */
export interface DeclaredRoute {
  method: string;
  url: string;
  params: string[];
  query: string[];
  body: string[];
  /** A POST, PUT, PATCH or DELETE, or a GET declared as writing (the simulator's callback). */
  writes: boolean;
}

function shapeKeys(schema: unknown): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/**
 * What an onRoute hook sees, reduced to the fields of each schema. HEAD twins, the status
 * socket and the static catch-all are left out: they take no input a schema describes.
 */
export function collectRoute(routes: DeclaredRoute[], route: RouteOptions): void {
  if ((route as { websocket?: boolean }).websocket) return;
  if (!route.url.startsWith('/api/')) return;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  for (const method of methods) {
    if (method === 'HEAD') continue;
    routes.push({
      method,
      url: route.url,
      params: shapeKeys(schema.params),
      query: shapeKeys(schema.querystring),
      body: shapeKeys(schema.body),
      writes:
        method !== 'GET' || (route.config as { writes?: boolean } | undefined)?.writes === true,
    });
  }
}

/** An ordinary-looking text with one character PostgreSQL cannot store in text or jsonb. */
const tainted = fc
  .tuple(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\\u0000'),
    fc.string({ maxLength: 8 }),
  )
  .map((parts) => parts.join(''));

/** Values a client should never send and a server must still answer with a 4xx. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: tainted },
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFFy',
    '',
    ' ',
    '%ZZ',
    '%00',
    '../../etc/passwd',
    "' or 1=1 --",
    '"); drop table payments; --',
    '1e309',
    'NaN',
    '-0',
    '٩٩٩',
    '\u202Eevil',
    '+237 6 77 12 34 56\u0000',
  ),
  fc.string({ minLength: 300, maxLength: 6000 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 53 + 1, 1e308, -1e308, Number.MIN_VALUE, -0),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

type Edit =
  | { kind: 'set'; key: string; value: unknown }
  | { kind: 'delete'; key: string }
  | { kind: 'extra'; key: string; value: unknown };

function editsOf(keys: string[]): fc.Arbitrary<Edit[]> {
  const extra = fc.record({
    kind: fc.constant('extra' as const),
    key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor')),
    value: nastyValue,
  });
  if (keys.length === 0) return fc.array(extra, { maxLength: 2 });
  const key = fc.constantFrom(...keys);
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key, value: nastyValue }),
    fc.record({ kind: fc.constant('delete' as const), key }),
    extra,
  );
  return fc.array(edit, { minLength: 1, maxLength: 3 });
}

export function applyEdits(base: Record<string, unknown>, edits: Edit[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const edit of edits) {
    if (edit.kind === 'delete') delete out[edit.key];
    else
      Object.defineProperty(out, edit.key, {
        value: edit.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/** How the body travels: as JSON of the edited object, or as something that is not it. */
export type BodyForm =
  | { kind: 'json' }
  | { kind: 'raw'; text: string; contentType: string }
  | { kind: 'oversized' };

const bodyForm: fc.Arbitrary<BodyForm> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'json' } as const) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('raw' as const),
      text: fc.oneof(
        fc.constantFrom(
          '{',
          '{"a":',
          '[',
          'null',
          '"text"',
          '{"a":1}}',
          '\u0000',
          '',
          '[1,2]',
          '7',
        ),
        fc.string({ maxLength: 60 }),
      ),
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-16',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data; boundary=x',
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'oversized' } as const) },
);

export interface Mutation {
  params: Edit[];
  query: Edit[];
  body: Edit[];
  form: BodyForm;
}

export function mutationFor(
  route: DeclaredRoute,
  fields: { query: string[]; body: string[] },
): fc.Arbitrary<Mutation> {
  const none = fc.constant<Edit[]>([]);
  return fc.record({
    params: route.params.length > 0 ? fc.oneof(none, editsOf(route.params)) : none,
    query: fc.oneof(none, editsOf(fields.query)),
    body: editsOf(fields.body),
    form: bodyForm,
  });
}

/** Percent-encodes anything, lone surrogates included (as their CESU-8 bytes). */
function encodePart(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text]
      .map((ch) => {
        try {
          return encodeURIComponent(ch);
        } catch {
          const c = ch.charCodeAt(0);
          return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('');
        }
      })
      .join('');
  }
}

export function urlOf(
  template: string,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
): string {
  const path = template.replace(/:(\w+)/g, (_m, name: string) =>
    name in params ? encodePart(params[name]) : '',
  );
  const pairs = Object.entries(query).map(([k, v]) => `${encodePart(k)}=${encodePart(v)}`);
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
}

export function payloadOf(
  body: Record<string, unknown>,
  form: BodyForm,
): Pick<InjectOptions, 'payload' | 'headers'> {
  if (form.kind === 'raw')
    return { payload: form.text, headers: { 'content-type': form.contentType } };
  if (form.kind === 'oversized') {
    return {
      payload: JSON.stringify({ ...body, pad: 'x'.repeat(70 * 1024) }),
      headers: { 'content-type': 'application/json' },
    };
  }
  return { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/** What an answer must never show: a stack frame, a file of ours, or the database talking. */
export const LEAKS: RegExp[] = [
  /\bat \S+ \(.*:\d+:\d+\)/,
  /\n\s+at /,
  /node_modules/,
  /\/src\/\S+\.ts/,
  /\bselect\s.+\sfrom\s/i,
  /\binsert into\b/i,
  /\bviolates\b/i,
  /syntax error/i,
  /invalid input syntax/i,
  /\bSQLSTATE\b|\b22P02\b|\b23505\b/,
];
