// fast-check arbitraries from JSON Schema, walking the keywords the shared schemas (schemas/*.ts) use:
// type (and type lists), enum, const, format (uuid, date-time, date, email, uri), pattern,
// minLength/maxLength, minimum/maximum, multipleOf, properties, required, additionalProperties,
// propertyNames, min/maxProperties, items, min/maxItems, anyOf and oneOf (alternative schemas, or
// extra `required` lists). Nothing here knows a route: a new schema is covered as it is written.
//
// `valid` draws values the schema accepts, boundaries included (exactly minLength/maxLength,
// minimum/maximum); `invalid` draws values that break it (wrong types, one past a bound, pattern and
// format breakers, enum misses, too many items); `oddValue` is anything odd at all (huge strings,
// lone surrogates, NUL, deep nesting, prototype keys). `bodyOf` mixes them into request bodies:
// valid, one field broken, a required key missing, extra keys, all fields broken, or no object at all.
import fc from 'fast-check';
import { UNSAFE_TEXT } from '../../schemas/common.ts';

export interface JsonSchema {
  readonly [key: string]: unknown;
}

/** Values the server knows, so valid-looking requests reach the services and find rows. */
export interface Hints {
  /** By property name, e.g. hospNo → the demo hospital numbers. */
  byName: Readonly<Record<string, readonly unknown[]>>;
  /** By string format, e.g. uuid → ids the server holds. */
  byFormat: Readonly<Record<string, readonly unknown[]>>;
  /** The instant "now" of the run (date-times are drawn around it): fixed per run for replay. */
  now: number;
}

type Arb = fc.Arbitrary<unknown>;
const DAY = 86_400_000;

const asSchema = (v: unknown): JsonSchema | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonSchema) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const typesOf = (s: JsonSchema): string[] => (typeof s['type'] === 'string' ? [s['type']] : strList(s['type']));

// ——— Odd values ———

function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** Strings that break assumptions: sizes, encodings, separators, injections, look-alikes. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n\r ',
  'x'.repeat(100_000),
  'é'.repeat(60_000),
  '😀'.repeat(20_000),
  '9'.repeat(400),
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\ufeff',
  '\u202eevil',
  'Ωμέγα 漢字 😀👍🏽 مرحبا',
  'e\u0301\u0301\u0301',
  '１２３',
  '١٢٣',
  "' OR 1=1; drop table patients; --",
  '"; select pg_sleep(5); --',
  '\\',
  '%00',
  '%s%s%s%n',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  'true',
  '[]',
  '{}',
  '2026-02-30',
  '2026-02-30T25:61:00Z',
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '1900-01-01T00:00:00Z',
  '2199-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999Z',
  '2026-11-01T08:00:00',
  '2026-11-01T08:00:00+14:00',
  // Just outside the years the API accepts, and days that do not exist.
  '0001-01-01T00:00:00-14:00',
  '1899-12-31T23:59:59Z',
  '3000-01-01T00:00:00Z',
  '0000-01-01',
  '2027-02-29',
  '2026-11-01T08:00:00+14:01',
  '2026-11-01T08:00:00-12:00',
  '2026-11-01 08:00:00Z',
  '24:00',
  '23:60',
  '-01:00',
  'Mon',
  'MONDAY',
  'Feburary',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '{6f9619ff-8b86-d011-b42d-00c04fc964ff}',
  'mailto:x@y',
  'http://127.0.0.1:1/',
  'https://x.invalid/' + 'p'.repeat(3000),
  'Etc/GMT+99',
  'Europe/Nowhere',
  'America/Argentina/ComodRivadavia',
  'EST5EDT',
];

const ODD_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  1e-300,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  Number.MAX_VALUE,
  Number.MIN_VALUE,
];

