// Request validation with two Ajv instances. Query strings and path parameters arrive as text, so
// they are coerced ("2" → 2). JSON bodies are not: `null`, `true` or "" must never quietly become a
// glucose value of 0 or 1, or a patient's age of 0.
import { Ajv, type Options } from 'ajv';
import ajvFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS: under Node's ESM loader the plugin is the module's `default` property.
const addFormats = ajvFormats.default;

function makeAjv(coerceTypes: NonNullable<Options['coerceTypes']>): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: true,
    allErrors: false,
    verbose: true, // error.parentSchema lets messages say "between 20 and 600 mg/dL"
    strict: false,
    keywords: ['unit'],
    addUsedSchema: false,
  });
  addFormats(ajv);
  // Dates and times the database can hold and a person can mean: years 1900 to 2999. A well-formed
  // "0000-01-01" passed the format and reached PostgreSQL, which has no year 0: a 500 (issue 45).
  for (const name of ['date', 'date-time'] as const) {
    const format = fullFormats[name];
    const valid =
      typeof format === 'object' && 'validate' in format && typeof format.validate === 'function' ? (format.validate as (s: string) => boolean) : undefined;
    if (valid) ajv.addFormat(name, { type: 'string', validate: (s: string) => valid(s) && inYears(s) });
  }
  return ajv;
}

/** The first and last year a date or date-time the API accepts may name. */
export const YEARS = { first: 1900, last: 2999 } as const;
const inYears = (s: string): boolean => {
  const year = Number(/^(\d{4})-/.exec(s)?.[1]);
  return year >= YEARS.first && year <= YEARS.last;
};

/** The Ajv of JSON bodies, for bodies checked outside a route's own schema (the writes of a batch). */
export const bodyAjv = (): Ajv => makeAjv(false);

export function validatorCompiler(): FastifySchemaCompiler<object> {
  const body = makeAjv(false);
  const text = makeAjv('array');
  return ({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema);
}
