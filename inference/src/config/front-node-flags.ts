/**
 * V8 flags the inference front runs with, wherever it is started (`npm start`, the benchmarks'
 * own process, the container's CMD). They must be on the command line: V8 sizes the young
 * generation when the process starts, so a flag set from inside main.ts has no effect.
 *
 * A 64 MB semi-space: what a check allocates is short-lived, and V8's default 16 MB semi-space
 * fills many times a check, so scavenges run often and whatever is still in flight at each one is
 * promoted, for major collections (with their concurrent marking on V8's helper threads) to mark
 * later. A larger young generation lets more of it die young. Measured one run after the other
 * under bench:decision's traffic: minor-GC pauses 2.11 -> 1.21 s, major 3.15 -> 1.92 s, front CPU per verification
 * 1,009 -> 870 ms (benchmarks/results/front-profile.md). It costs up to about 100 MB more of
 * resident memory at peak.
 */
export const FRONT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
