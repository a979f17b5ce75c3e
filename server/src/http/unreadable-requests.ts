import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type RequestListener, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Logger, requestIdFor } from '../logger.js';
import { SECURITY_HEADERS } from './security-headers.js';

/**
 * Requests the server cannot read as one (docs/api.md, "Errors"): Node's parser refused the bytes, the headers
 * were over the limit or came too slowly (`clientError`), or the request names its host other than once
 * (RFC 9112 §3.2). Each is answered as the API answers, with JSON, `no-store` and an `X-Request-Id`, where the
 * connection still allows an answer; one log line says what it was; the connection is closed.
 */

export const UNREADABLE_REQUEST_MESSAGES = {
  malformed: 'The request is not well-formed HTTP',
  host: 'A request must name its host in exactly one Host header',
  headersTooLarge: 'The request headers are over 16 KiB',
  timeout: 'The request did not arrive in time',
} as const;

/** How long a peer that stops reading may keep a refused connection open before it is cut. */
const CLOSING_GRACE_MS = 5_000;

/**
 * Connections already refused: Node may report the same connection again while it closes (its time limit still
 * runs on the request it could not read), which is not another request.
 */
const refused = new WeakSet<Duplex>();

/** What Node hands to `clientError`: the parser's code (`HPE_…`), or its own for a time limit. */
interface ClientError extends Error {
  code?: string;
  reason?: string;
  /** The bytes being parsed when it failed (a parse error's only). */
  rawPacket?: Buffer;
}

/**
 * Whether the request that failed was a `HEAD`, whose answer has no body (its client would read one as the next
 * answer's start). Known from the bytes when the parser failed; a time limit has none, and gets a body.
 */
function isHead(error: ClientError): boolean {
  return Buffer.isBuffer(error.rawPacket) && error.rawPacket.toString('latin1', 0, 5) === 'HEAD ';
}

function refusalFor(error: ClientError): { status: number; message: string } | undefined {
  switch (error.code) {
    // The client went away or broke the connection: nobody to answer.
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: UNREADABLE_REQUEST_MESSAGES.headersTooLarge };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: UNREADABLE_REQUEST_MESSAGES.timeout };
    default:
      return { status: 400, message: UNREADABLE_REQUEST_MESSAGES.malformed };
  }
}

/** The answer's head and body as `[name, value]` pairs and bytes: one shape for the socket and for a response. */
function refusal(status: number, message: string, requestId: string): { headers: [string, string][]; body: Buffer } {
  const body = Buffer.from(JSON.stringify({ error: message }));
  return {
    headers: [
      ['X-Request-Id', requestId],
      ...SECURITY_HEADERS.map(([name, value]): [string, string] => [name, value]),
      ['Cache-Control', 'no-store'],
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Content-Length', String(body.length)],
      ['Connection', 'close'],
    ],
    body,
  };
}

/**
 * The server's `clientError` listener. Node's own answers a bare `400`, `408` or `431` with no body and no id, and
 * logs nothing. This one never throws: a failure to answer only closes the connection.
 */
export function answerUnreadableRequest(logger: Logger): (error: ClientError, socket: Duplex) => void {
  return (error, socket) => {
    try {
      const found = refusalFor(error);
      if (found === undefined || refused.has(socket)) return;
      refused.add(socket);
      const requestId = randomUUID();
      // An answer may only go where none has started: a response half written would be corrupted by a second head.
      const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
      const answered = socket.writable && !(inFlight?.headersSent ?? false);
      logger.warn(
        { requestId, status: found.status, code: error.code, reason: error.reason ?? error.message, answered },
        `Refused a request the server could not read (${found.status}): ${found.message}`,
      );
      if (!answered) return;
      const { headers, body } = refusal(found.status, found.message, requestId);
      const head = [`HTTP/1.1 ${found.status} ${STATUS_CODES[found.status]}`, ...headers.map(([name, value]) => `${name}: ${value}`)];
      socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), isHead(error) ? Buffer.alloc(0) : body]));
      setTimeout(() => socket.destroy(), CLOSING_GRACE_MS).unref();
    } catch {
      // Nothing to do but close: the answer is best effort.
    } finally {
      if (!socket.writableEnded) socket.destroy();
    }
  };
}

/**
 * Host headers in the request as sent (Node keeps only the first in `req.headers`). On every request, so a name is
 * lower-cased only when it has Host's length.
 */
function hostHeaders(req: IncomingMessage): number {
  let count = 0;
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    const name = req.rawHeaders[index]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count += 1;
  }
  return count;
}

/**
 * `listener`, for requests that name their host once (or, in HTTP/1.0, at most once); any other is refused `400`
 * (RFC 9112 §3.2) before it reaches anything that reads the host: the pages build their canonical URLs from it.
 */
export function refuseUnclearHost(listener: RequestListener, logger: Logger): RequestListener {
  return (req, res) => {
    const hosts = hostHeaders(req);
    if (hosts === 1 || (hosts === 0 && req.httpVersion === '1.0')) {
      listener(req, res);
      return;
    }
    const requestId = requestIdFor(req);
    logger.warn(
      { requestId, status: 400, method: req.method, url: req.url, hostHeaders: hosts },
      `Refused a request the server could not read (400): ${UNREADABLE_REQUEST_MESSAGES.host}`,
    );
    const { headers, body } = refusal(400, UNREADABLE_REQUEST_MESSAGES.host, requestId);
    res.shouldKeepAlive = false;
    res.writeHead(400, headers.flat());
    res.end(body);
  };
}
