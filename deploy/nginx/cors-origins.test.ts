// deploy/nginx/cors-origins.sh, as nginx's container runs it at start-up: the origins CORS_ORIGINS lists, each
// written as the app writes it (`new URL(…).origin`, config.ts), so that nginx's cache key and the app's answer
// agree on which origin is which (docs/scaling.md, "What each layer absorbs").
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('cors-origins.sh', import.meta.url));
function corsOriginsMap(value: string) {
  const { status, stdout, stderr } = spawnSync('bash', [SCRIPT], {
    env: { PATH: process.env.PATH ?? '', CORS_ORIGINS: value },
    encoding: 'utf8',
  });
  return { status, stdout, stderr };
}

describe('deploy/nginx/cors-origins.sh', () => {
  it('maps every listed origin to itself, written as the app writes it', () => {
    const entries = [
      'https://app.example.com',
      'HTTPS://Shop.Example.COM:443/',
      'http://localhost:5173',
      'http://b.example:80',
      'https://c.example:0443',
      'http://[::1]:8080',
      'https://user:secret@d.example:8443',
    ];
    const { status, stdout } = corsOriginsMap(entries.join(' , '));
    expect(status).toBe(0);
    const origins = [...new Set(entries.map((entry) => new URL(entry).origin))];
    expect(stdout).toBe(`map $http_origin $catalogue_origin {\n    default "";\n${origins.map((o) => `    "${o}" "${o}";\n`).join('')}}\n`);
  });

  it('maps nothing with `*`, unset or empty', () => {
    for (const value of ['*', '', '  '])
      expect(corsOriginsMap(value).stdout).toBe('map $http_origin $catalogue_origin {\n    default "";\n}\n');
  });

  it.each(['ftp://files.example', 'app.example.com', 'https://a b.example', 'https://a";evil.example', 'https://a.example,'])(
    'refuses %j in one line, writing nothing',
    (value) => {
      const { status, stdout, stderr } = corsOriginsMap(value);
      expect(status).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^CORS_ORIGINS: ".*" is not an http\(s\) origin such as https:\/\/app\.example\.com\n$/);
    },
  );
});
