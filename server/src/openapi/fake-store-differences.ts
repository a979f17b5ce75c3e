import { API_ALLOW } from '../http/cors.js';
import { MAX_LIST_LIMIT } from '../products/list-options.js';
import { MAX_API_URL_LENGTH } from '../http/uri-too-long.js';

/**
 * Where this API differs from the Fake Store's, on purpose: the one list, in Markdown, that the OpenAPI
 * document's description carries (`/api/openapi.json`, shown at `/api/docs`) and docs/api.md points at.
 */
export const FAKE_STORE_DIFFERENCES = `Where the two differ, on purpose:

- **An unknown product id is \`404 {"error":"Product not found"}\`**, not \`200\` with \`null\` or an empty body.
- **An id that is not digits is \`400 {"error":"Invalid Product ID"}\`** at once, without asking the upstream (the Fake Store leaves such a request hanging).
- **A bad \`limit\` or \`sort\` is \`400\`**, naming the parameter: a \`limit\` that is not a whole number from 1 to ${MAX_LIST_LIMIT}, a \`sort\` other than \`asc\`/\`desc\`, an empty or repeated one (the Fake Store ignores a bad or \`0\` limit and sorts ascending for any \`sort\` but \`desc\`). Unknown parameters are ignored, as there.
- **Without \`sort\` the list is in the upstream's order** (the Fake Store always orders by id; its own data is in id order, so the two agree there).
- **\`/products/categories\` lists names in the order the catalogue first uses them**; the Fake Store's are in its database's order (alphabetical for its four).
- **\`/products/category\` without a name is \`400\`**.
- **Read-only**: \`POST\`, \`PUT\`, \`PATCH\` and \`DELETE\` are \`405\` with \`Allow: ${API_ALLOW}\` (the Fake Store answers them with a made-up success and changes nothing), and there are no \`/users\`, \`/carts\` or \`/auth\` (\`404\`).
- **\`image\` is rewritten** to \`/api/products/{id}/image\` on this origin, which fetches the upstream's image (never a URL a client gives) and resizes it with \`?w=\`.
- **\`rating\` is passed on as the upstream sends it**, so it may be missing; a product of the wrong shape is dropped from lists, and unknown fields are dropped.
- **Upstream failures are \`502\`, timeouts \`504\`**, each a JSON error, unless a copy is cached; answers may be up to \`CACHE_TTL_SECONDS\` behind the upstream (longer while it fails).
- **What a proxy adds**: \`ETag\`/\`304\`, gzip and brotli, \`Cache-Control\`, \`Age\`, \`X-Cache\`, a rate limit (\`RATE_LIMIT_PER_MINUTE\` per client address per minute, \`429\` with \`Retry-After\`), \`414\` for URLs over ${MAX_API_URL_LENGTH.toLocaleString('en')} characters, and CORS as above.
`;
