import { readdirSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { Server } from 'node:http';
import express from 'express';
import { z } from 'zod';
import { envSchema } from '../../api/src/config/env';
import { SERVICE_NODE_FLAGS } from '../../api/src/config/service-node-flags';
import { FRONT_NODE_FLAGS } from '../../inference/src/config/front-node-flags';
import { healthRouter } from '../../api/src/entry-points/http/routes/health.routes';
import { startHealthServer } from '../../api/src/entry-points/worker/health-server';
import { QUEUES } from '../../api/src/jobs/job-names';
import { serviceEnvSchema } from '../../inference/src/config/service-env';
import { readDockerfile } from './support/dockerfile';
import {
  Container,
  containersOf,
  deployments,
  K8S_DIR,
  K8sObject,
  LabelSelector,
  podTemplateOf,
  Probe,
  readManifests,
} from './support/manifests';
import { arrayContaining } from '../../scripts/test-support/typed-matchers';

type Schema = z.ZodObject<z.ZodRawShape>;

/** Which config schema a container's process reads, from the file its command runs. */
const PROCESSES: Array<{ entry: RegExp; schema: Schema; ports: Record<string, string> }> = [
  { entry: /api\/src\/entry-points\/http\/main\.js$/, schema: envSchema, ports: { http: 'PORT' } },
  {
    entry: /api\/src\/entry-points\/worker\/main\.js$/,
    schema: envSchema,
    ports: { http: 'WORKER_HEALTH_PORT' },
  },
  {
    entry: /inference\/src\/main\.js$/,
    schema: serviceEnvSchema,
    ports: { grpc: 'INFERENCE_PORT', metrics: 'INFERENCE_METRICS_PORT' },
  },
];

const objects = readManifests();
/** What a container without a command runs: its image's CMD, read from the Dockerfile that builds the image. */
const IMAGE_CMD: Record<string, string[]> = Object.fromEntries(
  readdirSync(path.join(K8S_DIR, 'images'))
    .filter((file) => file.endsWith('.Dockerfile'))
    .map((file) => readDockerfile(path.join(K8S_DIR, 'images', file)))
    .map((dockerfile) => [dockerfile.tag.split(':')[0], dockerfile.final.cmd ?? []]),
);

interface Running {
  deployment: K8sObject;
  container: Container;
  process: (typeof PROCESSES)[number];
  /** Every variable the container gets (literal values; secret references as "<secret>"). */
  env: Record<string, string>;
}

function environmentOf(deployment: K8sObject, container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.secretRef)
      throw new Error(
        `${deployment.metadata.name}/${container.name}: envFrom a Secret hides which variables it sets; use secretKeyRef per variable`,
      );
    const configMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === source.configMapRef?.name);
    if (!configMap)
      throw new Error(
        `${deployment.metadata.name}/${container.name}: ConfigMap ${source.configMapRef?.name} is not in k8s/`,
      );
    Object.assign(env, configMap.data);
  }
  for (const variable of container.env ?? []) env[variable.name] = variable.value ?? '<secret>';
  return env;
}

const running: Running[] = deployments(objects).flatMap((deployment) =>
  containersOf(deployment).map((container) => {
    const argv = container.command ?? IMAGE_CMD[container.image.split(':')[0]] ?? [];
    const process = PROCESSES.find((p) => argv.some((arg) => p.entry.test(arg)));
    if (!process)
      throw new Error(`${deployment.metadata.name}/${container.name}: runs ${argv.join(' ')}, no known entry point`);
    return { deployment, container, process, env: environmentOf(deployment, container) };
  }),
);
const named = (name: string) => running.find((r) => r.container.name === name)!;
const valueOf = (r: Running, key: string) => (r.process.schema.shape[key] as z.ZodType).parse(r.env[key]) as number;
const portNumber = (r: Running, port: number | string) =>
  typeof port === 'number' ? port : r.container.ports?.find((p) => p.name === port)?.containerPort;
const probesOf = (c: Container) =>
  [c.readinessProbe, c.livenessProbe, c.startupProbe].filter((p): p is Probe => p !== undefined);

async function statusOf(server: Server, path: string): Promise<number> {
  const { port } = server.address() as AddressInfo;
  return (await fetch(`http://127.0.0.1:${port}${path}`)).status;
}

