/** `npm run bench:load -- [options]`: what to run, each with a short default so a plain run stays a few minutes. */
export interface LoadOptions {
  /** Concurrent clients (HTTP connections, one request in flight each) per step. */
  clients: number[];
  /** Measured seconds per step, after `warmupS` unmeasured. */
  durationS: number;
  warmupS: number;
  /** Seconds of the read-by-id probe after each fill. */
  probeS: number;
  /** Sessions stored before each series of steps (cumulative: the store grows from one to the next). */
  fills: number[];
  /** Seconds of the soak at `soakClients` after the last step; 0: none. */
  soakS: number;
  soakClients: number;
  /** Enterprise accounts the clients are spread over (each key has its own rate limit). */
  accounts: number;
  /** Another FerretDB build to measure (e.g. the unpatched .state/bin/ferretdb), for before/after. */
  ferretdbBin?: string;
  /** The API's and worker's connection pool to the store (maxPoolSize in MONGODB_URI); default: the URI's own. */
  pool?: number;
  /** SQLite's synchronous pragma for the store (scripts/stack/ferretdb.ts). */
  synchronous?: 'normal' | 'full';
  /** Operations left out of the mix (e.g. deliveries, to see the reads by id apart from its scan). */
  without: string[];
  /** Leave the worker out (its sweeps read whole collections on FerretDB; this shows the API and store alone). */
  noWorker?: boolean;
  /** SQLite page cache per connection, MiB (default 64, scripts/stack/ferretdb.ts). */
  cacheMiB?: number;
  /** Where load.json / load.md / load.svg go; a label keeps several runs apart. */
  label: string;
}

const list = (value: string) =>
  value
    .split(',')
    .map((v) => Number(v.trim()))
    .filter((v) => Number.isFinite(v) && v > 0);

export function parseLoadOptions(argv: string[]): LoadOptions {
  const options: LoadOptions = {
    clients: [1, 4, 16, 64],
    durationS: 10,
    warmupS: 2,
    probeS: 10,
    fills: [100, 100_000],
    soakS: 0,
    soakClients: 16,
    accounts: 8,
    label: 'load',
    without: [],
  };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, value] = [argv[i], argv[i + 1] ?? ''];
    const take = () => ((i += 1), value);
    switch (flag) {
      case '--clients':
        options.clients = list(take());
        break;
      case '--duration':
        options.durationS = Number(take());
        break;
      case '--warmup':
        options.warmupS = Number(take());
        break;
      case '--probe':
        options.probeS = Number(take());
        break;
      case '--fills':
        options.fills = list(take());
        break;
      case '--soak':
        options.soakS = Number(take());
        break;
      case '--soak-clients':
        options.soakClients = Number(take());
        break;
      case '--accounts':
        options.accounts = Number(take());
        break;
      case '--ferretdb':
        options.ferretdbBin = take();
        break;
      case '--label':
        options.label = take();
        break;
      case '--pool':
        options.pool = Number(take());
        break;
      case '--without':
        options.without = take()
          .split(',')
          .map((op) => op.trim());
        break;
      case '--cache-mib':
        options.cacheMiB = Number(take());
        break;
      case '--no-worker':
        options.noWorker = true;
        break;
      case '--sync':
        options.synchronous = take() === 'full' ? 'full' : 'normal';
        break;
      default:
        throw new Error(`bench:load: unknown option ${flag} (see benchmarks/load/README.md)`);
    }
  }
  if (options.clients.length === 0 || options.fills.length === 0 || !(options.durationS > 0))
    throw new Error('bench:load: --clients, --fills and --duration need positive values');
  options.fills.sort((a, b) => a - b);
  return options;
}
