// Request validation with two Ajv instances. Query strings and path parameters arrive as text, so
// they are coerced ("2" → 2). JSON bodies are not: `null`, `true` or "" must never quietly become a
// glucose value of 0 or 1, or a patient's age of 0.
import { Ajv, type Options } from 'ajv';
import ajvFormats from 'ajv-formats';
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
  return ajv;
}

/** The Ajv of JSON bodies, for bodies checked outside a route's own schema (the writes of a batch). */
export const bodyAjv = (): Ajv => makeAjv(false);

export function validatorCompiler(): FastifySchemaCompiler<object> {
  const body = makeAjv(false);
  const text = makeAjv('array');
  return ({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema);
}
