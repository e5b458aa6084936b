import countries from 'i18n-iso-countries';
import { AppError } from '../../../shared/app-error';
import { Tenant } from '../../environment';
import { PLANS, priceFor } from '../../pricing/price-for';

export { PLANS };

export function getPrice(tenant: Tenant, countryParam: string) {
  const country = countryParam.toUpperCase();
  if (!/^[A-Z]{2}$/.test(country) || !countries.isValid(country)) {
    throw new AppError('VALIDATION_ERROR', 'The country is not an ISO 3166-1 alpha-2 code.', [
      { field: 'country', message: 'must be a two-letter ISO 3166-1 alpha-2 code' },
    ]);
  }
  const price = priceFor(tenant.plan, country);
  if (!price) throw AppError.notFound('price for that country');
  return {
    country,
    currency: price.currency,
    unit_amount: price.unit_amount,
    environment: tenant.environment,
    billed: tenant.environment === 'production',
  };
}
