import { parseArgs } from 'node:util';
import { AppError } from '../../shared/app-error';
import type { AdminStores } from '../../compose-stores';

export const POLICY_USAGE = `  accounts set-policy --account <account_id> --known-face report|fail   (known_face: report only (default), or fail production sessions)`;

const KNOWN_FACE_POLICIES = ['report', 'fail'] as const;

/** `accounts set-policy`: what a face verified before under another identity does to the account's production sessions. */
export async function setPolicy(ctx: AdminStores, args: string[]) {
  const { values } = parseArgs({ args, options: { account: { type: 'string' }, 'known-face': { type: 'string' } } });
  if (!values.account) throw new AppError('VALIDATION_ERROR', '--account is required');
  const policy = values['known-face'];
  if (!KNOWN_FACE_POLICIES.includes(policy as (typeof KNOWN_FACE_POLICIES)[number]))
    throw new AppError('VALIDATION_ERROR', '--known-face must be report or fail');
  const found = await ctx.accounts.setKnownFacePolicy(values.account, policy as (typeof KNOWN_FACE_POLICIES)[number]);
  if (!found) throw AppError.notFound('account');
  return { account_id: values.account, known_face_policy: policy };
}