describe('the Kubernetes manifests', () => {
  it('run the API, the worker and the inference service', () => {
    expect(running.map((r) => r.container.name).sort()).toEqual(['api', 'inference', 'worker']);
  });

  it('start each process with the V8 flags its other starts use (npm start, the tests, the benchmarks)', () => {
    const argvOf = (name: string) =>
      named(name).container.command ?? IMAGE_CMD[named(name).container.image.split(':')[0]];
    expect(argvOf('api')).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/api/src/entry-points/http/main.js']);
    expect(argvOf('worker')).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/api/src/entry-points/worker/main.js']);
    expect(argvOf('inference')).toEqual(['node', ...FRONT_NODE_FLAGS, 'dist/inference/src/main.js']);
  });

  it('set only variables the process config schema knows', () => {
    for (const r of running) {
      const unknown = Object.keys(r.env).filter((key) => !(key in r.process.schema.shape));
      expect({ container: r.container.name, unknown }).toEqual({ container: r.container.name, unknown: [] });
    }
  });

  it('set every variable the schema requires, secrets by reference', () => {
    for (const r of running) {
      const required = Object.entries(r.process.schema.shape)
        .filter(([, schema]) => !(schema as z.ZodType).safeParse(undefined).success)
        .map(([key]) => key);
      expect({ container: r.container.name, missing: required.filter((key) => !(key in r.env)) }).toEqual({
        container: r.container.name,
        missing: [],
      });
    }
  });

  it('give literal values the schema accepts', () => {
    for (const r of running) {
      for (const [key, value] of Object.entries(r.env).filter(([, v]) => v !== '<secret>')) {
        const parsed = (r.process.schema.shape[key] as z.ZodType | undefined)?.safeParse(value);
        expect({ container: r.container.name, key, ok: parsed?.success }).toEqual({
          container: r.container.name,
          key,
          ok: true,
        });
      }
    }
  });

  it('probe the ports the processes listen on', () => {
    for (const r of running) {
      for (const probe of probesOf(r.container)) {
        const kind = probe.grpc ? 'grpc' : 'http';
        const port = portNumber(r, probe.grpc?.port ?? probe.httpGet!.port);
        expect({ container: r.container.name, kind, port }).toEqual({
          container: r.container.name,
          kind,
          port: valueOf(r, r.process.ports[kind]),
        });
      }
      const scrapePort = podTemplateOf(r.deployment).metadata.annotations?.['prometheus.io/port'];
      const metricsKey = r.process.ports.metrics ?? r.process.ports.http;
      expect({ container: r.container.name, scrapePort: Number(scrapePort) }).toEqual({
        container: r.container.name,
        scrapePort: valueOf(r, metricsKey),
      });
    }
  });

  it('probe paths the API health router and the worker health server answer', async () => {
    const app = express().use(healthRouter({ readiness: [] }, () => false));
    const api = await new Promise<Server>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server));
    });
    const worker = await startHealthServer(0, [], () => true);
    try {
      for (const r of running) {
        for (const probe of probesOf(r.container).filter((p) => p.httpGet)) {
          const server = r.container.name === 'api' ? api : worker.server;
          expect({
            container: r.container.name,
            path: probe.httpGet!.path,
            status: await statusOf(server, probe.httpGet!.path),
          }).toEqual({ container: r.container.name, path: probe.httpGet!.path, status: 200 });
        }
      }
    } finally {
      api.close();
      worker.server.close();
    }
  });

  it('request CPU and memory for every container', () => {
    for (const r of running)
      expect({
        container: r.container.name,
        requests: Object.keys(r.container.resources?.requests ?? {}),
      }).toEqual({ container: r.container.name, requests: arrayContaining(['cpu', 'memory']) });
  });

  it('keep a disruption budget and spread replicas for the API and inference', () => {
    for (const name of ['api', 'inference']) {
      const { deployment } = named(name);
      const template = podTemplateOf(deployment);
      const labels = template.metadata.labels ?? {};
      const selects = (selector: LabelSelector | undefined) =>
        selector !== undefined && Object.entries(selector.matchLabels).every(([k, v]) => labels[k] === v);
      expect(objects.some((o) => o.kind === 'PodDisruptionBudget' && selects(o.spec?.selector))).toBe(true);
      const spread = template.spec.topologySpreadConstraints;
      expect(spread?.map((s) => s.topologyKey)).toEqual(arrayContaining(['kubernetes.io/hostname']));
      expect(spread?.every((s) => selects(s.labelSelector))).toBe(true);
    }
  });

  it('give the worker longer to stop than its drain deadline (a webhook timeout plus the shutdown grace)', () => {
    const worker = named('worker');
    const drainSeconds = valueOf(worker, 'WEBHOOK_TIMEOUT_SECONDS') + valueOf(worker, 'SHUTDOWN_GRACE_MS') / 1000;
    expect(podTemplateOf(worker.deployment).spec.terminationGracePeriodSeconds).toBeGreaterThan(drainSeconds);
  });

  it('scale the worker on the wait list of the webhook queue under the configured Redis prefix', () => {
    const worker = named('worker');
    const scaled = objects.find(
      (o) => o.kind === 'ScaledObject' && o.spec?.scaleTargetRef?.name === worker.deployment.metadata.name,
    );
    const prefix = envSchema.shape.REDIS_PREFIX.parse(worker.env.REDIS_PREFIX);
    expect(scaled?.spec?.triggers?.[0].metadata.listName).toBe(`${prefix}:${QUEUES.webhooks}:wait`);
  });
});
