import { createServer, request, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SiteServer } from '../fixtures/servers.ts';

/** A page answer stopped part-way: the browser has the first part and waits for the rest. */
export interface HeldPage {
  /** Resolves with the first part once the browser has been sent it; rejects if the cut is not inside the page. */
  readonly sent: Promise<string>;
  /** Sends the rest. */
  release(): void;
}

/** A site behind a relay that can stop one page answer part-way, as a slow connection delivers it. */
export interface HeldPageRelay extends SiteServer {
  /**
   * The next answer for `path` is sent up to `cut(html)` characters, then held until `release()`: the browser parses
   * and draws the part it has, as it does when the rest of the page is still on its way.
   */
  holdNext(path: string, cut: (html: string) => number): HeldPage;
}

interface Hold {
  cut: (html: string) => number;
  sent: (firstPart: string) => void;
  failed: (error: Error) => void;
  released: Promise<void>;
}

/**
 * Starts a relay on a free port in front of `site`: every request goes through to it unchanged (but uncompressed, so
 * that a page can be cut where its markup says), and its answer comes back unchanged, except a held page's body.
 */
export async function startHeldPageRelay(site: SiteServer): Promise<HeldPageRelay> {
  const held = new Map<string, Hold>();

  const server = createServer((incoming, outgoing) => {
    const headers: IncomingHttpHeaders = { ...incoming.headers };
    delete headers['accept-encoding'];
    const forwarded = request(`${site.url}${incoming.url}`, { method: incoming.method, headers }, (answer) => {
      const hold = held.get(incoming.url ?? '');
      if (!hold) {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        return;
      }
      held.delete(incoming.url ?? '');
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on(
        'end',
        () => void sendInTwoParts(outgoing, answer.statusCode ?? 502, answer.headers, Buffer.concat(chunks).toString('utf8'), hold),
      );
    });
    forwarded.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(forwarded);
  });

  async function sendInTwoParts(outgoing: ServerResponse, status: number, headers: IncomingHttpHeaders, html: string, hold: Hold) {
    const at = hold.cut(html);
    if (!(at > 0 && at < html.length)) {
      hold.failed(new Error(`the cut at ${at} is not inside the ${html.length}-character page`));
      outgoing.writeHead(500).end();
      return;
    }
    // Without a length the body goes chunked, each write flushed as it is made: the browser gets the first part alone.
    const unsized = { ...headers };
    delete unsized['content-length'];
    outgoing.writeHead(status, unsized);
    outgoing.write(html.slice(0, at));
    hold.sent(html.slice(0, at));
    await hold.released;
    outgoing.end(html.slice(at));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    origin: url,
    output: () => site.output(),
    holdNext(path, cut) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const sent = new Promise<string>((resolve, reject) => held.set(path, { cut, sent: resolve, failed: reject, released }));
      return { sent, release };
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
