/**
 * `npx tsx inference/tools/model-status.ts [host:port]`: what a running service serves — each
 * model's version, readiness, execution provider (and why others were skipped), batch settings
 * and request/batch counts. For an ML engineer checking a swapped model after a restart.
 */
import { createInferenceClient } from '../src/client/inference-client';

async function main(): Promise<void> {
  const address = process.argv[2] ?? `127.0.0.1:${process.env.INFERENCE_PORT ?? 50051}`;
  const client = createInferenceClient({ address });
  try {
    console.log(`health: ${await client.health()}`);
    const { models } = await client.repositoryIndex();
    const stats = new Map((await client.modelStatistics()).modelStats.map((s) => [s.name, s]));
    for (const model of models) {
      const meta = await client.modelMetadata(model.name);
      const s = stats.get(model.name);
      const batches = s?.batchStats.map((b) => `${b.batchSize}×${b.computeInfer?.count ?? 0}`).join(' ') || 'none yet';
      console.log(
        `${model.name} v${model.version} ${model.ready ? 'READY' : 'NOT READY'} on ${model.executionProvider} (${model.device}) · sha256 ${meta.sha256.slice(0, 12)}…`,
      );
      for (const skipped of meta.skippedProviders) console.log(`    ${skipped.provider} skipped: ${skipped.reason}`);
      const profile = meta.batchProfile;
      console.log(
        `    batch profile ${profile?.device}: max_batch_size ${meta.maxBatchSize}, preferred [${(profile?.preferredBatchSize ?? []).join(',')}], delay ${profile?.maxQueueDelayMicroseconds ?? 0} µs · requests ${s?.inferenceCount ?? 0}, batches (size×count) ${batches}`,
      );
    }
  } finally {
    client.close();
  }
}

main().catch((error: Error) => {
  console.error(`model-status: ${error.message}`);
  process.exit(1);
});
