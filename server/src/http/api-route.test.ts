import { describe, expect, it } from 'vitest';
import { type ApiRoute, apiPattern, cacheableApiRoute, openApiPath, rawQueryOf } from './api-route.js';

describe('rawQueryOf', () => {
  it.each([
    ['/api/products', ''],
    ['/api/products?', ''],
    ['/api/products?limit=3', 'limit=3'],
    ['/api/products?a=1?b=2', 'a=1?b=2'],
  ])('%j → %j', (url, query) => {
    expect(rawQueryOf(url)).toBe(query);
  });
});

describe('one declaration, three names', () => {
  const item: ApiRoute<{ name: string; query: string }> = {
    path: '/things/:name/part',
    readsQuery: true,
    read: ({ params, query }) => (params.name === 'bad' ? { error: 'bad name' } : { name: params.name ?? '', query }),
  };
  const plain: ApiRoute<string> = { path: '/things.json', readsQuery: false, read: () => 'all' };
  const match = (route: ApiRoute<unknown>, url: string) => cacheableApiRoute(route, () => undefined).match(url);

  it('names the route for Express, the metrics and the OpenAPI document from its one path', () => {
    expect(apiPattern(item)).toBe('/api/things/:name/part');
    expect(openApiPath(item)).toBe('/things/{name}/part');
    expect(cacheableApiRoute(item, () => undefined).pattern).toBe('/api/things/:name/part');
  });

  it('matches the exact path, decodes its parameters as Express does, and hands over what the route read', () => {
    expect(match(item, '/api/things/a%20b/part?x=1')).toEqual({ name: 'a b', query: 'x=1' });
    expect(match(item, '/api/things/a/part')).toEqual({ name: 'a', query: '' });
    expect(match(plain, '/api/things.json')).toBe('all');
  });

  it.each([
    [item, '/api/things/bad/part'],
    [item, '/api/things/%E0%A4%A/part'],
    [item, '/api/things/a/b/part'],
    [item, '/api/things//part'],
    [item, '/api/things/a/part/'],
    [item, '/API/things/a/part'],
    [plain, '/api/things.json?x=1'],
    [plain, '/api/thingsxjson'],
  ])('leaves %j to Express', (route, url) => {
    expect(match(route, url)).toBeUndefined();
  });
});
