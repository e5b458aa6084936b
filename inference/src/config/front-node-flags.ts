/**
 * V8 flags the inference front runs with, wherever it is started (`npm start`, the benchmarks'
 * own process, the container's CMD). They must be on the command line: V8 sizes the heap when
 * the process starts, so a flag set from inside main.ts has no effect.
 *
 * A 64 MB semi-space: what a check allocates is short-lived, and V8's default 16 MB semi-space
 * fills many times a check, so scavenges run often and whatever is still in flight at each one is
 * promoted, for major collections (with their concurrent marking on V8's helper threads) to mark
 * later. A larger young generation lets more of it die young. Measured one run after the other
 * under bench:decision's traffic: minor-GC pauses 2.11 -> 1.21 s, major 3.15 -> 1.92 s, front CPU per verification
 * 1,009 -> 870 ms (benchmarks/results/front-profile.md). It costs up to about 100 MB more of
 * resident memory at peak.
 *
 * A 256 MB initial old space: V8 starts incremental marking whenever the old generation's room
 * before its limit is smaller than the young generation could promote at once; with the 64 MB
 * semi-space and the front's ~30 MB of live old objects that was always so (--trace-incremental-marking:
 * "Start (task)" at 30 MB of a 69 MB limit), and a full mark-compact ran every 0.3-0.6 s, about
 * three a verification, for almost nothing (35 -> 30 MB each). With 256 MB of initial room, 14
 * mark-compacts instead of 55 over the same 16-applicant run, and the front's CPU per verification
 * 490 -> 338 ms (bench:decision 24 x 2, side by side, front-profile.md). It lets the old generation
 * hold up to about 250 MB of garbage before collecting it.
 */
export const FRONT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64', '--initial-old-space-size=256'];
