// One plain HTTP GET that hands back the bytes as sent (no decompression, unlike fetch), with a time limit.
import { request } from 'node:http';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';

export function get(url, headers = {}, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} took longer than ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** The body as text, whatever the Content-Encoding it was sent with. */
export function decodedText(response) {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(response.body).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(response.body).toString('utf8');
  return response.body.toString('utf8');
}

/** Polls `url` until it answers 200; resolves with the milliseconds waited. Bounded by `timeoutMs`. */
export async function waitFor200(url, { timeoutMs = 15_000, intervalMs = 5 } = {}) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const status = await get(url, {}, 1000).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}
