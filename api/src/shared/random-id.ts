import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** base62 from a CSPRNG; `length` characters carry length × 5.95 bits. */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += BASE62[randomInt(62)];
  return out;
}

/** 24 base62 characters ≈ 142 bits: the session id is the capability in verification_url. */
export const newSessionId = (): string => `ses_${randomBase62(24)}`;
export const newAccountId = (): string => `acct_${randomBase62(20)}`;
export const newCredentialToken = (): string => `cred_${randomBase62(32)}`;
/** The webhook-id of one decision's delivery; it names the attempt so receivers can tell attempts apart at a glance. */
export const newDeliveryId = (attempt = 1): string => `msg_${randomBase62(24)}_a${attempt}`;

export const SESSION_ID_PATTERN = /^ses_[0-9A-Za-z]{22,}$/;
/** The capture token binding a session's capture to one device: 32 base62 characters ≈ 190 bits. */
export const newCaptureToken = (): string => `cap_${randomBase62(32)}`;
/** A paced challenge and each of its steps: opaque, unguessable, so a step cannot be named before it is revealed. */
export const newPacedChallengeId = (): string => `pch_${randomBase62(22)}`;
export const newPacedStepId = (): string => `stp_${randomBase62(22)}`;
