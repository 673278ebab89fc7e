# zeph in a container: the compiled binary on a small Debian base, run as a non-root user with
# /work as the workspace. Build from a checkout: `docker build -t zeph .`; the release workflow
# builds and smoke-tests this image. See README "Containers" for `docker run` lines.

# Build: npm installs the pinned Deno, `deno task compile` embeds the program in one binary.
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN ./node_modules/deno/deno task compile && ./dist/zeph --version

# Run: glibc, bash and git for the shell tool, CA certificates for the model providers.
FROM debian:bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends bash ca-certificates git \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --create-home --uid 10001 --shell /bin/bash zeph \
  && mkdir /work && chown zeph:zeph /work
COPY --from=build /src/dist/zeph /usr/local/bin/zeph
USER zeph
WORKDIR /work
# No terminal in a container: plain output. The store lives in the user's home unless
# ZEPH_MEMORY_SQLITE_PATH says otherwise (with --read-only, point it into /work or a tmpfs).
ENV NO_COLOR=1
ENTRYPOINT ["zeph"]
CMD ["--help"]
