// The server tests' answer check (response-check.ts) must call an answer that breaks its route's
// declared shape, and only such an answer: JSON text no serializer saw, a status not declared, a
// content type not declared.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { answers, fileAnswers, glucoseWritten, message } from '../../schemas/api.ts';
import { installResponseCheck } from './response-check.ts';

async function app() {
  const a = Fastify({ logger: false });
  installResponseCheck(a);
  const schema = { response: answers(message) };
  a.get('/api/object', { schema }, async () => ({ message: 'fine', extra: 'dropped by the serializer' }));
  a.get('/api/text', { schema }, async (_req, reply) => reply.type('application/json').send('{"nope":1}'));
  a.get('/api/accepted', { schema }, async (_req, reply) => reply.status(202).send({ message: 'fine' }));
  a.get('/api/refused', { schema }, async (_req, reply) => reply.status(409).send({ message: 'taken', current: null, fields: ['name'] }));
  a.get('/api/repeat', { schema }, async (_req, reply) =>
    reply
      .header('X-Mutation-Repeat', '1')
      .type('application/json')
      .send(
        JSON.stringify({
          message: 'Glucose reported successfully',
          data: { _id: '6f9619ff-8b86-4011-b42d-00c04fc964ff', type: 'Fasting', value: 100, recordedAt: '2026-11-01T08:00:00.000Z' },
        }),
      ),
  );
  a.get('/api/repeat-created', { schema }, async (_req, reply) =>
    reply
      .status(201)
      .header('X-Mutation-Repeat', '1')
      .type('application/json')
      .send(
        JSON.stringify({
          message: 'Glucose reported successfully',
          data: { _id: '6f9619ff-8b86-4011-b42d-00c04fc964ff', type: 'Fasting', value: 100, recordedAt: '2026-11-01T08:00:00.000Z' },
        }),
      ),
  );
  a.get('/api/pdf', { schema: { response: fileAnswers('application/pdf', 'a PDF') } }, async (_req, reply) =>
    reply.type('application/pdf').send(Buffer.from('%PDF-1.7')),
  );
  a.get('/api/not-pdf', { schema: { response: fileAnswers('application/pdf', 'a PDF') } }, async (_req, reply) => reply.type('text/plain').send('hello'));
  return a;
}

describe('the answer check of the server tests', () => {
  it('passes answers of their declared shape, serialized or written as text', async () => {
    const a = await app();
    const object = await a.inject({ url: '/api/object' });
    expect(object.statusCode).toBe(200);
    expect(object.json()).toEqual({ message: 'fine' });
    expect((await a.inject({ url: '/api/refused' })).statusCode).toBe(409);
    expect((await a.inject({ url: '/api/pdf' })).statusCode).toBe(200);
    // A repeated write answers with the first answer given to its id, maybe another route's.
    expect((await a.inject({ url: '/api/repeat' })).statusCode).toBe(200);
    // Its status too: an add's 201 answering a route that itself never creates (the fuzz found it).
    expect((await a.inject({ url: '/api/repeat-created' })).statusCode).toBe(201);
    expect(glucoseWritten.required).toContain('data');
  });

  it('turns an answer that breaks its shape into a 500 that says how', async () => {
    const a = await app();
    const text = await a.inject({ url: '/api/text' });
    expect(text.statusCode).toBe(500);
    expect(text.json<{ message: string }>().message).toMatch(
      /GET \/api\/text answered 200 with a body that breaks its declared shape: .*must have required property 'message'/,
    );
    const accepted = await a.inject({ url: '/api/accepted' });
    expect(accepted.statusCode).toBe(500);
    expect(accepted.json<{ message: string }>().message).toContain('answered 202, a status its route does not declare');
    const notPdf = await a.inject({ url: '/api/not-pdf' });
    expect(notPdf.statusCode).toBe(500);
    expect(notPdf.json<{ message: string }>().message).toContain('with text/plain, not one its route declares');
  });
});
