/**
 * Input checks that run before any request is sent. Each check takes a value and the field's
 * display name, returns the clean value, or throws InvalidInput; the router turns that into a
 * NodeOperationError naming the field and the item.
 */
export class InvalidInput extends Error {
	constructor(
		readonly field: string,
		readonly problem: string,
		readonly hint?: string,
	) {
		super(`Invalid "${field}": ${problem}`);
		this.name = 'InvalidInput';
	}
}

export const INT32_MAX = 2_147_483_647;
export const DEFAULT_MAX_TEXT_LENGTH = 500;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'number' && !Number.isFinite(value)) return `the number ${value}`;
	return typeof value === 'object' ? 'an object' : typeof value;
}

function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** Text that must be present: strings, or numbers (which expressions often give for IDs). */
export function requiredText(
	value: unknown,
	field: string,
	maxLength = DEFAULT_MAX_TEXT_LENGTH,
): string {
	if (isBlank(value)) throw new InvalidInput(field, 'is required and cannot be blank');
	return checkedText(value, field, maxLength);
}

/** Text that may be left empty; returns undefined when it is. */
export function optionalText(
	value: unknown,
	field: string,
	maxLength = DEFAULT_MAX_TEXT_LENGTH,
): string | undefined {
	if (isBlank(value)) return undefined;
	return checkedText(value, field, maxLength);
}

function checkedText(value: unknown, field: string, maxLength: number): string {
	if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
	if (typeof value !== 'string') {
		throw new InvalidInput(field, `must be text, but the value is ${describe(value)}`);
	}
	const text = value.trim();
	if (text.length > maxLength) {
		throw new InvalidInput(field, `is ${text.length} characters long; the maximum is ${maxLength}`);
	}
	return text;
}

export function requiredEmail(value: unknown, field: string): string {
	const text = requiredText(value, field, 254);
	if (!EMAIL.test(text)) {
		throw new InvalidInput(
			field,
			`"${text}" does not look like an email address (name@example.com)`,
		);
	}
	return text;
}

/** How a sheet or a CSV writes a number: digits, one decimal point, a sign. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A number, or text written as one ("1050", "10.50"). Text JavaScript would read as another
 * number ("1e3", "0x10") is refused, never paid as that number.
 */
function toNumber(value: unknown, field: string): number {
	if (typeof value === 'string' && value.trim() !== '') {
		const text = value.trim();
		value = Number(text);
		if (Number.isNaN(value)) {
			throw new InvalidInput(
				field,
				`must be a number, but the value is the text "${text.slice(0, 40)}"`,
			);
		}
		if (!PLAIN_NUMBER.test(text)) {
			throw new InvalidInput(
				field,
				`must be written as plain digits with at most one decimal point, such as 1050 or 10.50, not "${text.slice(0, 40)}"`,
			);
		}
	}
	if (typeof value !== 'number') {
		throw new InvalidInput(
			field,
			`must be a number, but the value is ${isBlank(value) ? 'empty' : describe(value)}`,
		);
	}
	if (!Number.isFinite(value))
		throw new InvalidInput(field, `must be a finite number, not ${value}`);
	return value;
}

/** A whole number above zero, e.g. an amount in minor units. */
export function positiveInteger(
	value: unknown,
	field: string,
	max = Number.MAX_SAFE_INTEGER,
): number {
	const number = toNumber(value, field);
	if (!Number.isInteger(number)) {
		throw new InvalidInput(
			field,
			`must be a whole number, not ${number}`,
			'Amounts in minor units have no decimals: 10.50 USD is 1050.',
		);
	}
	if (number <= 0) throw new InvalidInput(field, `must be greater than zero, not ${number}`);
	if (number > max) throw new InvalidInput(field, `must be at most ${max}, not ${number}`);
	return number;
}

/** A number (decimals allowed) within inclusive bounds. */
export function numberInRange(
	value: unknown,
	field: string,
	min: number,
	max: number,
	unit = '',
): number {
	const number = toNumber(value, field);
	const suffix = unit ? ` ${unit}` : '';
	if (number < min || number > max) {
		throw new InvalidInput(
			field,
			`must be between ${min} and ${max}${suffix}, not ${number}${suffix}`,
		);
	}
	return number;
}

export function integerInRange(value: unknown, field: string, min: number, max: number): number {
	const number = toNumber(value, field);
	if (!Number.isInteger(number) || number < min || number > max) {
		throw new InvalidInput(field, `must be a whole number from ${min} to ${max}, not ${number}`);
	}
	return number;
}

