// Turns Ajv errors into messages a person can act on: "value must be between 20 and 600 mg/dL",
// "glucoseId must be a valid UUID", "hospNo is required". The field is always named.
import { NOT_BLANK } from '../../schemas/common.ts';

const FORMAT_NAMES: Record<string, string> = {
  uuid: 'UUID',
  'date-time': 'ISO date and time (for example 2026-11-22T08:30:00Z)',
  date: 'date (YYYY-MM-DD)',
  email: 'e-mail address',
  uri: 'URL',
};

/**
 * What the messages read of a validation error: Ajv's ErrorObject, or Fastify's type of the same
 * object (FastifySchemaValidationError), which leaves out `parentSchema`. The Ajvs here are verbose
 * (validator.ts), so it is there; config.ts adds it to env-schema's errors.
 */
export interface ValidationError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  parentSchema?: unknown;
}

/** A value that has the fields of a validation error (what an Ajv error always has). */
export const isValidationError = (e: unknown): e is ValidationError =>
  typeof e === 'object' &&
  e !== null &&
  'keyword' in e &&
  typeof e.keyword === 'string' &&
  'instancePath' in e &&
  typeof e.instancePath === 'string' &&
  'params' in e &&
  typeof e.params === 'object' &&
  e.params !== null;

interface SchemaHints {
  minimum?: number | undefined;
  maximum?: number | undefined;
  unit?: string | undefined;
  description?: string | undefined;
}

/** What the messages use of the schema the error is about (its `parentSchema`). */
function hintsOf(schema: unknown): SchemaHints {
  if (typeof schema !== 'object' || schema === null) return {};
  return {
    minimum: 'minimum' in schema && typeof schema.minimum === 'number' ? schema.minimum : undefined,
    maximum: 'maximum' in schema && typeof schema.maximum === 'number' ? schema.maximum : undefined,
    unit: 'unit' in schema && typeof schema.unit === 'string' ? schema.unit : undefined,
    description: 'description' in schema && typeof schema.description === 'string' ? schema.description : undefined,
  };
}

function fieldName(err: ValidationError, root: string): string {
  const pathPart = err.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (err.keyword === 'required' || err.keyword === 'dependentRequired') {
    const missing = String(err.params['missingProperty'] ?? '');
    return pathPart ? `${pathPart}.${missing}` : missing;
  }
  return pathPart || root;
}

/**
 * The error to tell a person about. Ajv lists the failures of each branch of an `anyOf` before the
 * `anyOf` itself; when that schema says in words what it accepts, that says more than the first
 * branch's failure ("since must be an ISO time or a version", not only "an ISO time").
 */
export function pickAjvError<E extends ValidationError>(errors: readonly E[]): E | undefined {
  return errors.find((e) => e.keyword === 'anyOf' && hintsOf(e.parentSchema).description !== undefined) ?? errors[0];
}

export function describeAjvError(err: ValidationError, root = 'body'): string {
  const field = fieldName(err, root);
  const hints = hintsOf(err.parentSchema);
  const unit = hints.unit ? ` ${hints.unit}` : '';
  const params = err.params;
  switch (err.keyword) {
    case 'required':
      return `${field} is required`;
    case 'type': {
      const t = String(params['type'])
        .split(',')
        .filter((x) => x !== 'null')
        .join(' or ');
      if (t === 'object' && field === root) return `The request ${root === 'body' ? 'body' : root} must be a JSON object`;
      return `${field} must be ${t === 'integer' ? 'a whole number' : t === 'array' || t === 'object' ? `an ${t}` : `a ${t}`}`;
    }
    case 'enum': {
      const allowed = params['allowedValues'];
      return `${field} must be one of: ${Array.isArray(allowed) ? allowed.join(', ') : String(allowed)}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      if (hints.minimum !== undefined && hints.maximum !== undefined) {
        return `${field} must be between ${hints.minimum} and ${hints.maximum}${unit}`;
      }
      return `${field} must be ${err.keyword.endsWith('inimum') ? 'at least' : 'at most'} ${String(params['limit'])}${unit}`;
    case 'minLength':
      return params['limit'] === 1 ? `${field} must not be empty` : `${field} must be at least ${String(params['limit'])} characters long`;
    case 'maxLength':
      return `${field} must be at most ${String(params['limit'])} characters long`;
    case 'minItems':
      return `${field} must have at least ${String(params['limit'])} item(s)`;
    case 'maxItems':
      return `${field} must have at most ${String(params['limit'])} items`;
    case 'format':
      return `${field} must be a valid ${FORMAT_NAMES[String(params['format'])] ?? String(params['format'])}`;
    case 'pattern':
      if (params['pattern'] === NOT_BLANK) return `${field} must not be empty`;
      return hints.description ? `${field} must be ${hints.description}` : `${field} has an invalid format`;
    case 'minProperties':
      return `Send at least one field to change`;
    case 'oneOf':
      return `${field} must have exactly one of the allowed combinations of fields`;
    case 'anyOf':
      if (!hints.description) return `${field} is not valid`;
      return field === root ? `The request must include ${hints.description}` : `${field} must be ${hints.description}`;
    case 'additionalProperties':
      return `${field === root ? '' : `${field}.`}${String(params['additionalProperty'])} is not allowed`;
    default:
      return `${field} is not valid`;
  }
}
