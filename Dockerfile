# syntax=docker/dockerfile:1
#
# Cairn serving one Strapi 5 project. The project is copied into the image: examples/blog by
# default, or your project folder, named at build time:
#
#   docker build --build-context project=/path/to/my-strapi-project -t my-cms .
#   docker run -d -p 1337:1337 --env-file my-cms.env \
#     -v my-cms-db:/srv/project/.tmp -v my-cms-uploads:/srv/project/public/uploads my-cms
#
# Only the files of the project the server reads are copied (PROJECT_FILES: no node_modules, .env,
# database or uploads). The SQLite database (.tmp/) and the media library (public/uploads/) live
# on volumes. Secrets (APP_KEYS, API_TOKEN_SALT, ADMIN_JWT_SECRET, JWT_SECRET, ENCRYPTION_KEY)
# come from the environment: a container's .env does not outlive it. README, "Production", has
# the details; test/create-strapi-app-projects.test.ts builds this layout and runs its CMD.

ARG NODE_VERSION=22
# What the server reads of a project, those present copied: its config and code, package.json
# (the plugins it enables), tsconfig.json (a TypeScript project's config runs as from its outDir),
# the favicon, and the admin panel `strapi build` wrote (build/, or dist/build/ for TypeScript).
ARG PROJECT_FILES="config src package.json tsconfig.json jsconfig.json favicon.png favicon.ico build dist/build"

# The project to serve; `--build-context project=<folder>` replaces this stage.
FROM scratch AS project
COPY examples/blog/ /

# The PROJECT_FILES the project has, into /out (the image gets those and nothing else of it).
FROM node:${NODE_VERSION}-bookworm-slim AS project-files
ARG PROJECT_FILES
COPY --from=project / /in
RUN mkdir /out && cd /in && for path in ${PROJECT_FILES}; do \
      if [ -e "$path" ]; then mkdir -p "/out/$(dirname "$path")" && cp -R "$path" "/out/$path"; fi; \
    done

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
COPY --from=project-files --chown=node:node /out/ /srv/project/
# The volumes start as these folders, owned by the unprivileged user the server runs as.
RUN mkdir -p /srv/project/.tmp /srv/project/public/uploads && chown -R node:node /srv/project
USER node
VOLUME ["/srv/project/.tmp", "/srv/project/public/uploads"]
EXPOSE 1337
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 1337) + '/_health').then((r) => process.exit(r.status === 204 ? 0 : 1), () => process.exit(1))"
CMD ["node", "/opt/cairn/bin/cairn.js", "start", "--dir", "/srv/project"]
