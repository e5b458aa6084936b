import { parseArgs } from 'node:util';
import { Connection } from 'mongoose';
import { AccountRepository } from '../../data-access/account.repository';
import { connectMongo } from '../../data-access/mongo-connection';
import { Environment } from '../../domain/environment';
import { createAccount, rotateApiKey, rotateWebhookSecret } from '../../domain/usecases/manage-accounts/manage-accounts.usecase';
import { AppError } from '../../shared/app-error';
import { systemClock } from '../../shared/clock';
import { SecretBox } from '../../shared/secret-box';
import { adminEnv } from './admin-env';
import { redeliverCommand } from './redeliver-command';

const USAGE = `usage: npm run admin -- <command>
  accounts create --name <name> [--plan starter|growth|scale|enterprise] [--watchlist]
  accounts rotate-key --account <account_id> --environment sandbox|production [--grace-hours <n>]
  accounts rotate-webhook-secret --account <account_id>
  sessions redeliver --session <session_id>   (sends a decided session's webhook again; same webhook-id)
Prints exactly one JSON object on stdout; secrets in it are shown only this once.`;

type Handler = (accounts: AccountRepository, args: string[], connection: Connection) => Promise<unknown>;

const commands: Record<string, Handler> = {
  'accounts create': async (accounts, args) => {
    const { values } = parseArgs({ args, options: { name: { type: 'string' }, plan: { type: 'string', default: 'starter' }, watchlist: { type: 'boolean', default: false } } });
    if (!values.name) throw new AppError('VALIDATION_ERROR', '--name is required');
    return createAccount({ accounts, clock: systemClock }, { name: values.name, plan: values.plan as string, watchlist: Boolean(values.watchlist) });
  },
  'accounts rotate-key': async (accounts, args) => {
    const { values } = parseArgs({ args, options: { account: { type: 'string' }, environment: { type: 'string' }, 'grace-hours': { type: 'string', default: '0' } } });
    const environment = values.environment as Environment;
    if (!values.account || (environment !== 'sandbox' && environment !== 'production')) {
      throw new AppError('VALIDATION_ERROR', '--account and --environment sandbox|production are required');
    }
    const grace = Number(values['grace-hours']);
    if (!Number.isFinite(grace) || grace < 0) throw new AppError('VALIDATION_ERROR', '--grace-hours must be a non-negative number');
    return rotateApiKey({ accounts, clock: systemClock }, values.account, environment, grace);
  },
  'accounts rotate-webhook-secret': async (accounts, args) => {
    const { values } = parseArgs({ args, options: { account: { type: 'string' } } });
    if (!values.account) throw new AppError('VALIDATION_ERROR', '--account is required');
    return rotateWebhookSecret({ accounts, clock: systemClock }, values.account);
  },
  'sessions redeliver': (_accounts, args, connection) => redeliverCommand(args, connection),
};

/** The admin CLI: issues accounts and rotates their keys and secrets against the configured store. */
async function main(argv: string[]): Promise<number> {
  const name = argv.slice(0, 2).join(' ');
  const handler = commands[name];
  if (!handler) {
    process.stderr.write(`${USAGE}\n`);
    return 64; // EX_USAGE
  }
  const env = adminEnv();
  const connection = await connectMongo(env.MONGODB_URI);
  try {
    const accounts = new AccountRepository(connection, new SecretBox(env.SECRET_ENCRYPTION_KEY));
    await accounts.init();
    const output = await handler(accounts, argv.slice(2), connection);
    process.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return error instanceof AppError && error.callerFault ? 65 : 1;
  } finally {
    await connection.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
