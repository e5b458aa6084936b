/**
 * V8 flags the API and the worker run with, wherever they are started (`npm start`, the tests'
 * and benchmarks' processes, the app image's CMD, workers.yaml). They must be on the command line:
 * V8 sizes the heap when the process starts, and NODE_OPTIONS refuses this flag.
 *
 * A 128 MB initial old space: V8 starts incremental marking whenever the old generation's room
 * before its limit is smaller than what the young generation could promote at once, and with the
 * few tens of MB a service keeps alive that room starts small, so full collections ran often and
 * freed little (the inference front showed it first: inference/src/config/front-node-flags.ts).
 * bench:decision 24 x 2, with and without, interleaved twice: the API's CPU per verification
 * 219 -> 136 ms (median of 4 passes), the worker's 96 -> 84 (benchmarks/results/front-profile.md).
 * It lets the old generation hold up to about 120 MB of garbage before collecting it.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=128'];