/** A calendar date written yyyy-mm-dd; with `past`, not later than today (e.g. a date of birth). */
export function isoDate(value: unknown, field: string, { past = false } = {}): string {
	const text = requiredText(value, field, 10);
	const match = ISO_DATE.exec(text);
	const date = match ? new Date(Date.UTC(+match[1], +match[2] - 1, +match[3])) : undefined;
	if (!match || !date || date.getUTCMonth() !== +match[2] - 1 || date.getUTCDate() !== +match[3]) {
		throw new InvalidInput(field, `"${text}" is not a valid date written yyyy-mm-dd`);
	}
	// Compared with the latest calendar date anywhere on earth (UTC+14), so no time zone is refused.
	const latestToday = new Date(Date.now() + 14 * 3600_000).toISOString().slice(0, 10);
	if (past && text > latestToday)
		throw new InvalidInput(field, `${text} is in the future; it must be in the past`);
	return text;
}

/**
 * A yes/no parameter. Expressions may give the text "true" or "false"; anything else (which a
 * plain `if` would read as yes) is refused.
 */
export function booleanFlag(value: unknown, field: string): boolean {
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
		return value.trim().toLowerCase() === 'true';
	throw new InvalidInput(
		field,
		`must be true or false, but the value is ${typeof value === 'string' ? `the text "${value.slice(0, 40)}"` : describe(value)}`,
	);
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return NOT_JSON;
	}
}

/** A JSON object given as an object (expressions) or as JSON text (the JSON editor). */
export function jsonObject(value: unknown, field: string): Record<string, unknown> {
	if (typeof value === 'string') {
		if (value.trim() === '') throw new InvalidInput(field, 'is required and cannot be blank');
		const parsed = parseJson(value);
		if (parsed === NOT_JSON) throw new InvalidInput(field, 'is not valid JSON');
		value = parsed;
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new InvalidInput(field, `must be a JSON object, but the value is ${describe(value)}`);
	}
	return value as Record<string, unknown>;
}

const CURRENCY_CODE = /^[A-Za-z]{3}$/;
const PHONE = /^\+?[\d\s()-]{4,20}$/;
const DIAL_CODE = /^\+?\d{1,4}$/;
const COUNTRY_CODE = /^[A-Za-z]{2}$/;
const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

/** A three-letter currency code (USD, NGN, …), returned in upper case. */
export function currencyCode(value: unknown, field: string): string {
	const text = requiredText(value, field, 10);
	if (!CURRENCY_CODE.test(text)) {
		throw new InvalidInput(
			field,
			`"${text}" is not a three-letter currency code`,
			'Use an ISO 4217 code such as USD, NGN or KES.',
		);
	}
	return text.toUpperCase();
}

/** A two-letter country code (KE, NG, …), returned in upper case. */
export function countryCode(value: unknown, field: string): string {
	const text = requiredText(value, field, 10);
	if (!COUNTRY_CODE.test(text)) {
		throw new InvalidInput(
			field,
			`"${text}" is not a two-letter country code`,
			'Use an ISO 3166-1 alpha-2 code such as KE, NG or GH.',
		);
	}
	return text.toUpperCase();
}

/** An absolute http(s) address, e.g. a callback URL. */
export function httpUrl(value: unknown, field: string): string {
	const text = requiredText(value, field, 2048);
	if (!HTTP_URL.test(text)) {
		throw new InvalidInput(field, `"${text}" is not an http:// or https:// address`);
	}
	return text;
}

/** An optional phone number: digits, spaces, brackets and dashes, an optional leading +. */
export function optionalPhone(value: unknown, field: string): string | undefined {
	const text = optionalText(value, field, 32);
	if (text !== undefined && !PHONE.test(text)) {
		throw new InvalidInput(
			field,
			`"${text}" is not a phone number`,
			'Use digits, e.g. 0712345678 or +254 712 345678.',
		);
	}
	return text;
}

/** An optional international dialling code: 1 to 4 digits, with or without a leading +. */
export function optionalDialCode(value: unknown, field: string): string | undefined {
	const text = optionalText(value, field, 8);
	if (text !== undefined && !DIAL_CODE.test(text)) {
		throw new InvalidInput(
			field,
			`"${text}" is not a dial code`,
			'Use the country’s calling code, e.g. +254 or 234.',
		);
	}
	return text;
}
