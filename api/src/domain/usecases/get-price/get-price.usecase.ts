import countries from 'i18n-iso-countries';
import { AppError } from '../../../shared/app-error';
import { Tenant } from '../../environment';
import plansFile from '../../pricing/plans.json';
import pricesFile from '../../pricing/prices.json';

const prices: Record<string, { currency: string; unit_amount: number }> = pricesFile.prices;
const plans: Record<string, number> = plansFile.plans;

export const PLANS = Object.keys(plans);

export function getPrice(tenant: Tenant, countryParam: string) {
  const country = countryParam.toUpperCase();
  if (!/^[A-Z]{2}$/.test(country) || !countries.isValid(country)) {
    throw new AppError('VALIDATION_ERROR', 'The country is not an ISO 3166-1 alpha-2 code.', [
      { field: 'country', message: 'must be a two-letter ISO 3166-1 alpha-2 code' },
    ]);
  }
  const price = prices[country];
  if (!price) throw AppError.notFound('price for that country');
  const multiplier = plans[tenant.plan] ?? 1;
  return {
    country,
    currency: price.currency,
    unit_amount: Math.round(price.unit_amount * multiplier),
    environment: tenant.environment,
    billed: tenant.environment === 'production',
  };
}
