# API and webhook workers (one image, two commands). Build from the repository root:
#   docker build -f k8s/images/app.Dockerfile -t bioverify-app .
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm install --no-save tsx@4
COPY api ./api
COPY hosted ./hosted
COPY proto ./proto
COPY inference/src/client ./inference/src/client
COPY tsconfig.json ./
USER node
EXPOSE 8080
CMD ["node_modules/.bin/tsx", "api/src/entry-points/http/main.ts"]
