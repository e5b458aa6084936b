/** The targets a decision run is held to, each with the median of the passes it is read from. */
import { median } from '../../scripts/test-support/percentiles';
import type { PassResult } from './decision-summary';

export interface Target {
  figure: string;
  measured: number | null;
  target: string;
  met: boolean | null;
}

export function targets(passes: PassResult[]): Target[] {
  const submit = median(passes.map((p) => p.submit_to_decided_at_server.p99_ms ?? Infinity));
  const seen = median(passes.map((p) => p.submit_to_decided.p99_ms ?? Infinity));
  const doc = median(passes.map((p) => p.document_read.p99_ms ?? Infinity));
  const selfie = median(
    passes.flatMap((p) => (p.selfie_to_decided_at_server ? [p.selfie_to_decided_at_server.p99_ms ?? Infinity] : [])),
  );
  const cpu = median(passes.map((p) => p.cpu_ms_per_verification_without_polls.total));
  const rate = median(passes.map((p) => p.verifications_per_minute));
  return [
    {
      figure: 'submit → decided p99 (submit sent → decided_at; median of passes)',
      measured: submit,
      target: '≤ 1000 ms',
      met: submit === null ? null : submit <= 1000,
    },
    {
      figure: 'submit → decided p99 as the polling client saw it (median of passes)',
      measured: seen,
      target: '≤ 1000 ms',
      met: seen === null ? null : seen <= 1000,
    },
    {
      figure: 'document read at upload p99 (median of passes)',
      measured: doc,
      target: '≤ 1500 ms',
      met: doc === null ? null : doc <= 1500,
    },
    {
      figure: 'selfie sent → decided p99 (median of passes)',
      measured: selfie,
      target: '≤ 2000 ms',
      met: selfie === null ? null : selfie <= 2000,
    },
    {
      figure: 'CPU per verification, all processes, less polls (median of passes)',
      measured: cpu,
      target: '≤ 1200 ms',
      met: cpu === null ? null : cpu <= 1200,
    },
    {
      figure: 'verifications per minute (median of passes; a rate, not ms)',
      measured: rate,
      target: '≥ 80 per minute',
      met: rate === null ? null : rate >= 80,
    },
  ];
}
