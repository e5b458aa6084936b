import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** Installed by scripts/fuzz/install-schemathesis.sh (pinned there); SCHEMATHESIS_BIN points elsewhere. */
export const SCHEMATHESIS_BIN =
  process.env.SCHEMATHESIS_BIN ?? path.join(ROOT, '.state', 'fuzz-venv', 'bin', 'schemathesis');

/** The checks the issue asks for: no 5xx, responses as documented, and no hang. */
export const CHECKS = ['not_a_server_error', 'response_schema_conformance'];

export interface FuzzOptions {
  baseUrl: string;
  apiKey: string;
  /** Test cases per operation and phase. */
  maxExamples: number;
  /** A response slower than this fails the `max_response_time` check. */
  maxResponseSeconds: number;
  /** Where the JUnit and NDJSON reports go. */
  reportDir: string;
  seed?: number;
  workers?: number;
  /** Schemathesis phases to run (default: all of them). */
  phases?: string;
  /** Streams Schemathesis's own output. */
  onOutput?: (text: string) => void;
}

export interface FuzzResult {
  exitCode: number | null;
  /** Test cases Schemathesis generated and sent, over every phase. */
  cases: number;
  /** The operations that failed a check, with the check's name and the failure text. */
  failures: Array<{ operation: string; message: string }>;
  output: string;
}

/**
 * Runs Schemathesis against the running API's own /docs/openapi.json: every operation, every
 * phase (examples, coverage, fuzzing, and the stateful phase that follows the document's links
 * from a created session), with the checks above and a deadline on every response.
 */
export async function runSchemathesis(options: FuzzOptions): Promise<FuzzResult> {
  if (!existsSync(SCHEMATHESIS_BIN))
    throw new Error(
      `Schemathesis is not installed at ${SCHEMATHESIS_BIN}: run bash scripts/fuzz/install-schemathesis.sh (npm run fuzz does)`,
    );
  mkdirSync(options.reportDir, { recursive: true });
  const junit = path.join(options.reportDir, 'junit.xml');
  const args = [
    '--config-file',
    path.join(__dirname, 'schemathesis.toml'),
    '--no-color',
    'run',
    `${options.baseUrl}/docs/openapi.json`,
    '--url',
    options.baseUrl,
    '--checks',
    CHECKS.join(','),
    '--max-response-time',
    String(options.maxResponseSeconds),
    '--request-timeout',
    String(options.maxResponseSeconds * 2),
    '--max-examples',
    String(options.maxExamples),
    '--header',
    `X-Api-Key: ${options.apiKey}`,
    '--workers',
    String(options.workers ?? 1),
    '--report',
    'junit,ndjson',
    '--report-junit-path',
    junit,
    '--report-ndjson-path',
    path.join(options.reportDir, 'events.ndjson'),
    ...(options.seed !== undefined ? ['--seed', String(options.seed)] : []),
    ...(options.phases ? ['--phases', options.phases] : []),
  ];
  const child = spawn(SCHEMATHESIS_BIN, args, {
    cwd: ROOT,
    env: { ...process.env, SCHEMATHESIS_TELEMETRY: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    options.onOutput?.(text);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    exitCode,
    cases: casesIn(output),
    failures: failuresIn(existsSync(junit) ? readFileSync(junit, 'utf8') : ''),
    output,
  };
}

/** "Test cases:\n  2338 generated, …" in Schemathesis's summary. */
function casesIn(output: string): number {
  const match = /Test cases:\s*\n?\s*(\d+) generated/.exec(output);
  return match ? Number(match[1]) : 0;
}

function failuresIn(junit: string): Array<{ operation: string; message: string }> {
  const failures: Array<{ operation: string; message: string }> = [];
  // A passing operation is a self-closing <testcase .../>; a failing one holds <failure> or <error>.
  const testcase = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
  for (let m = testcase.exec(junit); m; m = testcase.exec(junit)) {
    const name = /\bname="([^"]*)"/.exec(m[1])?.[1] ?? '?';
    const failure = m[2] ? /<(failure|error)\b([^>]*)>([\s\S]*?)<\/\1>/.exec(m[2]) : null;
    if (failure)
      failures.push({
        operation: name,
        message: unescapeXml(failure[3].trim() || (/message="([^"]*)"/.exec(failure[2])?.[1] ?? '')).slice(0, 2000),
      });
  }
  return failures;
}

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