/** Anything odd: odd scalars, containers, deep nesting, prototype-polluting shapes. */
export function oddValue(): Arb {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_NUMBERS) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [[]], { '': '' }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(
        nested(12, 'x'),
        nested(60, 1),
        JSON.parse('{"__proto__":{"admin":true}}'),
        { constructor: { prototype: { x: 1 } } },
        { $gt: '' },
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

// ——— Valid values ———

function lengthOk(s: string, schema: JsonSchema): boolean {
  // JSON Schema counts code points.
  const n = [...s].length;
  return n >= (num(schema['minLength']) ?? 0) && n <= (num(schema['maxLength']) ?? Infinity);
}

function isoDateTimes(now: number): fc.Arbitrary<string> {
  return fc.oneof(
    // Mostly the recent past (measurements), some near future (appointments), some far.
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 60 * DAY }).map((ago) => new Date(now - ago).toISOString()) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 120 * DAY }).map((ahead) => new Date(now + ahead).toISOString()) },
    // Far, within the years the API accepts (1900 to 2999, server/http/validator.ts), its edges included.
    {
      weight: 1,
      arbitrary: fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((d) => d.toISOString()),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '1900-01-01T00:00:00Z',
        '2999-12-31T23:59:59.999Z',
        '2028-02-29T12:00:00Z',
        '2026-03-29T02:30:00+01:00',
        '2026-11-01T01:30:00-04:00',
      ),
    },
    // Other spellings the format allows: no fraction, an offset, lower-case t/z.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 0, max: 30 * DAY }), fc.constantFrom('+05:30', '-03:00', '+00:00', '+14:00', '-12:00', 'z'))
        .map(([ago, zone]) => `${new Date(now - ago).toISOString().slice(0, 19)}${zone}`),
    },
  );
}

function isoDates(now: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: -40, max: 20 }).map((d) => new Date(now + d * DAY).toISOString().slice(0, 10)) },
    { weight: 1, arbitrary: fc.integer({ min: -400, max: 400 }).map((d) => new Date(now + d * DAY).toISOString().slice(0, 10)) },
    {
      weight: 1,
      arbitrary: fc
        .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    },
  );
}

function validString(schema: JsonSchema, hints: Hints, name: string | undefined): Arb {
  const minLength = num(schema['minLength']) ?? 0;
  const maxLength = num(schema['maxLength']);
  const format = typeof schema['format'] === 'string' ? schema['format'] : undefined;
  const pattern = typeof schema['pattern'] === 'string' ? new RegExp(schema['pattern'], 'u') : undefined;
  // Typed text never holds control characters or text-direction overrides (schemas/common.ts
  // UNSAFE_TEXT): the server refuses them in every field but a password.
  const typed = (s: string) => (name !== undefined && /password$/i.test(name)) || !UNSAFE_TEXT.test(s);
  const fits = (s: string) => lengthOk(s, schema) && (!pattern || pattern.test(s)) && typed(s);
  const byName = name ? hints.byName[name] : undefined;
  // A hint the field's own pattern refuses is no valid value (a uuid hint for a c15t sub_… id);
  // @@name@@ placeholders stand for values known only at run time and are kept.
  const known = (byName ?? (format ? (hints.byFormat[format] ?? []) : [])).filter(
    (k) => !pattern || typeof k !== 'string' || pattern.test(k) || /^@@\w+@@$/.test(k),
  );
  const options: fc.WeightedArbitrary<unknown>[] = [];
  if (known.length > 0) options.push({ weight: 6, arbitrary: fc.constantFrom(...known) });
  if (format === 'uuid') options.push({ weight: 3, arbitrary: fc.uuid() });
  else if (format === 'date-time') options.push({ weight: 4, arbitrary: isoDateTimes(hints.now).filter(fits) });
  else if (format === 'date') options.push({ weight: 4, arbitrary: isoDates(hints.now).filter(fits) });
  else if (format === 'email') options.push({ weight: 3, arbitrary: fc.emailAddress().filter(fits) });
  else if (format === 'uri') options.push({ weight: 3, arbitrary: fc.webUrl().filter(fits) });
  else if (pattern) {
    options.push({ weight: 4, arbitrary: fc.stringMatching(pattern).filter(fits) });
  } else {
    const cap = Math.min(maxLength ?? 40, Math.max(minLength, 40));
    options.push({ weight: 3, arbitrary: fc.string({ minLength, maxLength: cap }) });
    options.push({ weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: cap }).filter(fits) });
  }
  // Boundaries: exactly the longest (and shortest) text the schema allows.
  if (!format && maxLength !== undefined && maxLength <= 10_000) {
    const longest = pattern ? undefined : 'x'.repeat(maxLength);
    const shortest = pattern ? undefined : 'y'.repeat(Math.max(minLength, 0));
    const edges = [longest, shortest].filter((s): s is string => s !== undefined && fits(s));
    if (edges.length > 0) options.push({ weight: 1, arbitrary: fc.constantFrom(...edges) });
  }
  return fc.oneof(...options);
}

