// What the server's log says of a request: the method, the route's pattern and the caller's
// address, never the path as sent nor its query. A path names a patient (/api/admin/patients/100001)
// and a query may hold a name typed into the staff search (?search=Maria): the log is read by
// whoever runs the server, who may not read patients' records. Who read which patient is the audit
// log's to say (GET /api/admin/audit), with its access rules. Headers (and so tokens) are never logged.
import type { FastifyRequest } from 'fastify';

/** The request as the log shows it. */
export interface LoggedRequest {
  [field: string]: unknown;
  method: string;
  url: string;
  remoteAddress: string;
}

/** A path with every segment after /api/ that could name someone replaced: used for unmatched paths. */
const maskedPath = (url: string): string => {
  const path = url.split('?')[0] ?? '';
  return path.replace(/[^/]+/g, (seg, offset: number) => (offset <= 4 || /^[a-z][a-zA-Z-]*$/.test(seg) ? seg : ':value'));
};

export function requestForLog(req: FastifyRequest): LoggedRequest {
  const pattern = req.routeOptions.url;
  return { method: req.method, url: pattern ?? maskedPath(req.url), remoteAddress: req.ip };
}
