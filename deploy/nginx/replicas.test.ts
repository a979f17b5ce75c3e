// deploy/nginx/replicas.sh, as nginx's container runs it at start-up: how nginx finds the replicas, and the
// replica settings' old names refused with a line naming the new ones (docs/scaling.md, "Settings").
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('replicas.sh', import.meta.url));
function replicasConf(env: Record<string, string>) {
  const { status, stdout, stderr } = spawnSync('bash', [SCRIPT], {
    env: { PATH: process.env.PATH ?? '', NGINX_RESOLVER: '127.0.0.11', ...env },
    encoding: 'utf8',
  });
  return { status, stdout, stderr };
}

describe('deploy/nginx/replicas.sh', () => {
  it('writes the resolver and the replicas APP_REPLICAS_ADDRESS names', () => {
    const { status, stdout } = replicasConf({ APP_REPLICAS_ADDRESS: 'replica:3000' });
    expect(status).toBe(0);
    expect(stdout).toContain('resolver 127.0.0.11 valid=1s ipv6=off;');
    expect(stdout).toContain('default "replica:3000";');
    expect(replicasConf({}).stdout).toContain('default "app:3000";');
  });

  it.each([
    [
      'APP_REPLICAS',
      'app:3000',
      'APP_REPLICAS is no longer read: set APP_REPLICAS_ADDRESS (the host:port that resolves to every replica) instead',
    ],
    [
      'APP_REPLICAS_COUNT',
      '5',
      'APP_REPLICAS_COUNT is no longer read: set APP_REPLICA_COUNT (how many app replicas the Swarm stack runs) instead',
    ],
  ])('refuses the old name %s with one line naming the new one', (name, value, line) => {
    const { status, stdout, stderr } = replicasConf({ [name]: value, APP_REPLICAS_ADDRESS: 'app:3000' });
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`${line}\n`);
  });

  it('takes an old name set empty as unset (the Swarm stack passes APP_REPLICAS_COUNT through, empty by default)', () => {
    expect(replicasConf({ APP_REPLICAS_COUNT: '', APP_REPLICAS: ' ' }).status).toBe(0);
  });

  it('refuses an APP_REPLICAS_ADDRESS that is not host:port, in one line', () => {
    const { status, stderr } = replicasConf({ APP_REPLICAS_ADDRESS: 'app:3000; evil' });
    expect(status).toBe(1);
    expect(stderr).toBe('APP_REPLICAS_ADDRESS: "app:3000; evil" is not host:port such as app:3000\n');
  });
});
