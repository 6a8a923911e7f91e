import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InvalidInput, positiveInteger, requiredText } from './validation';

/**
 * Amount Unit: payouts and collections take minor units (1 USD is sent as 100). Users may
 * type major units instead; the node converts them with the currency's ISO 4217 exponent,
 * exactly (decimal text, never floating-point arithmetic) and never rounding.
 */
export const MINOR_LABEL = 'Amount (Minor Units)';
export const MAJOR_LABEL = 'Amount (Major Units)';

export type AmountUnit = 'minor' | 'major';

/**
 * The Amount Unit selector and the amount field, whose label always states its unit:
 * "Amount (Minor Units)" or "Amount (Major Units)". `currencyField` names the field whose
 * currency the amount is in; `examples` shows the two units side by side.
 */
export function amountProperties(options: {
	currencyField: string;
	purpose: string;
	minorExample: string;
	majorExample: string;
	max?: number;
}): INodeProperties[] {
	const { currencyField, purpose, minorExample, majorExample, max } = options;
	const limit = max ? ` At most ${max} minor units.` : '';
	const minorDescription = `${purpose}, in minor units of the ${currencyField} (a whole number): ${minorExample}.${limit}`;
	const majorDescription = `${purpose}, in major units of the ${currencyField}: ${majorExample}.${limit} The node sends it in minor units; an amount with more decimals than the currency has is refused, never rounded.`;
	return [
		{
			displayName: 'Amount Unit',
			name: 'amountUnit',
			type: 'options',
			options: [
				{
					name: 'Major Units',
					value: 'major',
					description: `Whole currency with decimals, e.g. ${majorExample}; converted to minor units with the currency's decimals (USD 2, JPY 0, KWD 3)`,
				},
				{
					name: 'Minor Units',
					value: 'minor',
					description: `As the API takes it, e.g. ${minorExample} (cents, kobo)`,
				},
			],
			default: 'minor',
			description: `Whether the amount is in minor units (as the API takes it) or in major units of the ${currencyField}`,
		},
		{
			displayName: MINOR_LABEL,
			name: 'amount',
			type: 'number',
			required: true,
			default: 0,
			description: minorDescription,
			displayOptions: { show: { amountUnit: ['minor'] } },
		},
		{
			displayName: MAJOR_LABEL,
			name: 'amount',
			type: 'number',
			required: true,
			default: 0,
			description: majorDescription,
			displayOptions: { show: { amountUnit: ['major'] } },
		},
	];
}

const exponents = new Map<string, number>();

/** The number of decimals (ISO 4217 minor-unit exponent) of a currency: USD 2, JPY 0, KWD 3. */
export function currencyExponent(currency: string): number {
	const code = currency.toUpperCase();
	let exponent = exponents.get(code);
	if (exponent === undefined) {
		exponent =
			new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
				.maximumFractionDigits ?? 2;
		exponents.set(code, exponent);
	}
	return exponent;
}

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

const decimalCount = (count: number) => `${count} decimal${count === 1 ? '' : 's'}`;

function decimalsText(decimals: number): string {
	return decimals === 0 ? 'no decimals' : `at most ${decimalCount(decimals)}`;
}

/**
 * A major-unit amount as an exact whole number of minor units: "10.50" USD → 1050,
 * 0.29 USD → 29, "1500" JPY → 1500, "1.234" KWD → 1234. More decimals than the currency
 * has (trailing zeros aside) is refused, never rounded.
 */
export function majorToMinor(
	value: unknown,
	currency: string,
	max = Number.MAX_SAFE_INTEGER,
	{ unitSwitch = true }: { unitSwitch?: boolean } = {},
): number {
	const field = MAJOR_LABEL;
	const code = currency.toUpperCase();
	const exponent = currencyExponent(code);
	const hint = `${code} has ${decimalsText(exponent)} (1 ${code} = ${10 ** exponent} minor units).${unitSwitch ? ' Or set Amount Unit to Minor Units.' : ''}`;
	if (typeof value === 'number' && !Number.isFinite(value)) {
		throw new InvalidInput(field, `must be a finite number, not ${value}`);
	}
	const text = requiredText(value, field, 40);
	const match = PLAIN_DECIMAL.exec(text);
	if (!match) {
		const problem = Number.isNaN(Number(text))
			? `must be a number, but the value is the text "${text}"`
			: `must be a positive decimal number such as 10.50, not ${text}`;
		throw new InvalidInput(field, problem, hint);
	}
	const whole = match[1];
	const fraction = (match[2] ?? '').replace(/0+$/, '');
	if (fraction.length > exponent) {
		throw new InvalidInput(
			field,
			`${text} ${code} has ${decimalCount(fraction.length)}, but ${code} has ${decimalsText(exponent)}; the node does not round`,
			hint,
		);
	}
	const minorText = `${whole}${fraction.padEnd(exponent, '0')}`.replace(/^0+(?=\d)/, '');
	const minor = Number(minorText);
	if (minor === 0) throw new InvalidInput(field, `must be greater than zero, not ${text}`);
	if (!Number.isSafeInteger(minor) || minor > max) {
		throw new InvalidInput(
			field,
			`${text} ${code} is ${minorText} minor units; the maximum is ${max} minor units`,
		);
	}
	return minor;
}

/**
 * A major-unit amount as the text an endpoint that takes major units wants, with exactly the
 * currency's decimals: 10.5 USD → "10.50", 1500 JPY → "1500", 1.2 KWD → "1.200". Checked as
 * majorToMinor checks it (more decimals than the currency has is refused, never rounded).
 */
export function majorAmountText(value: unknown, currency: string): string {
	const exponent = currencyExponent(currency);
	const minor = String(
		majorToMinor(value, currency, Number.MAX_SAFE_INTEGER, { unitSwitch: false }),
	).padStart(exponent + 1, '0');
	return exponent === 0 ? minor : `${minor.slice(0, -exponent)}.${minor.slice(-exponent)}`;
}

/** 123456 USD minor units → 1234.56. */
export const minorToMajor = (minor: number, currency: string): number =>
	minor / 10 ** currencyExponent(currency);

/** 123456 USD minor units → "1,234.56 USD". */
export function majorText(minor: number, currency: string): string {
	const exponent = currencyExponent(currency);
	const amount = minorToMajor(minor, currency).toLocaleString('en-US', {
		minimumFractionDigits: exponent,
		maximumFractionDigits: exponent,
	});
	return `${amount} ${currency}`;
}

/**
 * Reads the Amount Unit and the amount of one item and returns minor units, as the API takes
 * them. `max` (e.g. int32 for the legacy payout) applies after conversion.
 */
export function readMinorAmount(
	context: IExecuteFunctions,
	itemIndex: number,
	currency: string,
	max = Number.MAX_SAFE_INTEGER,
): number {
	const unit = context.getNodeParameter('amountUnit', itemIndex, 'minor') as AmountUnit;
	if (unit !== 'minor' && unit !== 'major') {
		throw new InvalidInput('Amount Unit', `"${String(unit)}" is not Minor Units or Major Units`);
	}
	const amount = context.getNodeParameter('amount', itemIndex);
	return unit === 'major'
		? majorToMinor(amount, currency, max)
		: positiveInteger(amount, MINOR_LABEL, max);
}
