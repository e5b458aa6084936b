import plansFile from './plans.json';
import pricesFile from './prices.json';

const prices: Record<string, { currency: string; unit_amount: number }> = pricesFile.prices;
const plans: Record<string, number> = plansFile.plans;

export const PLANS = Object.keys(plans);

/** Billed when neither the document's country nor the account's default has a price (plans.json). */
export const FALLBACK_BILLING_COUNTRY: string = plansFile.billing.fallback_country;

/** A plan's price for one production verification in a country: the list price times the plan's multiplier, in minor units. */
export function priceFor(plan: string, country: string): { currency: string; unit_amount: number } | null {
  const price = prices[country];
  if (!price) return null;
  return { currency: price.currency, unit_amount: Math.round(price.unit_amount * (plans[plan] ?? 1)) };
}
