/** The Markdown written beside benchmarks/results/pii-crypto.json. */

type Variants = { encrypted: number; baseline: number; size_matched: number };

export interface PiiCryptoResult {
  at: string;
  machine: { cpus: number; model: string | undefined; loadavg: number[] };
  method: string;
  summary: {
    crypto_median_us: Record<string, number>;
    store_median_ms: Record<string, Variants>;
    sizes: {
      result_body_bytes: number;
      result_body_sealed_bytes: number;
      report_bytes: number;
      report_sealed_bytes: number;
    };
  };
}

export function renderMarkdown(result: PiiCryptoResult): string {
  const { summary } = result;
  const { sizes } = summary;
  return [
    '# Personal data encryption at rest: cost on the decision path',
    '',
    `${result.at}, ${result.machine.cpus} CPUs (${result.machine.model}), load average ${result.machine.loadavg.map((l) => l.toFixed(2)).join(' / ')}. ${result.method}.`,
    '',
    '| operation | median |',
    '|---|---|',
    `| seal the personal fields of a new session (name, DOB, address, metadata) | ${summary.crypto_median_us.seal_creation_us} µs |`,
    `| seal a decision write (result ${sizes.result_body_bytes} B + report ${sizes.report_bytes} B) | ${summary.crypto_median_us.seal_decision_us} µs |`,
    `| open a decided session (all six personal fields) | ${summary.crypto_median_us.open_decided_us} µs |`,
    '',
    '| on FerretDB, per session | encrypted | pass-through (plaintext) | size-matched plaintext |',
    '|---|---|---|---|',
    ...(['insert_ms', 'decide_ms', 'read_ms'] as const).map(
      (k) =>
        `| ${k.replace('_ms', '')} | ${summary.store_median_ms[k]?.encrypted} ms | ${summary.store_median_ms[k]?.baseline} ms | ${summary.store_median_ms[k]?.size_matched} ms |`,
    ),
    '',
    `Sealed sizes: result ${sizes.result_body_bytes} → ${sizes.result_body_sealed_bytes} B, report ${sizes.report_bytes} → ${sizes.report_sealed_bytes} B (base64 plus IV, tag and data key id).`,
    '',
  ].join('\n');
}
