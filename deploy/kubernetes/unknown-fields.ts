/**
 * Runs a schema check (kubernetes-models' compiled validators, which throw on an invalid object) over `object`, and
 * also reports the fields the schema does not know: Kubernetes' schemas allow any extra field, so `replics: 3` would pass them, and the API server
 * would drop it in silence. Strict, as `kubeconform -strict` is: the validator reads every field its schema
 * names, so a field it never read is unknown, unless it listed the object's keys (a map such as `labels` or a
 * ConfigMap's `data`, whose keys are free).
 */
export function checkStrictly(object: object, check: (data: object) => void): { error: string | undefined; unknown: string[] } {
  const seen = new Map<object, { read: Set<PropertyKey>; listed: boolean }>();

  function watch<T>(value: T): T {
    if (value === null || typeof value !== 'object') return value;
    const target = value as object;
    const record = { read: new Set<PropertyKey>(), listed: false };
    seen.set(target, record);
    const children = new Map<PropertyKey, unknown>();
    return new Proxy(target, {
      get(inner, key, receiver) {
        record.read.add(key);
        const child: unknown = Reflect.get(inner, key, receiver);
        if (child === null || typeof child !== 'object') return child;
        if (!children.has(key)) children.set(key, watch(child));
        return children.get(key);
      },
      has(inner, key) {
        record.read.add(key);
        return Reflect.has(inner, key);
      },
      ownKeys(inner) {
        record.listed = true;
        return Reflect.ownKeys(inner);
      },
    }) as T;
  }

  let error: string | undefined;
  try {
    check(watch(object));
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message : String(thrown);
  }
  const unknown: string[] = [];
  (function walk(value: unknown, path: string) {
    if (value === null || typeof value !== 'object') return;
    const record = seen.get(value);
    // Never looked into: its parent's field is already reported, or the schema takes anything there.
    if (record === undefined) return;
    for (const [key, child] of Object.entries(value)) {
      const childPath = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
      if (!Array.isArray(value) && !record.listed && !record.read.has(key)) unknown.push(childPath.slice(1));
      else walk(child, childPath);
    }
  })(object, '');
  return { error, unknown };
}
