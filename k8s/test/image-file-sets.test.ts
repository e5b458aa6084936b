/**
 * Each image, assembled without Docker: exactly the paths its Dockerfile's final stage copies go
 * into a temporary folder (outside the repository, so nothing else can be found), production
 * dependencies are installed there as the Dockerfile does, and every entry point the manifests run
 * from that image starts against the suite's FerretDB and Redis until its readiness check passes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInferenceClient } from '../../inference/src/client/inference-client';
import { build } from '../../scripts/build/build';
import { ManagedProcess, startProcess, waitFor } from '../../scripts/stack/child-process';
import { freePort } from '../../scripts/stack/free-port';
import { isolatedTestEnv } from '../../scripts/test-support/test-env';
import { assembleFinalStage } from './support/assemble-image';
import { Dockerfile, readDockerfile } from './support/dockerfile';
import { containersOf, deployments, readManifests } from './support/manifests';
import { anyOf, objectContaining } from '../../scripts/test-support/typed-matchers';

const REPO = path.resolve(__dirname, '../..');
const IMAGES = path.join(REPO, 'k8s/images');

const work = mkdtempSync(path.join(os.tmpdir(), 'bv-images-'));
const dockerfiles = readdirSync(IMAGES)
  .filter((f) => f.endsWith('.Dockerfile'))
  .map((f) => readDockerfile(path.join(IMAGES, f)));
const imageDir = (dockerfile: Dockerfile) => path.join(work, path.basename(dockerfile.file, '.Dockerfile'));
const byImage = (image: string) => {
  const dockerfile = dockerfiles.find((d) => d.tag.split(':')[0] === image.split(':')[0]);
  if (!dockerfile) throw new Error(`no Dockerfile in k8s/images builds ${image}`);
  return dockerfile;
};
/** What a manifest's container runs: its command, or its image's CMD. */
const commandOf = (container: string) => {
  const found = deployments(readManifests())
    .flatMap(containersOf)
    .find((c) => c.name === container);
  if (!found) throw new Error(`no container "${container}" in k8s/`);
  const dockerfile = byImage(found.image);
  return { dockerfile, argv: [...(found.command ?? dockerfile.final.cmd ?? []), ...(found.args ?? [])] };
};

const running: ManagedProcess[] = [];
const testEnv = isolatedTestEnv();

/** Starts `argv` in the assembled image folder with only the image's ENV, the test stack and `env`. */
function startInImage(
  name: string,
  argv: string[],
  dockerfile: Dockerfile,
  env: Record<string, string>,
): ManagedProcess {
  expect(argv[0]).toBe('node');
  const logFile = path.join(work, `${name}.log`);
  const child = startProcess(name, process.execPath, argv.slice(1), {
    cwd: imageDir(dockerfile),
    env: { PATH: process.env.PATH, HOME: os.tmpdir(), ...dockerfile.final.env, ...testEnv, ...env },
    logFile,
  });
  running.push(child);
  return child;
}

const logOf = (name: string) =>
  existsSync(path.join(work, `${name}.log`)) ? readFileSync(path.join(work, `${name}.log`), 'utf8').slice(-3000) : '';

