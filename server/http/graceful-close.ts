// Closing the HTTP server without waiting on kept-alive connections (issue 17, graceful shutdown).
//
// Node's server.close() stops accepting connections, closes the idle ones and then waits for every
// other connection to end. A request that is in flight when it starts is still answered with
// `Connection: keep-alive`, so its connection stays open after the answer until the client or the
// keep-alive timeout (72 s in Fastify) ends it: close() would not finish, and the shutdown would be
// cut off by its 10 s limit (exit code 1) instead of ending cleanly. While closing, an answer not yet
// sent says `Connection: close`, so Node ends its connection after it; a connection whose answer had
// already started is closed once that answer is complete.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface Drain {
  /** Call when the server starts closing (before or right after `server.close()`). */
  begin(): void;
}

export function closeConnectionsAfterAnswer(server: Server): Drain {
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // By now Node has detached the socket from the answer: an idle connection, closed at once.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });
  return {
    begin() {
      closing = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
    },
  };
}
