import { randomBytes } from 'node:crypto';
import { randomBase62 } from '../../../shared/random-id';
import { Environment, KEY_PREFIX } from '../../environment';

/** 40 base62 characters ≈ 238 bits: a key only ever stored as its SHA-256. */
export const newApiKey = (environment: Environment): string => `${KEY_PREFIX[environment]}${randomBase62(40)}`;

/** The Standard Webhooks secret format: whsec_ + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
