import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { Connection } from 'mongoose';
import { AdminStores, composeAdminStores } from '../../compose-stores';
import { AuditLogRepository } from '../../data-access/audit-log.repository';
import { Environment } from '../../domain/environment';
import {
  createAccount,
  rotateApiKey,
  rotateWebhookSecret,
} from '../../domain/usecases/manage-accounts/manage-accounts.usecase';
import { AppError } from '../../shared/app-error';
import { systemClock } from '../../shared/clock';
import { adminEnv } from './admin-env';
import { randomBase62 } from '../../shared/random-id';
import {
  auditTrail,
  billingReportCommand,
  LIFECYCLE_USAGE,
  resealKeys,
  rotateKeys,
  sealExisting,
  setBilling,
  setPlan,
} from './lifecycle-commands';
import { CHIP_TRUST_USAGE, chipTrustCommand } from './chip-trust-command';
import { CAPTURE_INTEGRITY_USAGE, setCaptureIntegrity } from './capture-integrity-command';
import { redeliverCommand } from './redeliver-command';
import { setPolicy, POLICY_USAGE } from './policy-command';
import { importWatchlist, screenWatchlist, WATCHLIST_USAGE, watchlistStatus } from './watchlist-command';

const USAGE = `usage: npm run admin -- <command>
  accounts create --name <name> [--plan starter|growth|scale|enterprise] [--watchlist]
  accounts rotate-key --account <account_id> --environment sandbox|production [--grace-hours <n>]
  accounts rotate-webhook-secret --account <account_id>
  sessions redeliver --session <session_id>   (sends a decided session's webhook again; same webhook-id)
${LIFECYCLE_USAGE}
${POLICY_USAGE}
${CAPTURE_INTEGRITY_USAGE}
${WATCHLIST_USAGE}
${CHIP_TRUST_USAGE}
Prints exactly one JSON object on stdout (watchlist screen: one a query; billing report --format csv: CSV); secrets in it are shown only this once.
Every command is recorded in the audit log (who: the OS user running it; no personal data).`;

type Handler = (stores: AdminStores, args: string[]) => Promise<unknown>;

const commands: Record<string, Handler> = {
  'accounts create': async ({ accounts }, args) => {
    const { values } = parseArgs({
      args,
      options: {
        name: { type: 'string' },
        plan: { type: 'string', default: 'starter' },
        watchlist: { type: 'boolean', default: false },
      },
    });
    if (!values.name) throw new AppError('VALIDATION_ERROR', '--name is required');
    return createAccount(
      { accounts, clock: systemClock },
      { name: values.name, plan: values.plan, watchlist: Boolean(values.watchlist) },
    );
  },
  'accounts rotate-key': async ({ accounts }, args) => {
    const { values } = parseArgs({
      args,
      options: {
        account: { type: 'string' },
        environment: { type: 'string' },
        'grace-hours': { type: 'string', default: '0' },
      },
    });
    const environment = values.environment as Environment;
    if (!values.account || (environment !== 'sandbox' && environment !== 'production')) {
      throw new AppError('VALIDATION_ERROR', '--account and --environment sandbox|production are required');
    }
    const grace = Number(values['grace-hours']);
    if (!Number.isFinite(grace) || grace < 0)
      throw new AppError('VALIDATION_ERROR', '--grace-hours must be a non-negative number');
    return rotateApiKey({ accounts, clock: systemClock }, values.account, environment, grace);
  },
  'accounts rotate-webhook-secret': async ({ accounts }, args) => {
    const { values } = parseArgs({ args, options: { account: { type: 'string' } } });
    if (!values.account) throw new AppError('VALIDATION_ERROR', '--account is required');
    return rotateWebhookSecret({ accounts, clock: systemClock }, values.account);
  },
  'accounts set-plan': (stores, args) => setPlan(stores, args),
  'accounts set-billing': (stores, args) => setBilling(stores, args),
  'accounts set-policy': (stores, args) => setPolicy(stores, args),
  'accounts set-capture-integrity': (stores, args) => setCaptureIntegrity(stores, args),
  'keys rotate': (stores) => rotateKeys(stores),
  'keys seal-existing': (stores) => sealExisting(stores),
  'keys reseal': (stores) => resealKeys(stores),
  'audit --session': (stores, args) => auditTrail(stores, ['--session', ...args]),
  'audit --account': (stores, args) => auditTrail(stores, ['--account', ...args]),
  'billing report': (stores, args) => billingReportCommand(stores, args),
  'sessions redeliver': (stores, args) => redeliverCommand(args, stores),
  'watchlist import': ({ mongo }, args) => importWatchlist(args, mongo),
  'watchlist status': ({ mongo }, args) => watchlistStatus(args, mongo),
  'watchlist screen': ({ mongo }, args) => screenWatchlist(args, mongo),
};

/** The audit record of a command: its name and the ids it named (never a secret or a person's data). */
async function recordAdminAction(connection: Connection, name: string, args: string[]): Promise<void> {
  const valueOf = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? (args[at + 1] ?? null) : null;
  };
  const sessionId = name === 'audit --session' ? (args[0] ?? null) : valueOf('--session');
  const accountId = name === 'audit --account' ? (args[0] ?? null) : valueOf('--account');
  const audit = new AuditLogRepository(connection);
  await audit.record({
    action: 'admin',
    actor: { type: 'admin', id: `os-user:${userInfo().username}` },
    at: new Date(),
    session_id: sessionId,
    account_id: accountId,
    request_id: `adm_${randomBase62(20)}`,
    detail: name.replace(' --session', '').replace(' --account', ''),
  });
}

function runWithoutStores(command: () => unknown): number {
  try {
    process.stdout.write(`${JSON.stringify(command())}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return error instanceof AppError && error.callerFault ? 65 : 1;
  }
}

/** The admin CLI: issues accounts and rotates their keys and secrets against the configured store. */
async function main(argv: string[]): Promise<number> {
  // Trust anchors are files, not store records: these run without a database.
  if (argv[0] === 'chip-trust') return runWithoutStores(() => chipTrustCommand(argv.slice(1)));
  const name = argv.slice(0, 2).join(' ');
  const handler = commands[name];
  if (!handler) {
    process.stderr.write(`${USAGE}\n`);
    return 64; // EX_USAGE
  }
  const stores = await composeAdminStores(adminEnv());
  try {
    const output = await handler(stores, argv.slice(2));
    await recordAdminAction(stores.mongo, name, argv.slice(2));
    const raw = (output as { raw?: unknown } | undefined)?.raw;
    if (typeof raw === 'string') process.stdout.write(raw);
    else if (output !== undefined) process.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return error instanceof AppError && error.callerFault ? 65 : 1;
  } finally {
    await stores.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
