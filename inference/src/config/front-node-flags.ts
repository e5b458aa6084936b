/**
 * V8 flags the inference front runs with, wherever it is started (`npm start`, the benchmarks'
 * own process, the container's CMD). They must be on the command line: V8 sizes the young
 * generation when the process starts, so a flag set from inside main.ts has no effect.
 *
 * A 64 MB semi-space: every upload's pixels, crops and tensors are short-lived, and with V8's
 * default 16 MB young generation they overflowed it several times a check, so scavenges ran often
 * and promoted live batches into the old generation, which then paid for major collections (with
 * their concurrent marking on V8's helper threads). Measured side by side under bench:decision's
 * traffic: minor-GC pauses 2.11 -> 1.21 s, major 3.15 -> 1.92 s, front CPU per verification
 * 1,009 -> 870 ms (benchmarks/results/front-profile.md). It costs up to about 100 MB more of
 * resident memory at peak.
 */
export const FRONT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
