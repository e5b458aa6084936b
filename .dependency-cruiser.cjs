/**
 * The repository's import boundaries, checked by dependency-cruiser (`npm run depcruise`, and in
 * `npm test` through scripts/test-support/dependency-rules.test.ts). Each rule says why it exists.
 *
 * Known violations: `.dependency-cruiser-known-violations.json` is empty, and stays so: the domain
 * declares its own ports (api/src/domain/ports) and owns the types they speak in, and the data
 * layer implements them. `npm run depcruise:known` rewrites the list from the code as it is: never
 * run it to admit a violation.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-not-to-data-access',
      comment:
        'The domain (use cases, rules) states what it needs; the data layer implements it. A use case must read and test without the store code.',
      severity: 'error',
      from: { path: '^api/src/domain/' },
      to: { path: '^api/src/data-access/' },
    },
    {
      name: 'domain-not-to-frameworks',
      comment:
        'The domain names no store driver and no HTTP framework: what it needs from them is a port it declares, implemented in data-access or entry-points.',
      severity: 'error',
      from: { path: '^api/src/domain/' },
      to: {
        path: [
          '(^|/)node_modules/(@types/)?(mongoose|mongodb|express|ioredis|bullmq)(/|$)',
          '^(mongoose|mongodb|express|ioredis|bullmq)$',
        ],
      },
    },
    {
      name: 'domain-not-to-entry-points',
      comment: 'HTTP routes, the worker and the CLI call the domain, never the other way round.',
      severity: 'error',
      from: { path: '^api/src/domain/' },
      to: { path: '^api/src/entry-points/' },
    },
    {
      name: 'inference-client-not-to-server',
      comment:
        'The inference client ships to the API alone: it may use the generated proto types and packages, never the service it calls.',
      severity: 'error',
      from: { path: '^inference/src/client/' },
      to: { path: '^inference/', pathNot: '^inference/src/client/' },
    },
    {
      name: 'api-not-to-inference-server',
      comment:
        'The API talks to inference over gRPC through the client only; the service is another deployable (tests may borrow its fixtures).',
      severity: 'error',
      from: { path: '^api/src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^inference/', pathNot: '^inference/src/client/' },
    },
    {
      name: 'hosted-web-not-to-api',
      comment:
        "The capture page's browser code is bundled for the applicant's browser: it knows the API by its HTTP contract, not its source.",
      severity: 'error',
      from: { path: '^hosted/web/' },
      to: { path: '^api/' },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles make start-up order and reading order depend on each other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'benchmarks-through-public-entry',
      comment:
        "Benchmarks measure the product through api/src/public-entry.ts and scripts/test-support, so they never depend on another folder's test internals or the data layer's files.",
      severity: 'error',
      from: { path: '^benchmarks/' },
      to: { path: ['(^|/)test/', '^api/src/data-access/'] },
    },
    {
      name: 'accounts-through-the-bootstrap',
      comment:
        'Tests and benchmarks issue accounts only through scripts/test-support/account-bootstrap.ts, the same use case as `npm run admin -- accounts create` (unit tests under src/ test the account code itself).',
      severity: 'error',
      from: {
        path: ['^benchmarks/', '(^|/)test/', '^scripts/test-support/', '\\.test\\.ts$'],
        pathNot: ['^scripts/test-support/account-bootstrap\\.ts$', '(^|/)src/'],
      },
      to: {
        path: [
          '^api/src/data-access/account\\.repository\\.ts$',
          '^api/src/domain/usecases/manage-accounts/manage-accounts\\.usecase\\.ts$',
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^\\.state/', '(^|/)dist/', '^hosted/public/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
