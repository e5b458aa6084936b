import { parseArgs } from 'node:util';
import countries from 'i18n-iso-countries';
import { AuditLogRepository } from '../../data-access/audit-log.repository';
import { BillingLedgerRepository } from '../../data-access/billing-ledger.repository';
import { resealAtRest } from '../../data-access/reseal-at-rest';
import { SessionRepository } from '../../data-access/session.repository';
import { PLANS } from '../../domain/pricing/price-for';
import { billingReport, billingReportCsv } from '../../domain/usecases/billing-report/billing-report.usecase';
import { AppError } from '../../shared/app-error';
import { AdminStores } from '../../compose-stores';
import { AccountRepository } from '../../data-access/account.repository';
import { SESSION_ID_PATTERN } from '../../shared/random-id';

export const LIFECYCLE_USAGE = `  accounts set-plan --account <account_id> --plan <plan> [--effective <YYYY-MM-DD or ISO time>]   (default: now)
  accounts set-billing --account <account_id> [--default-country <XX>] [--retention-days <n>|default]
  keys rotate   (re-seals every data key under the first of PII_MASTER_KEYS)
  keys reseal   (keys rotate, then rewrites every sealed value of every kind, old formats included, under the day's data key)
  keys seal-existing   (upgrade: seals personal fields of sessions stored before encryption at rest)
  audit --session <session_id> | --account <account_id>
  billing report --account <account_id> --month <YYYY-MM> [--format json|csv]`;

export type AdminContext = AdminStores;

const requireValue = (value: string | undefined, name: string): string => {
  if (!value) throw new AppError('VALIDATION_ERROR', `${name} is required`);
  return value;
};

async function requireAccount(accounts: AccountRepository, accountId: string) {
  const account = await accounts.find(accountId);
  if (!account) throw AppError.notFound('account');
  return account;
}

export async function setPlan(ctx: AdminContext, args: string[]) {
  const { values } = parseArgs({
    args,
    options: { account: { type: 'string' }, plan: { type: 'string' }, effective: { type: 'string' } },
  });
  const accountId = requireValue(values.account, '--account');
  const plan = requireValue(values.plan, '--plan');
  if (!PLANS.includes(plan)) throw new AppError('VALIDATION_ERROR', `Unknown plan; choose one of ${PLANS.join(', ')}.`);
  const effectiveFrom = values.effective ? new Date(values.effective) : new Date();
  if (Number.isNaN(effectiveFrom.getTime()))
    throw new AppError('VALIDATION_ERROR', '--effective must be a date (YYYY-MM-DD) or an ISO 8601 time');
  await requireAccount(ctx.accounts, accountId);
  await ctx.accounts.addPlanChange(accountId, { plan, effective_from: effectiveFrom });
  return { account_id: accountId, plan, effective_from: effectiveFrom.toISOString() };
}

export async function setBilling(ctx: AdminContext, args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      'default-country': { type: 'string' },
      'retention-days': { type: 'string' },
    },
  });
  const accountId = requireValue(values.account, '--account');
  const fields: { default_country?: string | null; pii_retention_days?: number | null } = {};
  const country = values['default-country']?.toUpperCase();
  if (country !== undefined) {
    if (!/^[A-Z]{2}$/.test(country) || !countries.isValid(country))
      throw new AppError('VALIDATION_ERROR', '--default-country must be an ISO 3166-1 alpha-2 code');
    fields.default_country = country;
  }
  const days = values['retention-days'];
  if (days !== undefined) {
    const parsed = days === 'default' ? null : Number(days);
    if (parsed !== null && (!Number.isFinite(parsed) || parsed <= 0))
      throw new AppError('VALIDATION_ERROR', '--retention-days must be a positive number of days, or default');
    fields.pii_retention_days = parsed;
  }
  if (Object.keys(fields).length === 0)
    throw new AppError('VALIDATION_ERROR', 'give --default-country and/or --retention-days');
  await requireAccount(ctx.accounts, accountId);
  await ctx.accounts.setBillingDefaults(accountId, fields);
  const account = await requireAccount(ctx.accounts, accountId);
  return {
    account_id: accountId,
    default_country: account.defaultCountry ?? null,
    pii_retention_days: account.piiRetentionDays ?? null,
  };
}

export async function rotateKeys(ctx: AdminContext) {
  return ctx.requireVault().rotate();
}

/** Every kind of sealed data into the one envelope under the current keys; the legacy keys open the old formats. */
export async function resealKeys(ctx: AdminContext) {
  return resealAtRest(ctx.mongo, ctx.requireVault());
}

export async function sealExisting(ctx: AdminContext) {
  const sessions = new SessionRepository(ctx.mongo, ctx.requireVault());
  return { sealed_fields: await sessions.sealLegacy() };
}

export async function auditTrail(ctx: AdminContext, args: string[]) {
  const { values } = parseArgs({
    args,
    options: { session: { type: 'string' }, account: { type: 'string' } },
  });
  const audit = new AuditLogRepository(ctx.mongo);
  if (values.session) {
    if (!SESSION_ID_PATTERN.test(values.session))
      throw new AppError('VALIDATION_ERROR', '--session must be a session id');
    return { session_id: values.session, events: await audit.forSession(values.session) };
  }
  if (values.account) return { account_id: values.account, events: await audit.forAccount(values.account) };
  throw new AppError('VALIDATION_ERROR', '--session <session_id> or --account <account_id> is required');
}

/** JSON by default; `--format csv` prints CSV text instead (one header line, one line per country and currency). */
export async function billingReportCommand(ctx: AdminContext, args: string[]): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      month: { type: 'string' },
      format: { type: 'string', default: 'json' },
    },
  });
  const accountId = requireValue(values.account, '--account');
  const month = requireValue(values.month, '--month');
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new AppError('VALIDATION_ERROR', '--month must be YYYY-MM');
  if (values.format !== 'json' && values.format !== 'csv')
    throw new AppError('VALIDATION_ERROR', '--format must be json or csv');
  const report = await billingReport(new BillingLedgerRepository(ctx.mongo), accountId, month);
  return values.format === 'csv' ? { raw: billingReportCsv(report) } : report;
}
