import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CaptureFlowFile, ErrorsFile, MultipartFile, Step } from './vector-types';

/** The repository root: vectors name their files relative to it, as every SDK's runner does. */
export const REPO_ROOT = path.resolve(__dirname, '../../../../..');
export const VECTORS_DIR = path.join(REPO_ROOT, 'sdk/contract-vectors');

const load = <T>(name: string): T => JSON.parse(readFileSync(path.join(VECTORS_DIR, name), 'utf8')) as T;

export const captureFlow = (): CaptureFlowFile => load('capture-flow.json');
export const errorVectors = (): ErrorsFile => load('errors.json');
export const multipartVectors = (): MultipartFile => load('multipart.json');

/** The names the README lists under "Pending vectors", one `- \`name\`` line each. */
export function pendingListedInReadme(): string[] {
  const readme = readFileSync(path.join(VECTORS_DIR, 'README.md'), 'utf8');
  const section = readme.split(/^## Pending vectors$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]);
}

/** Every operation a list of steps calls, as the OpenAPI document keys it. */
export const operationsOf = (steps: Step[]): string[] => [
  ...new Set(steps.map((s) => `${s.request.method.toLowerCase()} ${s.request.path}`)),
];
