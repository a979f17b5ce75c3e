// Prints the nginx map of the origins CORS_ORIGINS lists (docs/scaling.md), for nginx.conf's cache
// key: run when the container starts, with the replicas' CORS_ORIGINS, and by the tests and the bench.
//
//   CORS_ORIGINS=https://a.example,https://b.example node cors-origins.mjs >/etc/nginx/catalogue-cors-origins.conf
//
// A listed origin maps to itself, written as browsers send `Origin` and as the app compares it (lower-case host,
// no default port: `new URL(…).origin`, as the app's configuration does). Anything else, and every origin with
// `*` (unset or empty included), maps to "": the app answers those all alike.
const value = (process.env.CORS_ORIGINS ?? '').trim();
const listed = value === '' || value === '*' ? [] : value.split(',').map((entry) => entry.trim());

const origins = listed.map((entry) => {
  let origin;
  try {
    origin = new URL(entry).origin;
  } catch {
    origin = 'null';
  }
  // Only what an http(s) origin can hold reaches nginx's configuration: no quote, space or semicolon.
  if (!/^https?:\/\/[a-z0-9.:[\]-]+$/.test(origin)) {
    console.error(`CORS_ORIGINS: ${JSON.stringify(entry)} is not an http(s) origin such as https://app.example.com`);
    process.exit(1);
  }
  return origin;
});

const lines = [...new Set(origins)].map((origin) => `    "${origin}" "${origin}";\n`);
process.stdout.write(`map $http_origin $catalogue_origin {\n    default "";\n${lines.join('')}}\n`);
