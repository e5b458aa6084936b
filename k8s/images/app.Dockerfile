# API and workers (one image; the worker's command is set in workers.yaml). Build from the repository root:
#   docker build -f k8s/images/app.Dockerfile -t bioverify-app .
# The build stage compiles to dist/ with the dev dependencies; the image runs plain node over dist/
# with production dependencies only (k8s/test/image-file-sets.test.ts assembles and starts it).
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY . .
RUN npm install --no-audit --no-fund && npm run build

FROM node:20-bookworm-slim
WORKDIR /app
# The API and workers never load onnxruntime (the inference image does): skip its provider download.
ENV NODE_ENV=production ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json ./
# `npm install`, not `npm ci`: see scripts/setup.sh (the lock cannot list every platform's optional packages).
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
# Only what the API and workers run: their code, the hosted flow, the generated proto types and the
# inference client (it imports nothing else of the inference service; inference/test/boundaries.test.ts).
COPY --from=build /app/dist/api ./dist/api
COPY --from=build /app/dist/hosted ./dist/hosted
COPY --from=build /app/dist/proto ./dist/proto
COPY --from=build /app/dist/inference/src/client ./dist/inference/src/client
USER node
EXPOSE 8080 8081
# The V8 flag: api/src/config/service-node-flags.ts (SERVICE_NODE_FLAGS) says why; workers.yaml passes it too.
CMD ["node", "--initial-old-space-size=128", "dist/api/src/entry-points/http/main.js"]
