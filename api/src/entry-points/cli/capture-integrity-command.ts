/**
 * `npm run admin -- accounts set-capture-integrity --account <id> --policy report|fail`: what a
 * flagged capture-integrity signal does for this account's production sessions
 * (docs/capture-integrity.md). Sandbox sessions report and never fail on it, whatever the policy.
 */
import { parseArgs } from 'node:util';
import type { AdminStores } from '../../compose-stores';
import { CAPTURE_INTEGRITY_POLICIES, CaptureIntegrityPolicy } from '../../domain/capture/capture-integrity';
import { AppError } from '../../shared/app-error';

export const CAPTURE_INTEGRITY_USAGE = `  accounts set-capture-integrity --account <account_id> --policy report|fail   (fail: a flagged production capture fails with CAPTURE_TAMPERED)`;

export async function setCaptureIntegrity(stores: Pick<AdminStores, 'accounts'>, args: string[]) {
  const { values } = parseArgs({ args, options: { account: { type: 'string' }, policy: { type: 'string' } } });
  if (!values.account) throw new AppError('VALIDATION_ERROR', '--account is required');
  const policy = values.policy as CaptureIntegrityPolicy;
  if (!CAPTURE_INTEGRITY_POLICIES.includes(policy))
    throw new AppError('VALIDATION_ERROR', `--policy must be one of ${CAPTURE_INTEGRITY_POLICIES.join(', ')}`);
  if (!(await stores.accounts.setCaptureIntegrityPolicy(values.account, policy))) throw AppError.notFound('account');
  return { account_id: values.account, capture_integrity_policy: policy };
}