function httpStatus(port: number, urlPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: urlPath, timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

async function waitUntilReady(
  name: string,
  child: ManagedProcess,
  probe: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  await waitFor(name, probe, timeoutMs, child.child).catch((error: Error) => {
    throw new Error(`${error.message}\n--- ${name} log ---\n${logOf(name)}`);
  });
}

beforeAll(() => {
  build(path.join(work, 'build/dist'));
  let installed: string | undefined;
  for (const dockerfile of dockerfiles) {
    const dir = imageDir(dockerfile);
    assembleFinalStage(dockerfile, { context: REPO, buildOutput: path.join(work, 'build/dist') }, dir);
    const install = dockerfile.final.runs.find((run) => /\bnpm (install|ci)\b/.test(run));
    expect(install).toContain('--omit=dev');
    const manifest =
      readFileSync(path.join(dir, 'package.json'), 'utf8') + readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
    if (
      installed &&
      manifest ===
        readFileSync(path.join(installed, 'package.json'), 'utf8') +
          readFileSync(path.join(installed, 'package-lock.json'), 'utf8')
    ) {
      // Same dependency set: one install serves both folders (the CUDA provider is the GPU build's own step).
      symlinkSync(path.join(installed, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      continue;
    }
    execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: dir,
      env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
      stdio: 'inherit',
    });
    installed = dir;
  }
}, 900_000);

afterAll(async () => {
  await Promise.all(running.map((child) => child.stop(10_000)));
  rmSync(work, { recursive: true, force: true });
});

describe('the images, assembled from what their Dockerfiles copy', () => {
  let inferenceUrl: string;

  it('hold production dependencies only: no tsx, no TypeScript, no test tools', () => {
    for (const dockerfile of dockerfiles) {
      const present = ['tsx', 'typescript', 'jest'].filter((devOnly) =>
        existsSync(path.join(imageDir(dockerfile), 'node_modules', devOnly)),
      );
      expect({ image: dockerfile.tag, present }).toEqual({ image: dockerfile.tag, present: [] });
    }
  });

  it('give the app image the inference client and nothing else of the inference service', () => {
    const inference = path.join(imageDir(byImage('bioverify-app')), 'dist/inference/src');
    expect(readdirSync(inference)).toEqual(['client']);
    expect(existsSync(path.join(imageDir(byImage('bioverify-inference')), 'dist/api'))).toBe(false);
  });

  it('start the inference service on CPU until gRPC health says SERVING, every model warmed up', async () => {
    const { dockerfile, argv } = commandOf('inference');
    const [port, metricsPort] = [await freePort(), await freePort()];
    const child = startInImage('inference', argv, dockerfile, {
      INFERENCE_HOST: '127.0.0.1',
      INFERENCE_PORT: String(port),
      INFERENCE_METRICS_PORT: String(metricsPort),
    });
    const client = createInferenceClient({ address: `127.0.0.1:${port}` });
    try {
      await waitUntilReady('inference', child, async () => (await client.health('', 2_000)) === 'SERVING', 300_000);
    } finally {
      client.close();
    }
    inferenceUrl = `127.0.0.1:${port}`;
    expect(await httpStatus(metricsPort, '/metrics')).toBe(200);
  }, 320_000);

  it('start the API until /readyz answers 200 with its store, queue and inference reachable', async () => {
    expect(inferenceUrl).toBeDefined(); // the inference test above started it
    const { dockerfile, argv } = commandOf('api');
    const port = await freePort();
    const child = startInImage('api', argv, dockerfile, { PORT: String(port), INFERENCE_URL: inferenceUrl });
    await waitUntilReady('api', child, async () => (await httpStatus(port, '/readyz')) === 200, 120_000);
    expect(await httpStatus(port, '/metrics')).toBe(200);
    expect(await httpStatus(port, '/widget.js')).toBe(200);
  }, 130_000);

  it('start the worker with the command workers.yaml gives it until its /readyz answers 200', async () => {
    expect(inferenceUrl).toBeDefined();
    const { dockerfile, argv } = commandOf('worker');
    const port = await freePort();
    const child = startInImage('worker', argv, dockerfile, {
      WORKER_HEALTH_PORT: String(port),
      INFERENCE_URL: inferenceUrl,
    });
    await waitUntilReady('worker', child, async () => (await httpStatus(port, '/readyz')) === 200, 120_000);
    expect(await httpStatus(port, '/metrics')).toBe(200);
  }, 130_000);

  it('run the admin CLI from the app image, creating an account in the store', () => {
    const dockerfile = byImage('bioverify-app');
    const output = execFileSync(
      process.execPath,
      ['dist/api/src/entry-points/cli/admin.js', 'accounts', 'create', '--name', 'Image Test Ltd'],
      {
        cwd: imageDir(dockerfile),
        env: { PATH: process.env.PATH, ...dockerfile.final.env, ...testEnv },
        encoding: 'utf8',
      },
    );
    expect(JSON.parse(output)).toEqual(objectContaining({ account_id: anyOf(String) }));
  }, 60_000);
});
