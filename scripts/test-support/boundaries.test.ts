import { boundaryFindings, sourceFiles } from './import-boundaries';

describe('the shared test support is the only way in', () => {
  it('finds no benchmark importing a test/ folder or api/src/data-access, and no account bootstrap outside scripts/test-support', () => {
    const files = sourceFiles();
    expect(files.filter((f) => f.startsWith('benchmarks/')).length).toBeGreaterThan(10);
    expect(boundaryFindings(files)).toEqual([]);
  });

  it('reports a benchmark that reaches into another folder\'s test support or the data layer, however it imports', () => {
    const planted: Record<string, string> = {
      'benchmarks/x/bench-x.ts': [
        "import { startApiProcess } from '../../api/test/webhooks/support/service-process';",
        "export { launchBrowser } from '../../hosted/test/support/browser';",
        "const repo = require('../../api/src/data-access/session.repository');",
        "const later = import('../../api/src/data-access/mongo-connection');",
        "import { issueAccount } from '../../scripts/test-support/account-bootstrap';",
        "import { WATCHLIST_FORMATS } from '../../api/src/public-entry';",
      ].join('\n'),
    };
    expect(boundaryFindings(Object.keys(planted), (f) => planted[f]!).map((f) => f.problem)).toEqual([
      'imports api/test/webhooks/support/service-process',
      'imports hosted/test/support/browser',
      'imports api/src/data-access/session.repository',
      'imports api/src/data-access/mongo-connection',
    ]);
  });

  it('reports a test or benchmark that issues an account without the shared bootstrap, and leaves the account code\'s own unit tests alone', () => {
    const planted: Record<string, string> = {
      'api/test/some.test.ts': "import { createAccount } from '../src/domain/usecases/manage-accounts/manage-accounts.usecase';",
      'hosted/test/support/stack.ts': 'const accounts = new AccountRepository(store, box);',
      'benchmarks/y/bench-y.ts': "import { AccountRepository } from '../../api/src/data-access/account.repository';",
      'api/src/domain/usecases/manage-accounts/manage-accounts.test.ts': "import { createAccount } from './manage-accounts.usecase';",
      'scripts/test-support/account-bootstrap.ts': "import { AccountRepository } from '../../api/src/data-access/account.repository';",
    };
    expect(boundaryFindings(Object.keys(planted), (f) => planted[f]!).map((f) => f.file)).toEqual([
      'api/test/some.test.ts',
      'hosted/test/support/stack.ts',
      'benchmarks/y/bench-y.ts',
      'benchmarks/y/bench-y.ts',
    ]);
  });
});
