import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../testing/test-site.js';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('security headers', () => {
  it.each(['/', '/api/products', '/api/products/1/image', '/api/nope', '/api/products/abc'])(
    'sends them on %s: a tight CSP, nosniff, no referrer, framing refused, Express hidden',
    async (path) => {
      site = await startTestSite();
      const response = await request(site.server).get(path);
      expect(response.headers['x-powered-by']).toBeUndefined();
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      const csp = String(response.headers['content-security-policy']);
      // The site is also served over plain HTTP (localhost, a LAN address).
      expect(csp).not.toContain('upgrade-insecure-requests');
      if (path.endsWith('/image')) {
        // An image opened on its own (an SVG can hold scripts) gets no sources at all.
        expect(csp).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
        return;
      }
      const directives = new Map(
        csp.split(';').map((directive) => {
          const [name = '', ...values] = directive.trim().split(/\s+/);
          return [name, values.join(' ')] as const;
        }),
      );
      expect(directives.get('default-src')).toBe("'self'");
      expect(directives.get('script-src')).toBe("'self'");
      expect(directives.get('img-src')).toBe("'self'");
      expect(directives.get('connect-src')).toBe("'self'");
      // styled-components writes <style> elements at run time: only 'unsafe-inline' lets them apply.
      expect(directives.get('style-src')).toBe("'self' 'unsafe-inline'");
      expect(directives.get('object-src')).toBe("'none'");
      expect(directives.get('frame-ancestors')).toBe("'none'");
    },
  );
});
