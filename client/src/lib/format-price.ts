const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** `22.3` → `$22.30`, `1234.5` → `$1,234.50`. */
export function formatPrice(price: number): string {
  return usd.format(price);
}
