/**
 * Preloaded (`node --require`) into the API and the worker by store-profile.ts `--cpu-profile DIR`:
 * a V8 sampling profile (1 ms) of the process's whole life, written to DIR/<role>-<pid>.cpuprofile
 * when it is asked to stop. Node refuses `--cpu-prof` in NODE_OPTIONS, and the services are spawned
 * with fixed arguments, so the inspector's profiler is started from here instead. Summarise with
 * `npx tsx benchmarks/inference/summarise-cpu-profile.ts FILE --from-s N` (N past start-up).
 */
'use strict';
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const path = require('node:path');

const dir = process.env.CPU_PROFILE_DIR;
const role = process.argv.some((a) => a.includes('worker')) ? 'worker' : 'api';
const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 1000 });
session.post('Profiler.start');

let written = false;
// The in-thread session answers synchronously, so the profile is on disk before the service's own
// SIGTERM handler starts draining (and before a forced SIGKILL could lose it).
function write() {
  if (written) return;
  written = true;
  session.post('Profiler.stop', (error, result) => {
    if (!error) writeFileSync(path.join(dir, `${role}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
}
process.prependListener('SIGTERM', write);
process.on('exit', write);
