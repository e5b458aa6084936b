import { LedgerReader } from '../../ports/billing-ledger';

export interface BillingTotal {
  country: string;
  currency: string;
  verifications: number;
  amount: number;
}

/** `billing report`: one account's month, totalled by country and currency (amounts in minor units). */
export async function billingReport(ledger: LedgerReader, accountId: string, month: string) {
  const entries = await ledger.forAccountMonth(accountId, month);
  const totals = new Map<string, BillingTotal>();
  for (const entry of entries) {
    const key = `${entry.country}|${entry.currency}`;
    const total = totals.get(key) ?? {
      country: entry.country,
      currency: entry.currency,
      verifications: 0,
      amount: 0,
    };
    total.verifications += 1;
    total.amount += entry.amount;
    totals.set(key, total);
  }
  const byCountry = [...totals.values()].sort(
    (a, b) => a.country.localeCompare(b.country) || a.currency.localeCompare(b.currency),
  );
  const byCurrency = new Map<string, number>();
  for (const t of byCountry) byCurrency.set(t.currency, (byCurrency.get(t.currency) ?? 0) + t.amount);
  return {
    account_id: accountId,
    month,
    verifications: entries.length,
    totals: byCountry,
    totals_by_currency: [...byCurrency.entries()].sort().map(([currency, amount]) => ({ currency, amount })),
  };
}

export function billingReportCsv(report: Awaited<ReturnType<typeof billingReport>>): string {
  const rows = [
    'account_id,month,country,currency,verifications,amount',
    ...report.totals.map((t) =>
      [report.account_id, report.month, t.country, t.currency, t.verifications, t.amount].join(','),
    ),
  ];
  return `${rows.join('\n')}\n`;
}
