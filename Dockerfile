# syntax=docker/dockerfile:1
#
# Cairn serving one Strapi 5 project. The project is copied into the image: examples/blog by
# default, or your project folder, named at build time:
#
#   docker build --build-context project=/path/to/my-strapi-project -t my-cms .
#   docker run -d -p 1337:1337 --env-file my-cms.env \
#     -v my-cms-db:/srv/project/.tmp -v my-cms-uploads:/srv/project/public/uploads my-cms
#
# Only the project's config/ and src/ are copied (no node_modules, .env or database). The SQLite
# database (.tmp/) and the media library (public/uploads/) live on volumes. Secrets (APP_KEYS,
# API_TOKEN_SALT, ADMIN_JWT_SECRET, JWT_SECRET, ENCRYPTION_KEY) come from the environment: a
# container's .env does not outlive it. README, "Production", has the details.

ARG NODE_VERSION=22

# The project to serve; `--build-context project=<folder>` replaces this stage.
FROM scratch AS project
COPY examples/blog/ /

# Build with the dev dependencies, then keep the production ones only. `npm ci` compiles and
# bundles dist/ (the `prepare` script); `npm prune --omit=dev` then removes TypeScript, esbuild
# and vitest, keeping dist/ and the native modules already built. The compilers let better-sqlite3 build from source
# when no prebuilt binary fits.
FROM node:${NODE_VERSION}-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/cairn
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY bin ./bin
COPY src ./src
RUN npm ci && npm prune --omit=dev

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=1337
WORKDIR /opt/cairn
COPY --from=build /opt/cairn/package.json ./
COPY --from=build /opt/cairn/node_modules ./node_modules
COPY --from=build /opt/cairn/dist ./dist
COPY --from=build /opt/cairn/bin ./bin
COPY --from=project --chown=node:node /config /srv/project/config
COPY --from=project --chown=node:node /src /srv/project/src
# The volumes start as these folders, owned by the unprivileged user the server runs as.
RUN mkdir -p /srv/project/.tmp /srv/project/public/uploads && chown -R node:node /srv/project
USER node
VOLUME ["/srv/project/.tmp", "/srv/project/public/uploads"]
EXPOSE 1337
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 1337) + '/_health').then((r) => process.exit(r.status === 204 ? 0 : 1), () => process.exit(1))"
CMD ["node", "/opt/cairn/bin/cairn.js", "start", "--dir", "/srv/project"]
