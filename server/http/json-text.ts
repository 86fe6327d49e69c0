// A response body the server has already written as JSON text (the record lists: rows made into
// JSON by the database and joined, server/services/record-helpers.ts; a whole list kept as bytes,
// services/list-cache.ts). Fastify sends a string or a Buffer with a JSON content type as it is,
// without serializing it again.
import type { FastifyReply } from 'fastify';

export class JsonText {
  readonly text: string | Buffer;

  constructor(text: string | Buffer) {
    this.text = text;
  }
}

export function sendJsonText(reply: FastifyReply, body: JsonText): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body.text);
}
