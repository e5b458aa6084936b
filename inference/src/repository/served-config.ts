/** Picks a model's batch profile for the device its session opened on. */
import type { DeclaredModelConfig, Device, ModelConfig } from './model-config';

export function servedConfig(declared: DeclaredModelConfig, device: Device): ModelConfig {
  const { max_batch_size, preferred_batch_size, max_queue_delay_microseconds, max_queue_size } =
    declared.batching[device];
  return {
    ...declared,
    device,
    max_batch_size,
    dynamic_batching: { preferred_batch_size, max_queue_delay_microseconds, max_queue_size },
  };
}
