// GET /api/changes: the live change feed as server-sent events (issue 46; docs/sync-protocol.md,
// "Live changes"). The patient's session follows its own records; staff follow one patient of
// their hospitals (`hospNo`, the review) or one hospital (`hospitalId`, the worklist). Each event
// says only that something changed, with the patient's version for a patient: the device pulls by
// version as it always does. A stream ends after STREAM_MAX_MS, so a session that ended is noticed
// when the device opens the next one; a comment every HEARTBEAT_MS keeps proxies from closing it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { badRequest, HttpError } from '../http/errors.ts';
import { requirePrincipal, signedIn } from '../http/guards.ts';
import { checkHospital, patientForStaff } from '../services/admin/scope.ts';
import { patientVersion, type Topic } from '../services/change-feed.ts';
import { eventStreamAnswers } from '../../schemas/api.ts';
import { hospNo, uuid } from '../../schemas/common.ts';

export const HEARTBEAT_MS = 20_000;
export const STREAM_MAX_MS = 10 * 60_000;
/** Changes that come together (a batch, several tables) are one event. */
export const COALESCE_MS = 50;

const changesQuerySchema = {
  type: 'object',
  properties: {
    hospNo: { ...hospNo, description: "Staff: the patient whose records are followed (a staff review). Not for a patient's session." },
    hospitalId: { ...uuid, description: "Staff: the hospital whose patients are followed (the worklist). Not for a patient's session." },
  },
  additionalProperties: false,
} as const;

export function changesRoutes(api: TypedApp, ctx: AppContext): void {
  api.get(
    '/changes',
    {
      preHandler: signedIn(ctx),
      schema: {
        summary:
          'Live changes as server-sent events (text/event-stream): `ready` with the version, then `change` each time the records followed take a new version; no health data',
        querystring: changesQuerySchema,
        response: eventStreamAnswers(
          'Events: `ready` and `change` with `{version}` (a patient) or `{}` (a hospital), `gap: true` when changes may have been missed; a comment every 20 s; ends after 10 minutes',
        ),
      },
    },
    async (req, reply) => {
      // A stream that never ends is for a client that asks for one (EventSource and the app's own
      // client do); anything else is told so instead of waiting on it for ever.
      if (!acceptsEventStream(req.headers.accept)) throw new HttpError(406, 'This is a stream of server-sent events: send Accept: text/event-stream');
      const { topic, version } = await topicOf(ctx, req, req.query);
      stream(ctx, req, reply, topic, version);
      return reply;
    },
  );
}

const acceptsEventStream = (accept: string | undefined): boolean =>
  accept !== undefined && accept.split(',').some((part) => part.trim().split(';')[0]?.trim().toLowerCase() === 'text/event-stream');

async function topicOf(
  ctx: AppContext,
  req: FastifyRequest,
  q: { hospNo?: string | undefined; hospitalId?: string | undefined },
): Promise<{ topic: Topic; version?: () => Promise<number> }> {
  const principal = requirePrincipal(req);
  if (principal.kind === 'patient') {
    if (q.hospNo !== undefined || q.hospitalId !== undefined) throw badRequest("A patient's session follows its own records: no hospNo or hospitalId");
    const patientId = principal.patientId;
    return { topic: { patientId }, version: () => patientVersion(ctx, patientId) };
  }
  if ((q.hospNo === undefined) === (q.hospitalId === undefined)) throw badRequest('Name either a patient (hospNo) or a hospital (hospitalId)');
  if (q.hospitalId !== undefined) {
    checkHospital(principal, q.hospitalId);
    return { topic: { hospitalId: q.hospitalId } };
  }
  const patient = await patientForStaff(ctx, principal, q.hospNo ?? '');
  return { topic: { patientId: patient.id }, version: () => patientVersion(ctx, patient.id) };
}

function stream(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, topic: Topic, version: (() => Promise<number>) | undefined): void {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // nginx: pass each event on at once instead of buffering the answer.
    'x-accel-buffering': 'no',
  });
  let closed = false;
  const send = (event: string, data: object) => {
    if (!closed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const tell = async (event: 'ready' | 'change', gap: boolean) => {
    const v = version ? await version() : undefined;
    send(event, { ...(v === undefined ? {} : { version: v }), ...(gap ? { gap: true } : {}) });
  };
  // Reconnect after 3 s when the connection is lost (EventSource's own rule; the app's client reads it too).
  res.write('retry: 3000\n\n');
  let pending: ReturnType<typeof setTimeout> | undefined;
  let gapSeen = false;
  const unsubscribe = ctx.changes.subscribe(topic, (gap) => {
    gapSeen ||= gap;
    pending ??= setTimeout(() => {
      pending = undefined;
      const g = gapSeen;
      gapSeen = false;
      tell('change', g).catch((err: unknown) => ctx.log.warn({ err }, 'a change event could not be sent'));
    }, COALESCE_MS);
  });
  const heartbeat = setInterval(() => {
    if (!closed) res.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  const end = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
    clearTimeout(lifetime);
    if (pending) clearTimeout(pending);
    ctx.changes.forget(end);
    // Its connection goes with it: an event stream's connection is never used again, and one left
    // open would hold the instance's shutdown until the client let go of it.
    res.end(() => res.socket?.destroy());
  };
  const lifetime = setTimeout(end, STREAM_MAX_MS);
  ctx.changes.remember(end);
  req.raw.on('close', end);
  res.on('close', end);
  tell('ready', false).catch((err: unknown) => {
    ctx.log.warn({ err }, 'a change stream could not start');
    end();
  });
}
