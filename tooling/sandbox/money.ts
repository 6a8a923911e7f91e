/**
 * Currencies, exchange rates, fees and unit conversion. Every currency has two decimals.
 */

/** Units of each currency per 1 USD. */
const USD_RATES: Record<string, number> = {
	USD: 1,
	NGN: 1500,
	KES: 130,
	GHS: 15,
	ZAR: 18,
	EUR: 0.9,
	GBP: 0.8,
};

export const CURRENCIES = Object.keys(USD_RATES);

/** Starting balance of every wallet, in minor units (10,000,000.00). */
export const INITIAL_WALLET_BALANCE_MINOR = 1_000_000_000;

/** Payout fee: 1% of the amount. */
const PAYOUT_FEE_RATE = 0.01;
/** Swap fee: 0.5% of the source amount. */
const SWAP_FEE_RATE = 0.005;

export function isCurrency(code: string): boolean {
	return Object.prototype.hasOwnProperty.call(USD_RATES, code.toUpperCase());
}

/** Units of `to` per one unit of `from`, rounded to 6 decimals. */
export function exchangeRate(from: string, to: string): number {
	const rate = USD_RATES[to.toUpperCase()] / USD_RATES[from.toUpperCase()];
	return Math.round(rate * 1e6) / 1e6;
}

export const round2 = (value: number): number => Math.round(value * 100) / 100;
export const toMajor = (minor: number): number => minor / 100;
export const toMinor = (major: number): number => Math.round(major * 100);
/** Minor units as a major-unit string with two decimals: 12345 → "123.45". */
export const majorString = (minor: number): string => (minor / 100).toFixed(2);

export const payoutFeeMinor = (amountMinor: number): number => Math.round(amountMinor * PAYOUT_FEE_RATE);
export const swapFeeMajor = (amountMajor: number): number => round2(amountMajor * SWAP_FEE_RATE);
