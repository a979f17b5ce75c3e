import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The `apiVersion` and `kind` pairs a Kubernetes version serves, read from the official JavaScript client generated
 * from that version's OpenAPI document: @kubernetes/client-node 1.3.0 is generated from Kubernetes 1.33 (pinned
 * exactly in package.json). Its API classes hold one `create…` method per kind a group version serves, each with the
 * path it posts to (`/apis/apps/v1/namespaces/{namespace}/deployments`); an API that version no longer serves
 * (`policy/v1beta1`, `autoscaling/v2beta2`) has no class, so a manifest using it is refused. Kubernetes' schemas
 * alone would not refuse it: kubernetes-models keeps removed versions' schemas. Alpha and beta versions are left
 * out too: since Kubernetes 1.24 a new beta API is off unless the cluster's operator turns it on.
 */
export const SERVED_BY = { client: '@kubernetes/client-node', clientVersion: '1.3.0', kubernetes: '1.33' } as const;

/** `create` or `createNamespaced`, the kind, then the first path the method posts to: `/api/v1/…` or `/apis/<group>/<version>/…`. */
const CREATE_METHOD =
  /async create(?:Namespaced)?([A-Z]\w*?)\((?:(?!async )[\s\S])*?const localVarPath = '\/(?:api|apis\/([\w.-]+))\/(v\d\w*)\//g;

const PRE_RELEASE = /^v\d+(alpha|beta)\d+$/;

export function servedApiKinds(): Set<string> {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve(`${SERVED_BY.client}/package.json`);
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  if (version !== SERVED_BY.clientVersion) {
    throw new Error(
      `${SERVED_BY.client} is ${version}, expected ${SERVED_BY.clientVersion} (Kubernetes ${SERVED_BY.kubernetes}): run npm ci`,
    );
  }
  const apis = join(dirname(packageJson), 'dist/gen/apis');
  const served = new Set<string>();
  for (const file of readdirSync(apis).filter((name) => name.endsWith('Api.js'))) {
    for (const [, kind, group, groupVersion] of readFileSync(join(apis, file), 'utf8').matchAll(CREATE_METHOD)) {
      if (!PRE_RELEASE.test(groupVersion!)) served.add(`${group === undefined ? groupVersion : `${group}/${groupVersion}`} ${kind}`);
    }
  }
  return served;
}