function validNumber(schema: JsonSchema, integer: boolean): Arb {
  const min = num(schema['minimum']) ?? (num(schema['exclusiveMinimum']) !== undefined ? num(schema['exclusiveMinimum'])! + (integer ? 1 : 1e-9) : undefined);
  const max = num(schema['maximum']) ?? (num(schema['exclusiveMaximum']) !== undefined ? num(schema['exclusiveMaximum'])! - (integer ? 1 : 1e-9) : undefined);
  const isInt = integer || schema['multipleOf'] === 1;
  const lo = min ?? -1e6;
  const hi = max ?? 1e6;
  const edges = [min, max].filter((v): v is number => v !== undefined);
  const options: fc.WeightedArbitrary<unknown>[] = [
    {
      weight: 4,
      arbitrary: isInt
        ? fc.integer({ min: Math.max(Math.ceil(lo), Number.MIN_SAFE_INTEGER), max: Math.min(Math.floor(hi), Number.MAX_SAFE_INTEGER) })
        : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }),
    },
  ];
  if (edges.length > 0) options.push({ weight: 1, arbitrary: fc.constantFrom(...edges) });
  return fc.oneof(...options);
}

/** Alternatives of a schema: anyOf/oneOf branches merged into it (a branch may be only `required`). */
function alternatives(schema: JsonSchema): JsonSchema[] | undefined {
  const list = Array.isArray(schema['anyOf']) ? schema['anyOf'] : Array.isArray(schema['oneOf']) ? schema['oneOf'] : undefined;
  if (!list) return undefined;
  const base = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== 'anyOf' && k !== 'oneOf'));
  const branches = list.map(asSchema).filter((b): b is JsonSchema => b !== undefined);
  const exclusive = Array.isArray(schema['oneOf']);
  return branches.map((b) => {
    const required = [...new Set([...strList(base['required']), ...strList(b['required'])])];
    const properties: Record<string, unknown> = { ...asSchema(base['properties']), ...asSchema(b['properties']) };
    // oneOf of `required` lists: the keys only the other branches require must stay out.
    if (exclusive) for (const other of branches) if (other !== b) for (const k of strList(other['required'])) if (!required.includes(k)) delete properties[k];
    return { ...base, ...b, ...(Object.keys(properties).length > 0 ? { properties } : {}), required };
  });
}

function validObject(schema: JsonSchema, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  return memoised('object', schema, hints, undefined, () => buildValidObject(schema, hints)) as fc.Arbitrary<Record<string, unknown>>;
}

function buildValidObject(schema: JsonSchema, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const props = asSchema(schema['properties']) ?? {};
  const required = strList(schema['required']);
  const minProperties = num(schema['minProperties']) ?? 0;
  const model: Record<string, Arb> = {};
  for (const [k, v] of Object.entries(props)) model[k] = valid(asSchema(v) ?? {}, hints, k);
  const extra = schema['additionalProperties'];
  const extraSchema = asSchema(extra);
  let arb: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys: required.filter((k) => k in model) });
  if (extraSchema && Object.keys(props).length === 0) {
    const keys = asSchema(schema['propertyNames']);
    arb = fc.dictionary(keys ? (valid(keys, hints, undefined) as fc.Arbitrary<string>) : fc.string({ maxLength: 20 }), valid(extraSchema, hints, undefined), {
      maxKeys: Math.min(num(schema['maxProperties']) ?? 8, 8),
    });
  }
  return minProperties > 0 ? arb.filter((o) => Object.keys(o).length >= minProperties) : arb;
}

// Arbitraries are built once per (schema, property name, hints): building them is the costly part.
const memo = new WeakMap<object, Map<string, Arb>>();
function memoised(kind: string, schema: JsonSchema, hints: Hints, name: string | undefined, build: () => Arb): Arb {
  let byKey = memo.get(schema);
  if (!byKey) memo.set(schema, (byKey = new Map()));
  const key = `${kind}\u0000${name ?? ''}\u0000${hintsId(hints)}`;
  let arb = byKey.get(key);
  if (!arb) byKey.set(key, (arb = build()));
  return arb;
}
const hintIds = new WeakMap<Hints, number>();
let nextHintsId = 0;
function hintsId(h: Hints): number {
  let id = hintIds.get(h);
  if (id === undefined) hintIds.set(h, (id = nextHintsId++));
  return id;
}

