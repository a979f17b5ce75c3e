# The product catalogue: the Express server, its embedded catalogue and the built single-page app, in one image.
#
#   docker build -t product-catalogue .
#   docker run --rm -p 3000:3000 product-catalogue            # embedded catalogue, works offline
#   docker run --rm -p 3000:3000 -e PRODUCTS_API_URL=https://fakestoreapi.com product-catalogue
#
# Three stages: `build` compiles every workspace with all dev dependencies and `prod-deps` installs only what the
# server needs at run time, both on the official image of the Node the project pins (docs/decisions/node-runtime.md;
# `npm run lint` holds every FROM node:… to it); `runtime` is Debian's slim image (the one the Node image is made of)
# with that image's Node binary alone, those node_modules and the built output, and nothing else (no npm,
# corepack or yarn, which nothing runs in production; no TypeScript sources, no dev tools, no npm cache).

# ---- build: npm ci + build the three workspaces the image runs ---------------------------------------------------
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
# Manifests first, so that editing source code does not invalidate the (slow) npm ci layer. npm ci needs every
# workspace's manifest the lockfile names, the dev-only `testing` workspace included.
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY testing/package.json testing/
COPY server/package.json server/
COPY client/package.json client/
# npm ci installs the pinned Node's platform package too (an optional dependency, its integrity in the lockfile), and
# npm runs the build's scripts on it: the same version as this image's own node, which runs npm itself.
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY shared shared
COPY server server
COPY client client
# The client's build type-checks its tests too, and they use the test doubles: their sources must be here.
COPY testing testing
# Not `npm run build`: that would build the test doubles too, which the image never runs.
RUN npm run build --workspace shared --workspace server --workspace client

# ---- prod-deps: the server's production dependencies only -------------------------------------------------------
FROM node:24.21.0-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY testing/package.json testing/
COPY server/package.json server/
COPY client/package.json client/
# The server declares @catalogue/shared as a dependency, so selecting the server workspace links shared too; the
# root's optional dependencies (the pinned Node's platform packages) are not selected, so no second Node is copied.
# Optional dependencies stay included: sharp's native binary for this platform (@img/sharp-linux-x64) is one.
# npm nests a dependency under server/node_modules when the root holds another version of it (p-limit, say), so
# that folder is part of what the runtime needs; created empty when nothing is nested, for the COPY below.
# OpenTelemetry's packages (traces, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set) each ship three builds, source
# maps and type declarations; Node loads only the CommonJS build (build/src), so the rest goes: 42 MB → 12 MB.
RUN npm ci --omit=dev --workspace server --include-workspace-root=false --no-audit --no-fund \
 && node -e "require('/app/node_modules/sharp')" \
 && mkdir -p server/node_modules \
 && find node_modules server/node_modules -depth -type d \( -path '*/@opentelemetry/*/build/esm' -o -path '*/@opentelemetry/*/build/esnext' \) -exec rm -rf {} + \
 && find node_modules server/node_modules -path '*/@opentelemetry/*' -type f \( -name '*.map' -o -name '*.d.ts' \) -delete \
 && npm cache clean --force

# ---- runtime ------------------------------------------------------------------------------------------------------
FROM debian:bookworm-slim AS runtime
# tini as PID 1: it forwards SIGTERM to node and reaps zombies, so `docker stop` ends the server at once
# instead of waiting out the 10 s grace period (node as PID 1 ignores signals it has no handler for). The `node`
# user as the Node image makes it (uid and gid 1000), so volumes and manifests see the same owner.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# The Node image's binary (its libraries, libstdc++ and glibc, are Debian's own, in this image too).
COPY --from=prod-deps /usr/local/bin/node /usr/local/bin/node

ENV NODE_ENV=production
# Memory (docs/decisions/memory.md): glibc's malloc arenas capped at two (each thread that allocates, libuv's
# pool and libvips', would otherwise fragment an arena of its own: ~80 MB more at peak under photo load), and
# blocks of 128 KiB or more mapped on their own and given back when freed (glibc's moving threshold otherwise
# lets photos' buffers fragment the arenas: ~25 MB more); V8's young generation at 8 MB per semi-space (its
# default of 16 grows with the request rate: ~25 MB more under the API bench, for no CPU saved per answer) and
# each thread's old generation capped at 1 GiB (below 2 GiB, V8 lets it grow 1.6x its live size between full
# collections instead of 4x: ~70 MB less at the soak's peak; a 200,000-product list still fits). Keep both flags
# if you set NODE_OPTIONS yourself. The same values as scripts/runtime-settings.mjs, which npm start, the bench
# and the soak apply (deploy/runtime-settings.test.ts holds them equal).
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 NODE_OPTIONS="--max-semi-space-size=8 --max-old-space-size=1024"
WORKDIR /app
# Owned by root and not writable by the app user: the server never writes to its own files (only to its data volume).
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=prod-deps /app/server/node_modules ./server/node_modules
COPY package.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY --from=build /app/shared/dist shared/dist
COPY --from=build /app/server/dist server/dist
COPY server/embedded-catalogue server/embedded-catalogue
COPY --from=build /app/client/dist client/dist

# The catalogue's SQLite files and whole-list bodies (docs/operations.md, "The catalogue's files"): the one place the
# server writes, on disk. A volume, so a read-only root still lets it write and each container gets its own (an
# anonymous one unless the operator mounts another); created owned by `node`, which the volume takes on.
RUN mkdir -p /var/lib/catalogue && chown node:node /var/lib/catalogue
ENV CATALOGUE_DATA_DIR=/var/lib/catalogue
VOLUME ["/var/lib/catalogue"]

LABEL org.opencontainers.image.title="product-catalogue" \
      org.opencontainers.image.description="Product catalogue website and JSON product API (Node 24, Express)"

USER node
EXPOSE 3000
# Liveness via the server's own /healthz; node's fetch, so the image needs no curl. Follows PORT if it is set.
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# -s: also correct when something else is PID 1 (`docker run --init`, compose `init: true`): tini then registers
# as a subreaper instead of warning.
ENTRYPOINT ["/usr/bin/tini", "-s", "--"]
CMD ["node", "server/dist/index.js"]
