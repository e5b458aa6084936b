/** Command-line options of `npm run bench:inference`; --quick trades precision for a ~2 minute run. */
export interface BenchOptions {
  quick: boolean;
  models?: string[];
  batchSizes: number[];
  /** Per (model, batch size) cell: run at least this long and this many times (over all rounds). */
  cellMs: number;
  /** Compared measurements alternate in this many slices, so both see the same background load. */
  rounds: number;
  minIterations: number;
  /** Per (model, clients) load point. */
  loadMs: number;
  clients: number[];
  /** Models given the 1/8/32-client load and the layout comparison. */
  loadModels: string[];
  repository: string;
  outDir: string;
  /** `--overhead`: only the per-request overhead figures (rounds of bare / 1 client / 32 clients). */
  overhead: boolean;
  /** With --overhead: another checkout whose service is measured in the same rounds. */
  baseline?: string;
  /** With --overhead: KEY=VALUE, this service again with that environment change. */
  variant?: string;
}

export function parseBenchOptions(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const models = value('--models')?.split(',').filter(Boolean);
  return {
    quick,
    models,
    batchSizes: quick ? [1, 8, 32] : [1, 2, 4, 8, 16, 32],
    cellMs: quick ? 400 : 1800,
    rounds: Number(value('--rounds') ?? (quick ? 2 : 3)),
    minIterations: quick ? 2 : 5,
    loadMs: quick ? 1600 : 4500,
    clients: [1, 8, 32],
    loadModels:
      value('--load-models')?.split(',') ??
      (quick
        ? ['face-detection', 'face-embedding']
        : (models ?? [
            'antispoof',
            'face-detection',
            'face-embedding',
            'face-landmarks',
            'passive-liveness',
            'text-recognition',
          ])),
    repository: value('--repository') ?? 'models',
    outDir: value('--out') ?? 'benchmarks/results',
    overhead: argv.includes('--overhead'),
    baseline: value('--baseline'),
    variant: value('--variant'),
  };
}
