/** Minor units as people read them: 2500 EUR is €25.00, 5000 JPY ¥5,000 (the browser knows each currency's decimals). */
export function formatMoney(amount: number, currency: string): string {
  try {
    const digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount / 10 ** digits);
  } catch {
    return `${currency} ${amount}`;
  }
}

/** An amount typed by a person (25.50) in the currency's minor units (2550), or NaN. */
export function toMinorUnits(text: string, currency: string): number {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) ? Math.round(value * 10 ** digits) : Number.NaN;
}
