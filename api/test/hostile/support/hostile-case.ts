import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RawAnswer } from './raw-http';
import { HostileStack } from './hostile-stack';

/** Memory may grow by this much over the file's baseline and still count as returned (V8 keeps some heap it grew). */
export const RSS_SLACK_MIB = 150;

export interface CaseFigure {
  name: string;
  status: number | null;
  ms: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
}

const REPORT_DIR = path.resolve(__dirname, '../../../../.state/hostile-clients');

/**
 * Runs one hostile request and checks the API's health after it: the process is alive, a read
 * still answers, and no capture blob was stored. Records the time to the answer and the API's
 * memory before and after, for the report written when the file ends.
 */
export class CaseLog {
  readonly figures: CaseFigure[] = [];
  baselineMiB = NaN;

  constructor(private readonly file: string) {}

  async run(stack: HostileStack, readableId: string, name: string, send: () => Promise<RawAnswer>): Promise<RawAnswer> {
    const blobsBefore = await stack.storedBlobs();
    const rssBeforeMiB = stack.rssMiB();
    if (Number.isNaN(this.baselineMiB)) this.baselineMiB = rssBeforeMiB;
    const answer = await send();
    // Give a crash (an unhandled 'error' event) the moment it needs to end the process.
    await new Promise((r) => setTimeout(r, 100));
    if (!stack.alive) throw new Error(`the API process died during "${name}"`);
    if (!(await stack.serves(readableId))) throw new Error(`the API stopped serving after "${name}"`);
    if ((await stack.storedBlobs()) !== blobsBefore) throw new Error(`"${name}" stored a capture`);
    const rssAfterMiB = stack.rssMiB();
    this.figures.push({ name, status: answer.status, ms: answer.ms, rssBeforeMiB, rssAfterMiB });
    return answer;
  }

  /** Writes the figures as a table (.state/hostile-clients/<file>.md) and prints it. */
  report(): void {
    const fmt = (n: number) => n.toFixed(1);
    const lines = [
      `| case | answer | time to answer (ms) | API RSS before (MiB) | after (MiB) |`,
      `|---|---|---|---|---|`,
      ...this.figures.map(
        (f) => `| ${f.name} | ${f.status ?? 'closed'} | ${f.ms} | ${fmt(f.rssBeforeMiB)} | ${fmt(f.rssAfterMiB)} |`,
      ),
    ];
    mkdirSync(REPORT_DIR, { recursive: true });
    writeFileSync(path.join(REPORT_DIR, `${this.file}.md`), `${lines.join('\n')}\n`);
    process.stdout.write(`\n${this.file}\n${lines.join('\n')}\n`);
  }
}

/** The contract's error shape with the given code, and a field in its details when one is named. */
export function expectContractError(answer: RawAnswer, status: number, code: string, field?: string): void {
  expect(answer.status).toBe(status);
  const body = JSON.parse(answer.body) as {
    error: { code: string; message: string; details?: Array<{ field: string }> };
    request_id: string;
  };
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(typeof body.request_id).toBe('string');
  if (field !== undefined) expect(body.error.details?.map((d) => d.field)).toContain(field);
}
