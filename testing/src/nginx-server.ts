import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { findExecutable } from './find-executable.js';
import { freePort } from './free-port.js';

/** Debian's nginx running deploy/nginx/nginx.conf in front of loopback replicas, for tests and the scale bench. */
export interface NginxServer {
  /** `http://127.0.0.1:<port>`: where clients reach the site through nginx. */
  url: string;
  port: number;
  /** The master process's id (its workers are its children). */
  pid: number;
  /** Everything nginx wrote to its error log so far. */
  errorLog(): string;
  /** Stops it (SIGTERM: the master stops its workers and exits) and removes its folder; resolves once it is gone. */
  stop(): Promise<void>;
}

export interface NginxServerOptions {
  /**
   * How nginx finds the replicas. Loopback ports: an `upstream` block of them, named by $catalogue_replicas in place
   * of a DNS name. Or as in a container, through DNS (deploy/nginx/replicas.sh, as the container runs it): `name:port`
   * looked up on the DNS server `resolver` (`127.0.0.1:<port>`), since the host has no Docker DNS.
   */
  replicas: { ports: readonly number[] } | { name: string; resolver: string };
  /** CORS_ORIGINS as the replicas are given it: nginx's cache keys on the origins it lists (cors-origins.sh). */
  corsOrigins?: string;
  /** More configuration inside `http { … }` (e.g. a server block of the bench's own). */
  extraHttpConfig?: string;
}

export const NGINX_INSTALL_HINT = 'apt-get install -y nginx';

const DEPLOY = fileURLToPath(new URL('../../deploy/nginx/', import.meta.url));
/** The kinds of temporary file nginx keeps, each given a folder in the test's own. */
const TEMPORARY_FILE_KINDS = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];

/** Debian's `/usr/sbin/nginx` (or NGINX_PATH), or `undefined` when it is not installed. */
export function findNginx(): string | undefined {
  return findExecutable(process.env.NGINX_PATH ? [process.env.NGINX_PATH] : ['/usr/sbin/nginx', '/usr/bin/nginx']);
}

/**
 * Starts nginx with deploy/nginx/nginx.conf, changed only where a test must: its pid, cache, temporary files and
 * logs in a folder of its own, the replicas' loopback ports, a free listen port on 127.0.0.1, and its workers run
 * as the current user (started by root, nginx would otherwise run them as `www-data`, who cannot read that
 * folder). Resolves once it answers /nginx-health. Throws, naming the install command, when nginx is missing.
 */
export async function startNginxServer(options: NginxServerOptions): Promise<NginxServer> {
  const program = findNginx();
  if (program === undefined) throw new Error(`nginx is not installed (${NGINX_INSTALL_HINT})`);
  const work = mkdtempSync(join(tmpdir(), 'catalogue-nginx-'));
  const port = await freePort();
  const replicasPort = await freePort();
  writeFileSync(join(work, 'cors-origins.conf'), corsOriginsMap(options.corsOrigins ?? ''));
  writeFileSync(join(work, 'replicas.conf'), replicasConfig(options.replicas));
  const temporaryFiles = TEMPORARY_FILE_KINDS.map((kind) => `    ${kind}_temp_path ${join(work, 'temp', kind)};\n`).join('');
  const config = adapt(readFileSync(join(DEPLOY, 'nginx.conf'), 'utf8'), [
    [/^user .*$/m, process.getuid?.() === 0 ? 'user root;' : ''],
    [/^pid .*$/m, `pid ${join(work, 'nginx.pid')};`],
    [/^error_log .*$/m, `error_log ${join(work, 'error.log')} warn;`],
    [/access_log \/dev\/stdout/, `access_log ${join(work, 'access.log')}`],
    ['/etc/nginx/catalogue-replicas.conf', join(work, 'replicas.conf')],
    ['/etc/nginx/catalogue-cors-origins.conf', join(work, 'cors-origins.conf')],
    ['/var/cache/nginx/catalogue', join(work, 'cache')],
    [/listen 8080 default_server;/, `listen 127.0.0.1:${port} default_server;`],
    // The replicas' hop, nginx's own second server: a free port too, where the caching server reaches it.
    [/127\.0\.0\.1:8081/g, `127.0.0.1:${replicasPort}`],
    [/^http \{\n/m, `http {\n${temporaryFiles}${options.extraHttpConfig ?? ''}\n`],
  ]);
  writeFileSync(join(work, 'nginx.conf'), config);
  for (const kind of TEMPORARY_FILE_KINDS) mkdirSync(join(work, 'temp', kind), { recursive: true });

  const child = spawn(program, ['-p', `${work}/`, '-c', join(work, 'nginx.conf'), '-e', join(work, 'error.log'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const errorLog = () => {
    try {
      return readFileSync(join(work, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(work, { recursive: true, force: true });
  };

  try {
    await waitForHealth(port, () => child.exitCode !== null);
  } catch (error) {
    const log = `${stderr}${errorLog()}`.trim();
    await stop();
    throw new Error(`nginx did not start on port ${port}: ${String(error)} ${log}`.trim());
  }
  return { url: `http://127.0.0.1:${port}`, port, pid: child.pid!, errorLog, stop };
}

/** catalogue-replicas.conf: deploy/nginx/replicas.sh's for a DNS name, else an `upstream` block of loopback ports. */
function replicasConfig(replicas: NginxServerOptions['replicas']): string {
  if ('name' in replicas) return runDeployScript('replicas.sh', { APP_REPLICAS_ADDRESS: replicas.name, NGINX_RESOLVER: replicas.resolver });
  const servers = replicas.ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;\n`).join('');
  return `upstream catalogue_replicas {\n${servers}    keepalive 32;\n}\nmap "" $catalogue_replicas {\n    default catalogue_replicas;\n}\n`;
}

/** The map deploy/nginx/cors-origins.sh writes for this CORS_ORIGINS: the same script the container runs. */
function corsOriginsMap(corsOrigins: string): string {
  return runDeployScript('cors-origins.sh', { CORS_ORIGINS: corsOrigins });
}

/** What one of deploy/nginx/'s start-up scripts prints for these settings; its refusal, as an error. */
function runDeployScript(script: string, settings: Record<string, string>): string {
  const result = spawnSync('bash', [join(DEPLOY, script)], { env: { ...process.env, ...settings }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${script} refused ${JSON.stringify(settings)}: ${result.stderr}`);
  return result.stdout;
}

/** Each replacement must find its text: a change to nginx.conf that a test's copy would miss fails loudly. */
function adapt(config: string, replacements: readonly [string | RegExp, string][]): string {
  return replacements.reduce((text, [pattern, replacement]) => {
    const changed = text.replace(pattern, replacement);
    if (changed === text) throw new Error(`deploy/nginx/nginx.conf no longer has ${String(pattern)}`);
    return changed;
  }, config);
}

/** Bounded: 100 tries 50 ms apart (nginx starts in a few milliseconds). */
async function waitForHealth(port: number, hasExited: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (hasExited()) throw new Error('exited');
    if (await answersHealth(port)) return;
    await delay(50);
  }
  throw new Error('no answer on /nginx-health within 5 s');
}

function answersHealth(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/nginx-health', agent: false, timeout: 1_000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}