/** A value the schema accepts (best effort for keywords it does not model). */
export function valid(schema: JsonSchema, hints: Hints, name?: string): Arb {
  return memoised('valid', schema, hints, name, () => buildValid(schema, hints, name));
}

function buildValid(schema: JsonSchema, hints: Hints, name: string | undefined): Arb {
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const alts = alternatives(schema);
  if (alts) return fc.oneof(...alts.map((a) => valid(a, hints, name)));
  const types = typesOf(schema);
  if (types.length === 0) return schema['properties'] ? validObject(schema, hints) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((t): Arb => {
      switch (t) {
        case 'string':
          return validString(schema, hints, name);
        case 'integer':
          return validNumber(schema, true);
        case 'number':
          return validNumber(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const items = asSchema(schema['items']) ?? {};
          const minLength = num(schema['minItems']) ?? 0;
          const maxItems = num(schema['maxItems']);
          const arr = fc.array(valid(items, hints, name), { minLength, maxLength: Math.max(minLength, Math.min(maxItems ?? 5, 5)) });
          return maxItems !== undefined && maxItems <= 60
            ? fc.oneof(
                { weight: 5, arbitrary: arr },
                { weight: 1, arbitrary: fc.array(valid(items, hints, name), { minLength: maxItems, maxLength: maxItems }) },
              )
            : arr;
        }
        case 'object':
          return validObject(schema, hints);
        default:
          return fc.jsonValue({ maxDepth: 2 });
      }
    }),
  );
}

// ——— Invalid values ———

const WRONG_TYPES: Record<string, readonly unknown[]> = {
  string: [0, 1, -1, 12.5, true, false, null, [], {}, ['a'], { a: 'b' }],
  number: ['0', '100', '', 'NaN', 'Infinity', true, null, [], {}, [1], { value: 1 }],
  integer: ['1', 1.5, -0.5, 1e-9, 2 ** 53 + 2, true, null, [], {}],
  boolean: ['true', 'false', 0, 1, null, [], {}, 'yes'],
  array: ['a,b', 0, null, {}, { 0: 'a', length: 1 }, true],
  object: ['{}', 0, null, [], [{}], true, 'object'],
  null: [0, '', 'null', false, [], {}],
};

function invalidString(schema: JsonSchema): Arb {
  const options: fc.WeightedArbitrary<unknown>[] = [{ weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) }];
  const maxLength = num(schema['maxLength']);
  const minLength = num(schema['minLength']);
  if (maxLength !== undefined) {
    options.push({ weight: 2, arbitrary: fc.constantFrom('x'.repeat(maxLength + 1), '😀'.repeat(maxLength + 1), 'x'.repeat(maxLength + 1000)) });
  }
  if (minLength !== undefined && minLength > 0) options.push({ weight: 1, arbitrary: fc.constantFrom('', 'x'.repeat(minLength - 1)) });
  if (typeof schema['pattern'] === 'string' || schema['format'] !== undefined) {
    // Near misses: a valid-looking text with one character changed, trimmed or padded.
    options.push({ weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }) });
  }
  return fc.oneof(...options);
}

function invalidNumber(schema: JsonSchema, integer: boolean): Arb {
  const out: unknown[] = [1e308, -1e308, 2 ** 53 + 2];
  const min = num(schema['minimum']);
  const max = num(schema['maximum']);
  if (min !== undefined) out.push(min - 1, min - 0.001);
  if (max !== undefined) out.push(max + 1, max + 0.001);
  if (integer || schema['multipleOf'] === 1) out.push(0.5, (min ?? 0) + 0.5);
  return fc.constantFrom(...out);
}

/** A value the schema refuses (best effort: a value of another type always is). */
export function invalid(schema: JsonSchema, hints: Hints): Arb {
  return memoised('invalid', schema, hints, undefined, () => buildInvalid(schema, hints));
}

