/**
 * Reads fields from a JSON body, collecting every problem as a message naming the field.
 * Call `done()` to throw a 400 with all messages; values read before that are only
 * meaningful when there were no errors.
 */
import { badRequest } from './errors';

export type JsonObject = Record<string, unknown>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMERIC = /^\d+(\.\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const INT32_MAX = 2147483647;

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isEmail(value: string): boolean {
	return EMAIL.test(value);
}

/** A number, or a string holding a plain non-negative decimal number. */
export function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value.trim());
	return undefined;
}

export function isValidIsoDate(value: string): boolean {
	const m = ISO_DATE.exec(value);
	if (!m) return false;
	const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
	return date.toISOString().slice(0, 10) === value;
}

export class BodyReader {
	constructor(
		private readonly body: JsonObject,
		private readonly prefix = '',
		readonly errors: string[] = [],
	) {}

	name(field: string): string {
		return this.prefix + field;
	}

	/** Present: not undefined, null or a blank string. */
	has(field: string): boolean {
		const value = this.body[field];
		return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
	}

	fail(message: string): void {
		this.errors.push(message);
	}

	done(): void {
		if (this.errors.length > 0) throw badRequest(this.errors);
	}

	private missing(field: string, required: boolean): boolean {
		if (this.has(field)) return false;
		if (required) this.fail(`${this.name(field)} is required`);
		return true;
	}

	optionalString(field: string): string | undefined {
		if (this.missing(field, false)) return undefined;
		const value = this.body[field];
		if (typeof value !== 'string') {
			this.fail(`${this.name(field)} must be a string`);
			return undefined;
		}
		return value.trim();
	}

	requiredString(field: string): string {
		if (this.missing(field, true)) return '';
		return this.optionalString(field) ?? '';
	}

	/** A string or a number, read as a string (e.g. a reference). */
	requiredText(field: string): string {
		if (this.missing(field, true)) return '';
		const value = this.body[field];
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
		return this.optionalString(field) ?? '';
	}

	email(field: string, required = true): string | undefined {
		if (this.missing(field, required)) return undefined;
		const value = this.optionalString(field);
		if (value !== undefined && !isEmail(value)) {
			this.fail(`${this.name(field)} must be a valid email address`);
		}
		return value?.toLowerCase();
	}

	/** A JSON number that is a positive integer no greater than `max`. */
	positiveInteger(field: string, max = Number.MAX_SAFE_INTEGER): number {
		if (this.missing(field, true)) return 0;
		const value = this.body[field];
		if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > max) {
			const limit = max === INT32_MAX ? ' of at most 2147483647' : '';
			this.fail(`${this.name(field)} must be a positive integer${limit}`);
			return 0;
		}
		return value;
	}

	/** A number or numeric string greater than zero. */
	positiveNumber(field: string): number {
		if (this.missing(field, true)) return 0;
		const value = toNumber(this.body[field]);
		if (value === undefined || value <= 0) {
			this.fail(`${this.name(field)} must be a positive number`);
			return 0;
		}
		return value;
	}

	/** A number or numeric string within [min, max]. */
	numberInRange(field: string, min: number, max: number): number {
		if (this.missing(field, true)) return 0;
		const value = toNumber(this.body[field]);
		if (value === undefined || value < min || value > max) {
			this.fail(`${this.name(field)} must be a number between ${min} and ${max}`);
			return 0;
		}
		return value;
	}

	httpUrl(field: string, required: boolean): string | undefined {
		if (this.missing(field, required)) return undefined;
		const value = this.optionalString(field);
		if (value === undefined) return undefined;
		try {
			const url = new URL(value);
			if (url.protocol === 'http:' || url.protocol === 'https:') return value;
		} catch {
			// reported below
		}
		this.fail(`${this.name(field)} must be a valid http(s) URL`);
		return undefined;
	}

	isoDate(field: string, required: boolean): string | undefined {
		if (this.missing(field, required)) return undefined;
		const value = this.optionalString(field);
		if (value !== undefined && !isValidIsoDate(value)) {
			this.fail(`${this.name(field)} must be a valid date in yyyy-mm-dd format`);
		}
		return value;
	}

	object(field: string, required: boolean): JsonObject | undefined {
		if (this.missing(field, required)) return undefined;
		const value = this.body[field];
		if (!isObject(value)) {
			this.fail(`${this.name(field)} must be an object`);
			return undefined;
		}
		return value;
	}

	/** A reader over a nested object whose messages are prefixed `field.`. */
	nested(body: JsonObject, field: string): BodyReader {
		return new BodyReader(body, `${this.name(field)}.`, this.errors);
	}
}
