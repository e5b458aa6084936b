/**
 * The contract vectors every client runs (sdk/contract-vectors: capture sequences, error mapping,
 * multipart framing), replayed against the real stack (FerretDB, Redis, the inference service on
 * the real models, the API and a worker). When the server's answers drift from the vectors this
 * fails, and so do the SDKs' tests that run the same files. A vector runs when every route it calls
 * is in the OpenAPI document; a pending one whose route is not there yet is named in the output and
 * must be listed in the README; a ready one whose route is missing fails.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ClientRequest, request } from 'node:http';
import path from 'node:path';
import { ERROR_CODES } from '../../src/shared/app-error';
import { ERROR_STATUS } from '../../src/entry-points/http/middleware/error-status';
import { CaptureStack } from './support/capture-stack';
import {
  captureFlow,
  errorVectors,
  multipartVectors,
  operationsOf,
  pendingListedInReadme,
  REPO_ROOT,
} from './support/contract-vectors/vector-files';
import { interpolate, Variables } from './support/contract-vectors/vector-matcher';
import { livenessMultipart } from './support/contract-vectors/vector-requests';
import { check, runSteps } from './support/contract-vectors/vector-runner';
import { ErrorCase, Step, VectorState } from './support/contract-vectors/vector-types';

const operationsIn = (doc: { paths: Record<string, Record<string, unknown>> }): string[] =>
  Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((method) => `${method} ${p}`));

/** The committed document, which openapi-document.test.ts holds equal to what the code serves. */
const SERVED = new Set(
  operationsIn(
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'api/openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    },
  ),
);

const flow = captureFlow();
const errors = errorVectors();
const multipart = multipartVectors();
const createAndStart = flow.sequences.find((s) => s.name === 'passport-verified')!.steps.slice(0, 2);

