import { request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';

export interface RawExchange {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `request` as bytes on a fresh TCP connection and reads one response: for what HTTP clients refuse to
 * send (oversized headers, a body announced but never sent). Resolves once the response is complete, by its
 * Content-Length or by the server closing the connection, whichever comes first.
 */
export function rawExchange(port: number, request: string): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;

    function parse(): RawExchange | undefined {
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return undefined;
      const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const rest = received.subarray(end + 4);
      const length = headers['content-length'];
      if (length !== undefined && rest.length < Number(length)) return undefined;
      const body = headers['transfer-encoding'] === 'chunked' ? dechunk(rest) : rest;
      return { status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') };
    }

    function finish(result: RawExchange | undefined, error?: Error): void {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (result === undefined) reject(error ?? new Error(`no complete response in ${JSON.stringify(received.toString('latin1'))}`));
      else resolve(result);
    }

    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const result = parse();
      if (result !== undefined && (result.headers['content-length'] !== undefined || result.status === 304)) finish(result);
    });
    socket.on('close', () => finish(parse()));
    // A server that resets the connection after answering still answered: keep what arrived.
    socket.on('error', (error) => finish(parse(), error));
    socket.write(request, 'latin1');
  });
}

/** The payload of a chunked body (RFC 9112 §7.1), as far as it arrived. */
function dechunk(bytes: Buffer): Buffer {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd === -1) break;
    const size = Number.parseInt(bytes.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    chunks.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(chunks);
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as sent, still encoded. */
  body: Buffer;
}

/** A GET that leaves the body as it came over the wire (supertest decodes gzip on its own). */
export function rawGet(server: Server, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on a port');
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: address.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
