# Small image for the OpenClaw gateway: build in one stage, run as a non-root user in another.
# State (config, token, sessions, logs) lives in the /data volume.
# test/e2e/dockerfile-build.test.ts runs this file's build steps on exactly the files it copies.
FROM node:24-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# better-sqlite3 is the one native addon: its install script fetches a prebuilt binary or compiles
# it (the full bookworm image has python3, make and g++ for that).
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3
COPY tsconfig.json rolldown.config.mjs ./
COPY build ./build
COPY src ./src
COPY extensions ./extensions
COPY ui ./ui
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:24-bookworm-slim
# MALLOC_ARENA_MAX: see docs/architecture.md, "Memory over weeks".
ENV NODE_ENV=production \
    OPENCLAW_STATE_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/bin ./dist/bin
COPY --from=build /app/dist/control-ui ./dist/control-ui
COPY skills ./skills
COPY hooks ./hooks
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 18789
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:18789/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Inside a container the gateway must listen beyond loopback to be reachable; it still refuses to
# do so without auth (a token is generated into /data/credentials on first start).
# --heap-growing-percent=30 --max-semi-space-size=2 --v8-pool-size=1: the daemon's node flags (src/infra/daemon-node-flags.ts), read at start.
CMD ["node", "--heap-growing-percent=30", "--max-semi-space-size=2", "--v8-pool-size=1", "dist/bin/openclaw.cjs", "gateway", "run", "--bind", "lan"]
