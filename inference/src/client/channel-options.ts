import { clientMessageOptions } from './message-limits';

/**
 * Every client of the service (health, checks, models) opens its channel with these, so they share
 * one subchannel: the API's /readyz probe (health) then speaks for the checks' connection too. The
 * reconnect backoff is capped at 2 s (grpc-js grows it to 120 s): after the service comes back from
 * a restart or a rollout, the API answers checks again within about 2 s instead of 503s for minutes.
 */
export const clientChannelOptions = {
  ...clientMessageOptions,
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 2_000,
};
