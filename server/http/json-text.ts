// A response body the server has already written as JSON text (the record lists: rows made into
// JSON by the database and joined, server/services/record-helpers.ts). Fastify sends a string with a
// JSON content type as it is, without serializing it again.
import type { FastifyReply } from 'fastify';

export class JsonText {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

export function sendJsonText(reply: FastifyReply, body: JsonText): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body.text);
}
