// The server tests' check of every answer against its route's declared shape (schemas/api.ts): the
// same shapes serialize answer objects, but the record lists and an add's answer are JSON text the
// database wrote, which no serializer sees. On in the test harness (server/testing/harness.ts); an
// answer that breaks its shape becomes a 500 whose message says how, so the test that got it fails
// with the reason. Off in production: the shapes are proven by the tests, not re-checked per request.
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { REPEATABLE_ANSWERS } from '../../schemas/api.ts';
import { HttpError } from './errors.ts';
import { MUTATION_REPEAT_HEADER } from './mutation-reply.ts';

const addFormats = ajvFormats.default;

/** The declared answer for `status`: its own code, else its class (`4xx`), else `default`. */
export function declaredFor(responses: object, status: number): unknown {
  const byKey = new Map<string, unknown>(Object.entries(responses));
  return byKey.get(String(status)) ?? byKey.get(`${Math.floor(status / 100)}xx`) ?? byKey.get(`${Math.floor(status / 100)}XX`) ?? byKey.get('default');
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

export function installResponseCheck(app: FastifyInstance): void {
  const ajv = new Ajv({ allErrors: true, strict: false, keywords: ['unit'], addUsedSchema: false });
  addFormats(ajv);
  const compiled = new WeakMap<object, ValidateFunction>();
  const validatorOf = (schema: object) => {
    let v = compiled.get(schema);
    if (!v) {
      v = ajv.compile(schema);
      compiled.set(schema, v);
    }
    return v;
  };
  const repeatable = validatorOf({ anyOf: REPEATABLE_ANSWERS });

  app.addHook('onSend', async (req, reply, payload) => {
    const responses = req.routeOptions.schema?.response;
    if (!isObject(responses) || !req.url.startsWith('/api/')) return payload;
    const where = `${req.method} ${req.routeOptions.url ?? req.url} answered ${reply.statusCode}`;
    // A repeated mutation id is answered with the first answer given to it, status and body, maybe
    // another route's (a 201 of an add answering a delete sent with the same id).
    const repeat = reply.getHeader(MUTATION_REPEAT_HEADER) === '1' && reply.statusCode < 400;
    const found = declaredFor(responses, reply.statusCode);
    const declared = isObject(found) ? found : undefined;
    if (!declared && !repeat) throw new HttpError(500, `${where}, a status its route does not declare`);
    // A redirect (the staff sign-in through an identity provider) says where, not what.
    if (declared && reply.statusCode >= 300 && reply.statusCode < 400 && reply.hasHeader('location')) return payload;
    const type =
      String(reply.getHeader('content-type') ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    // A file answer declares its content types (fileAnswers in schemas/api.ts), a JSON one its shape.
    const content = declared && 'content' in declared && isObject(declared.content) ? declared.content : undefined;
    if (content) {
      if (!(type in content)) throw new HttpError(500, `${where} with ${type || 'no content type'}, not one its route declares`);
      return payload;
    }
    if (!/^application\/(.+\+)?json$/.test(type)) throw new HttpError(500, `${where} with ${type || 'no content type'} where its route declares JSON`);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const body: unknown = JSON.parse(payload.toString());
    const validate = repeat || !declared ? repeatable : validatorOf(declared);
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 3)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${'additionalProperty' in e.params ? ` (${String(e.params['additionalProperty'])})` : ''}`);
      throw new HttpError(500, `${where} with a body that breaks its declared shape: ${errors.join('; ')}`);
    }
    return payload;
  });
}
