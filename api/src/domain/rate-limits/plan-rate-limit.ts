import plansFile from '../pricing/plans.json';
import { Tenant } from '../environment';

export interface RateLimit {
  /** Requests allowed per window, per API key. */
  points: number;
  windowSeconds: number;
  /** Names the counter family; keys of another plan or environment never share a counter. */
  name: string;
}

type PlanLimits = Record<string, { production: number; sandbox: number }>;
const { window_seconds: windowSeconds, ...entries } = plansFile.rate_limits;
// The file's own note sits beside the plans; it is not a plan.
const limits = Object.fromEntries(
  Object.entries(entries).filter(([key]) => key !== '_comment'),
) as unknown as PlanLimits;

/** An account on a plan missing from the table gets the smallest (starter) limits rather than none. */
export function rateLimitFor(tenant: Pick<Tenant, 'plan' | 'environment'>): RateLimit {
  const plan = limits[tenant.plan] ? tenant.plan : 'starter';
  return { points: limits[plan][tenant.environment], windowSeconds, name: `${plan}.${tenant.environment}` };
}

/** The plan table in words, for the OpenAPI document (the README holds the same table). */
export function describeRateLimits(): string {
  const rows = Object.entries(limits).map(([plan, l]) => `${plan} ${l.production} / ${l.sandbox}`);
  return `Requests per API key per ${windowSeconds} s, by plan (production / sandbox): ${rows.join(', ')}. Health, readiness, hosted pages, credentials, /docs and the capture API are not limited by key.`;
}