function buildInvalid(schema: JsonSchema, hints: Hints): Arb {
  const types = typesOf(schema);
  const wrong = [
    ...new Set(
      Object.entries(WRONG_TYPES)
        .filter(([t]) => !types.includes(t) && !(t === 'integer' && types.includes('number')))
        .flatMap(([, v]) => v),
    ),
  ];
  const options: fc.WeightedArbitrary<unknown>[] = [{ weight: 2, arbitrary: fc.constantFrom(...(wrong.length > 0 ? wrong : [{}])) }];
  if (Array.isArray(schema['enum'])) {
    const values = (schema['enum'] as unknown[]).filter((v): v is string => typeof v === 'string');
    options.push({
      weight: 3,
      arbitrary: fc.oneof(fc.constantFrom(...values.flatMap((v) => [v.toUpperCase(), v.toLowerCase(), ` ${v}`, `${v}\u0000`])), fc.string({ maxLength: 12 })),
    });
  }
  if (types.includes('string')) options.push({ weight: 4, arbitrary: invalidString(schema) });
  if (types.includes('integer') || types.includes('number')) options.push({ weight: 4, arbitrary: invalidNumber(schema, types.includes('integer')) });
  if (types.includes('array')) {
    const items = asSchema(schema['items']) ?? {};
    const maxItems = num(schema['maxItems']);
    options.push({ weight: 2, arbitrary: fc.array(invalid(items, hints), { minLength: 1, maxLength: 3 }) });
    if (maxItems !== undefined) options.push({ weight: 1, arbitrary: fc.array(valid(items, hints), { minLength: maxItems + 1, maxLength: maxItems + 3 }) });
  }
  if (types.includes('object') || schema['properties']) options.push({ weight: 3, arbitrary: invalidObject(schema, hints) });
  options.push({ weight: 1, arbitrary: oddValue() });
  return fc.oneof(...options);
}

// ——— Objects (request bodies and query strings) ———

/** An object with exactly one property replaced by an invalid value (or removed when required). */
function oneFieldBroken(schema: JsonSchema, hints: Hints): Arb {
  const props = Object.entries(asSchema(schema['properties']) ?? {});
  if (props.length === 0) return validObject(schema, hints);
  const broken = props.map(([key, propSchema]) => fc.tuple(fc.constant(key), invalid(asSchema(propSchema) ?? {}, hints)));
  return fc.tuple(validObject(schema, hints), fc.oneof(...broken)).map(([o, [key, bad]]) => ({ ...o, [key]: bad }));
}

function missingRequired(schema: JsonSchema, hints: Hints): Arb {
  const required = strList(schema['required']);
  if (required.length === 0) return fc.constant({});
  return fc
    .tuple(validObject(schema, hints), fc.subarray(required, { minLength: 1 }))
    .map(([o, drop]) => Object.fromEntries(Object.entries(o).filter(([k]) => !drop.includes(k))));
}

const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'id',
  '_id',
  'patientId',
  'hospitalId',
  'version',
  'deletedAt',
  'role',
  'admin',
  'passwordHash',
  '',
  ' ',
  '\u0000',
  'a'.repeat(1000),
];

function extraKeys(schema: JsonSchema, hints: Hints): Arb {
  return fc
    .tuple(
      validObject(schema, hints),
      fc.dictionary(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 12 })), oddValue(), { minKeys: 1, maxKeys: 4 }),
    )
    .map(([o, extra]) => {
      const out: Record<string, unknown> = { ...o };
      // defineProperty: "__proto__" must become an own key, as JSON.parse makes it on the server.
      for (const [k, v] of Object.entries(extra)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    });
}

function allFieldsBroken(schema: JsonSchema, hints: Hints): Arb {
  const props = asSchema(schema['properties']) ?? {};
  const model: Record<string, Arb> = {};
  for (const [k, v] of Object.entries(props)) model[k] = invalid(asSchema(v) ?? {}, hints);
  return fc.record(model, { requiredKeys: [] });
}

function invalidObject(schema: JsonSchema, hints: Hints): Arb {
  return fc.oneof(oneFieldBroken(schema, hints), missingRequired(schema, hints), allFieldsBroken(schema, hints));
}

/** A request body for a route that declares `schema`: mostly near-valid, to reach the services. */
export function bodyOf(schema: JsonSchema, hints: Hints): Arb {
  return fc.oneof(
    { weight: 10, arbitrary: valid(schema, hints) },
    { weight: 6, arbitrary: oneFieldBroken(schema, hints) },
    { weight: 2, arbitrary: missingRequired(schema, hints) },
    { weight: 2, arbitrary: extraKeys(schema, hints) },
    { weight: 1, arbitrary: allFieldsBroken(schema, hints) },
    { weight: 1, arbitrary: oddValue() },
  );
}
