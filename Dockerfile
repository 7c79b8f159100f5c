# Builds with BuildKit (the RUN --mount lines below): Docker's default since 23.0, DOCKER_BUILDKIT=1
# on older engines. npm run test:image builds and runs it (docs/deploying.md, "Testing the image").
# The Node.js release CI tests on: keep it equal to .node-version (a unit test checks).
ARG NODE_VERSION=24.21.0
# Build stage: compile TypeScript with the full dependency tree.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm's own settings, when the build needs some (a registry mirror, a proxy, the CA of a proxy that
# inspects TLS), come in as build secrets, which no layer keeps (the same two mounts below):
#   docker build --secret id=npmrc,src=build.npmrc [--secret id=npm-ca,src=ca.pem] .
# where build.npmrc may say `cafile=/run/secrets/npm-ca`. Without them npm uses its defaults.
RUN --mount=type=secret,id=npmrc,target=/root/.npmrc --mount=type=secret,id=npm-ca \
    npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsconfig.extension-api.json nest-cli.json vite.config.ts ./
COPY scripts/pinned-node.sh scripts/generate-api-metadata.ts ./scripts/
COPY src ./src
COPY dashboard ./dashboard
RUN npm run build

# Runtime stage: production dependencies and compiled code only, as an unprivileged user.
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production
# The digest email's chart is drawn by resvg with the system's fonts: the slim image has none.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npmrc,target=/root/.npmrc --mount=type=secret,id=npm-ca \
    npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Extensions installed next to the service import `case-intake-service/extension-api` (docs/extending.md):
# the service itself under its package name, so they reach the one copy of the API it runs.
RUN ln -s /app node_modules/case-intake-service
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Apply migrations with: docker run --rm --env-file prod.env IMAGE node dist/shared/database/migrate.js
# Re-encrypt stored secrets after a key change (docs/deploying.md, "Rotating the encryption key"):
#   docker run --rm --env-file prod.env IMAGE node dist/rotate-encryption-key.js
# The same command as `npm run start:prod`: the old generation grows by half before the next full
# collection (V8 lets it reach several times the live heap) and the young one stays small, which
# keeps peak RSS under intake load near 220 MB; without allocation-site pretenuring, per-request
# objects are not allocated straight into the old generation under load, so full collections stay
# rare (docs/tail-latency.md, "Garbage collection and the node flags"); `--expose-gc` lets the API
# collect after every 1 MiB of large bodies, a fixed malloc mmap threshold hands their ~1 MB
# buffers back to the system when freed instead of keeping them in malloc's heap, and two malloc
# arenas keep V8's and libuv's threads from each growing one of their own (docs/tail-latency.md,
# "Large bodies and memory").
ENV MALLOC_ARENA_MAX=2
ENV MALLOC_MMAP_THRESHOLD_=131072
CMD ["node", "--heap-growing-percent=50", "--max-semi-space-size=8", "--no-allocation-site-pretenuring", "--expose-gc", "dist/main.js"]
