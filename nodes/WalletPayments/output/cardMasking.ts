import type { IDataObject } from 'n8n-workflow';

/** Keys whose values are full card numbers or security codes. */
const CARD_NUMBER_KEYS = new Set(['cardNumber', 'pan']);
const SECURITY_CODE_KEYS = new Set(['cvv', 'cvv2', 'cvc']);

export const REVEAL_CARD_DETAILS_HINT =
	'Executions store their output data in n8n’s database. Only turn this on if a later node needs the full card number and CVV.';

/** "5399838383838381" → "************8381": only the last four digits stay readable. */
function maskCardNumber(value: unknown): unknown {
	if (typeof value !== 'string' && typeof value !== 'number') return value;
	const digits = String(value).replace(/\D/g, '');
	if (digits.length === 0) return value;
	const visible = digits.length > 4 ? digits.slice(-4) : '';
	return `${'*'.repeat(digits.length - visible.length)}${visible}`;
}

function maskSecurityCode(value: unknown): unknown {
	return value === null || value === undefined || value === '' ? value : '***';
}

function maskValue(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(maskValue);
	if (typeof value !== 'object' || value === null) return value;
	const masked: IDataObject = {};
	for (const [key, inner] of Object.entries(value as IDataObject)) {
		if (CARD_NUMBER_KEYS.has(key)) masked[key] = maskCardNumber(inner) as IDataObject[string];
		else if (SECURITY_CODE_KEYS.has(key))
			masked[key] = maskSecurityCode(inner) as IDataObject[string];
		else masked[key] = maskValue(inner) as IDataObject[string];
	}
	return masked;
}

/**
 * Masks card details in any card-shaped output (a card, a list of cards, or anything holding
 * one): the card number keeps only its last four digits, the CVV becomes "***". Returns a copy;
 * with `reveal` the data is returned unchanged.
 */
export function maskCardDetails<T extends IDataObject | IDataObject[]>(data: T, reveal = false): T {
	return reveal ? data : (maskValue(data) as T);
}
