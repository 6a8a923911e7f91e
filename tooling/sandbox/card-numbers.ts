/**
 * Card number, CVV and validity generation for issued virtual cards.
 */
import { randomDigits } from './state';

/** The Luhn check digit for a number without it. */
export function luhnCheckDigit(partial: string): string {
	let sum = 0;
	for (let i = 0; i < partial.length; i++) {
		// Doubling starts from the right-most digit of the partial number.
		let digit = Number(partial[partial.length - 1 - i]);
		if (i % 2 === 0) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return String((10 - (sum % 10)) % 10);
}

export function isLuhnValid(number: string): boolean {
	return /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === number.slice(-1);
}

/** A 16-digit Luhn-valid number: mastercard starts with 5, every other brand with 4. */
export function generateCardNumber(brand: string): string {
	const partial = (brand === 'mastercard' ? '5' : '4') + randomDigits(14);
	return partial + luhnCheckDigit(partial);
}

export interface CardValidity {
	/** ISO timestamp: the last day of the expiry month. */
	expiry: string;
	/** MM/YYYY */
	valid: string;
}

/** Cards are valid for three years from issue. */
export function cardValidity(issuedAt: Date): CardValidity {
	const year = issuedAt.getUTCFullYear() + 3;
	const month = issuedAt.getUTCMonth() + 1;
	const lastDay = new Date(Date.UTC(year, month, 0, 23, 59, 59));
	return { expiry: lastDay.toISOString(), valid: `${String(month).padStart(2, '0')}/${year}` };
}

export const generateCvv = (): string => randomDigits(3);
