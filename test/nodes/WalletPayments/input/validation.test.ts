/**
 * The input checks (input/validation.ts): each returns the clean value or throws InvalidInput
 * naming the field and the problem, before any request is sent.
 */
import {
	booleanFlag,
	countryCode,
	currencyCode,
	httpUrl,
	integerInRange,
	InvalidInput,
	isoDate,
	jsonObject,
	numberInRange,
	optionalDialCode,
	optionalPhone,
	optionalText,
	positiveInteger,
	requiredEmail,
	requiredText,
} from '../../../../nodes/WalletPayments/input/validation';

/** The InvalidInput a check throws, or a failure when it throws none. */
function refusal(check: () => unknown): InvalidInput {
	try {
		check();
	} catch (error) {
		expect(error).toBeInstanceOf(InvalidInput);
		return error as InvalidInput;
	}
	throw new Error('the check accepted the value');
}

test('text: trimmed, numbers taken as text, blank refused or undefined, length bounded', () => {
	expect(requiredText('  Jane ', 'Name')).toBe('Jane');
	expect(requiredText(42, 'Customer ID')).toBe('42');
	expect(optionalText('   ', 'Note')).toBeUndefined();
	expect(refusal(() => requiredText(' ', 'Name')).message).toBe('Invalid "Name": is required and cannot be blank');
	expect(refusal(() => requiredText({}, 'Name')).problem).toBe('must be text, but the value is an object');
	expect(refusal(() => requiredText('abcdef', 'Code', 5)).problem).toBe('is 6 characters long; the maximum is 5');
});

test('email: a name, an @ and a domain', () => {
	expect(requiredEmail(' payee@example.com ', 'Email')).toBe('payee@example.com');
	expect(refusal(() => requiredEmail('payee@example', 'Email')).problem).toContain('does not look like an email address');
});

test('whole numbers above zero: text read as a number, decimals refused with the minor-units hint', () => {
	expect(positiveInteger('1050', 'Amount')).toBe(1050);
	const decimal = refusal(() => positiveInteger(10.5, 'Amount'));
	expect(decimal.problem).toBe('must be a whole number, not 10.5');
	expect(decimal.hint).toContain('10.50 USD is 1050');
	expect(refusal(() => positiveInteger(0, 'Amount')).problem).toBe('must be greater than zero, not 0');
	expect(refusal(() => positiveInteger(11, 'Amount', 10)).problem).toBe('must be at most 10, not 11');
	expect(refusal(() => positiveInteger('ten', 'Amount')).problem).toBe('must be a number, but the value is the text "ten"');
	expect(refusal(() => positiveInteger(undefined, 'Amount')).problem).toBe('must be a number, but the value is empty');
	expect(refusal(() => positiveInteger(Infinity, 'Amount')).problem).toBe('must be a finite number, not Infinity');
});

test('numbers in a range, with their unit; whole numbers in a range', () => {
	expect(numberInRange('2.5', 'Top-up', 1, 10, 'USD')).toBe(2.5);
	expect(refusal(() => numberInRange(11, 'Top-up', 1, 10, 'USD')).problem).toBe('must be between 1 and 10 USD, not 11 USD');
	expect(integerInRange(3, 'Limit', 1, 5)).toBe(3);
	expect(refusal(() => integerInRange(2.5, 'Limit', 1, 5)).problem).toBe('must be a whole number from 1 to 5, not 2.5');
});

test('dates: yyyy-mm-dd that exist; in the past when asked', () => {
	expect(isoDate('1990-02-28', 'Date of Birth', { past: true })).toBe('1990-02-28');
	expect(refusal(() => isoDate('1990-02-30', 'Date of Birth')).problem).toBe('"1990-02-30" is not a valid date written yyyy-mm-dd');
	expect(refusal(() => isoDate('2999-01-01', 'Date of Birth', { past: true })).problem).toBe('2999-01-01 is in the future; it must be in the past');
	expect(isoDate('2999-01-01', 'Start')).toBe('2999-01-01');
});

test('yes/no: booleans and the texts true/false; anything else refused', () => {
	expect(booleanFlag(true, 'Flag')).toBe(true);
	expect(booleanFlag(' FALSE ', 'Flag')).toBe(false);
	expect(refusal(() => booleanFlag('yes', 'Flag')).problem).toBe('must be true or false, but the value is the text "yes"');
	expect(refusal(() => booleanFlag(1, 'Flag')).problem).toBe('must be true or false, but the value is number');
});

test('JSON objects: an object or its text; lists, blanks and bad JSON refused', () => {
	expect(jsonObject('{"a":1}', 'Metadata')).toEqual({ a: 1 });
	expect(jsonObject({ b: 2 }, 'Metadata')).toEqual({ b: 2 });
	expect(refusal(() => jsonObject('{a:1}', 'Metadata')).problem).toBe('is not valid JSON');
	expect(refusal(() => jsonObject('[1]', 'Metadata')).problem).toBe('must be a JSON object, but the value is a list');
	expect(refusal(() => jsonObject(' ', 'Metadata')).problem).toBe('is required and cannot be blank');
});

test('codes and addresses: currency and country in upper case, http(s) addresses, phones, dial codes', () => {
	expect(currencyCode('kes', 'Currency')).toBe('KES');
	expect(refusal(() => currencyCode('KESH', 'Currency')).hint).toContain('ISO 4217');
	expect(countryCode('ke', 'Country')).toBe('KE');
	expect(refusal(() => countryCode('KEN', 'Country')).problem).toBe('"KEN" is not a two-letter country code');
	expect(httpUrl('https://example.com/hook?a=1', 'Callback URL')).toBe('https://example.com/hook?a=1');
	expect(refusal(() => httpUrl('ftp://example.com', 'Callback URL')).problem).toBe('"ftp://example.com" is not an http:// or https:// address');
	expect(optionalPhone('+254 712 345678', 'Phone')).toBe('+254 712 345678');
	expect(optionalPhone('', 'Phone')).toBeUndefined();
	expect(refusal(() => optionalPhone('call me', 'Phone')).problem).toBe('"call me" is not a phone number');
	expect(optionalDialCode('+254', 'Dial Code')).toBe('+254');
	expect(refusal(() => optionalDialCode('+25412', 'Dial Code')).problem).toBe('"+25412" is not a dial code');
});