describe('the shared contract vectors, replayed against the real stack (real models, API, worker)', () => {
  let stack: CaptureStack;
  let runnerVars: Variables;
  beforeAll(async () => {
    stack = await CaptureStack.start();
    runnerVars = { base_url: stack.baseUrl, api_key: stack.apiKey, webhook_url: stack.stack.receiver.url() };
  }, 240_000);
  afterAll(async () => stack?.stop(), 60_000);

  // CONTRACT_VECTORS_RECORD=<file> writes each error case's real answer there, to refresh the
  // `example`s in errors.json (README, "Refreshing the examples").
  const recorded: Record<string, unknown> = {};
  afterAll(() => {
    if (process.env.CONTRACT_VECTORS_RECORD)
      writeFileSync(process.env.CONTRACT_VECTORS_RECORD, `${JSON.stringify(recorded, null, 2)}\n`);
  });

  /** Runs the vector when its routes are served; otherwise says by name why it does not run. */
  function vector(name: string, state: VectorState, steps: Step[], run: () => Promise<void>, timeout = 60_000) {
    const missing = operationsOf(steps).filter((op) => !SERVED.has(op));
    if (missing.length === 0) {
      const note = state === 'pending' ? ' (marked pending, but its routes are served: mark it ready)' : '';
      it(`${name}${note}`, run, timeout);
    } else if (state === 'pending') {
      it(`${name} is pending until ${missing.join(', ')} is served, and the README lists it so`, () => {
        expect(pendingListedInReadme()).toContain(name);
      });
      it.todo(`${name}: replay once ${missing.join(', ')} is served`);
    } else {
      it(`${name} is marked ready but calls routes the server does not serve`, () => {
        throw new Error(`${name} calls ${missing.join(', ')}, which api/openapi.json does not have`);
      });
    }
  }

  it('gates the vectors on the operations the running server really serves', async () => {
    const served = (await (await fetch(`${stack.baseUrl}/docs/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(new Set(operationsIn(served))).toEqual(SERVED);
  });

  it('lists in the README exactly the vectors marked pending', () => {
    const pending = [
      ...flow.sequences.filter((s) => s.state === 'pending').map((s) => s.name),
      ...errors.cases.filter((c) => c.state === 'pending').map((c) => c.name),
    ];
    expect(pendingListedInReadme().sort()).toEqual(pending.sort());
  });

  it('refers only to test files the project generates, with the labels the sequences rely on', () => {
    const labels = JSON.parse(readFileSync(path.join(REPO_ROOT, '.state/testdata/documents/labels.json'), 'utf8')) as {
      documents: Array<{ file: string; expected: { fields: { name: string } } }>;
    };
    const passport = labels.documents.find((d) => d.file === 'synthetic-td3-passport-clean-001.jpg');
    expect(passport?.expected.fields.name).toBe('TOMAS OESTERGAARD');
  });

  describe('capture-flow.json: the capture sequences', () => {
    for (const sequence of flow.sequences)
      vector(
        sequence.name,
        sequence.state,
        sequence.steps,
        async () => {
          await runSteps(sequence.steps, runnerVars);
        },
        150_000,
      );
  });

  describe('errors.json: each error as the server answers it, and the client error it maps to', () => {
    it('maps every error code the server has, with the status it answers', () => {
      const mapped = errors.mapping.map((m) => `${m.status} ${m.code}`).sort();
      expect(mapped).toEqual(ERROR_CODES.map((code) => `${ERROR_STATUS[code]} ${code}`).sort());
    });

    /** What the server's test does to the stack for a `server_only` case; answers how to undo it. */
    const actions: Record<string, (vars: Variables) => Promise<() => Promise<void>>> = {
      'inference-stopped': async () => {
        await stack.stopInference();
        return async () => {
          await stack.ensureInference();
          await stack.awaitApiReady();
        };
      },
      'two-uploads-held-open': async (vars) => {
        const held: ClientRequest[] = [0, 1].map(() => {
          const upload = request(`${stack.baseUrl}/v1/capture/${interpolate('${session_id}', vars)}/selfie`, {
            method: 'PUT',
            headers: {
              authorization: interpolate('Bearer ${capture_token}', vars),
              'content-type': 'image/jpeg',
              'content-length': '100000',
            },
          });
          upload.on('error', () => undefined); // destroyed below, on purpose
          upload.write('x');
          return upload;
        });
        // The gate takes each upload's slot before reading its body: give both time to reach it.
        await new Promise((r) => setTimeout(r, 1_000));
        return () => {
          held.forEach((upload) => upload.destroy());
          return Promise.resolve();
        };
      },
    };

    async function replay(errorCase: ErrorCase) {
      if (errorCase.trigger.kind === 'steps') return runSteps(errorCase.steps, runnerVars);
      const act = actions[errorCase.trigger.how];
      if (!act) throw new Error(`${errorCase.name}: no server action named ${errorCase.trigger.how}`);
      const setup = await runSteps(errorCase.steps.slice(0, -1), runnerVars);
      const undo = await act(setup.vars);
      try {
        return await runSteps(errorCase.steps.slice(-1), setup.vars);
      } finally {
        await undo();
      }
    }

    for (const errorCase of errors.cases)
      vector(errorCase.name, errorCase.state, errorCase.steps, async () => {
        const { answer, vars } = await replay(errorCase);
        const headers = ['Content-Type', 'Cache-Control', 'X-Request-Id', 'Retry-After'].filter((h) =>
          answer.headers.has(h),
        );
        recorded[errorCase.name] = {
          status: answer.status,
          headers: Object.fromEntries(headers.map((h) => [h, answer.headers.get(h)])),
          body: answer.body,
        };
        const mapping = errors.mapping.find((m) => m.code === (answer.body as { error: { code: string } }).error.code);
        expect(mapping?.client_error).toBe(errorCase.client_error.kind);
        // The example body SDKs feed their mock transports must itself be what the vector expects.
        if (errorCase.example) {
          const expected = errorCase.steps[errorCase.steps.length - 1].response;
          const example = {
            status: errorCase.example.status,
            headers: new Headers(errorCase.example.headers),
            body: errorCase.example.body,
          };
          expect(check(expected, example, { ...vars })).toEqual([]);
        }
      });
  });

  describe('multipart.json: the liveness upload framing', () => {
    for (const v of multipart.vectors) {
      it(`${v.name}: its body is the README's framing of its frames and timestamps`, () => {
        const built = livenessMultipart(
          v.boundary,
          v.frames_base64.map((f) => Buffer.from(f, 'base64')),
          v.timestamps,
          { partNames: v.part_names, closingDelimiter: v.closing_delimiter },
        );
        expect(built.toString('base64')).toBe(v.body_base64);
        expect(JSON.stringify(v.timestamps)).toBe(v.timestamps_json);
        expect(v.content_type).toBe(`multipart/form-data; boundary=${v.boundary}`);
      });

      it(`${v.name}: the server ${v.expect === 'accepted' ? 'accepts' : 'refuses'} those exact bytes`, async () => {
        const upload: Step = {
          name: v.name,
          request: {
            method: 'POST',
            path: '/v1/capture/{session_id}/liveness',
            params: { session_id: '${session_id}' },
            headers: { Authorization: 'Bearer ${capture_token}', 'Content-Type': v.content_type },
            body: { kind: 'bytes', base64: v.body_base64 },
          },
          response: v.response,
        };
        await runSteps([...createAndStart, upload], runnerVars);
      });
    }
  });
});
