/**
 * Field readers shared by several route files.
 */
import { CURRENCIES, isCurrency } from '../money';
import type { BodyReader } from '../validation';

/** A required wallet currency code, any case; returned upper case. */
export function readCurrency(reader: BodyReader, field: string): string {
	const value = reader.requiredString(field).toUpperCase();
	if (value && !isCurrency(value)) {
		reader.fail(`${reader.name(field)} must be one of ${CURRENCIES.join(', ')}`);
	}
	return value;
}
