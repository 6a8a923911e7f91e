/**
 * Amounts and units (input/units.ts): major units become exact minor units by each currency's
 * decimals, never rounded; minor units are whole numbers; the text forms.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import {
	currencyExponent,
	majorAmountText,
	majorText,
	majorToMinor,
	readMinorAmount,
} from '../../../../nodes/WalletPayments/input/units';
import { InvalidInput } from '../../../../nodes/WalletPayments/input/validation';

const problemOf = (check: () => unknown) => {
	try {
		check();
	} catch (error) {
		expect(error).toBeInstanceOf(InvalidInput);
		return (error as InvalidInput).problem;
	}
	throw new Error('the check accepted the value');
};

test("each currency's decimals: USD 2, JPY 0, KWD 3", () => {
	expect([currencyExponent('usd'), currencyExponent('JPY'), currencyExponent('KWD')]).toEqual([2, 0, 3]);
});

test('major to minor units: exact, trailing zeros allowed, more decimals refused (never rounded)', () => {
	expect(majorToMinor('10.50', 'USD')).toBe(1050);
	expect(majorToMinor(0.29, 'USD')).toBe(29);
	expect(majorToMinor('1500', 'JPY')).toBe(1500);
	expect(majorToMinor('1.234', 'KWD')).toBe(1234);
	expect(majorToMinor('10.500', 'USD')).toBe(1050);
	expect(problemOf(() => majorToMinor('10.505', 'USD'))).toBe('10.505 USD has 3 decimals, but USD has at most 2 decimals; the node does not round');
	expect(problemOf(() => majorToMinor('1.5', 'JPY'))).toBe('1.5 JPY has 1 decimal, but JPY has no decimals; the node does not round');
	expect(problemOf(() => majorToMinor('0.00', 'USD'))).toBe('must be greater than zero, not 0.00');
	expect(problemOf(() => majorToMinor('-5', 'USD'))).toBe('must be a positive decimal number such as 10.50, not -5');
	expect(problemOf(() => majorToMinor('ten', 'USD'))).toBe('must be a number, but the value is the text "ten"');
	expect(problemOf(() => majorToMinor('21474836.48', 'USD', 2_147_483_647))).toBe('21474836.48 USD is 2147483648 minor units; the maximum is 2147483647 minor units');
});

test('major units as text with exactly the currency decimals; minor units as readable text', () => {
	expect(majorAmountText(10.5, 'USD')).toBe('10.50');
	expect(majorAmountText('0.05', 'USD')).toBe('0.05');
	expect(majorAmountText(1500, 'JPY')).toBe('1500');
	expect(majorAmountText('1.2', 'KWD')).toBe('1.200');
	expect(majorText(123456, 'USD')).toBe('1,234.56 USD');
	expect(majorText(1500, 'JPY')).toBe('1,500 JPY');
});

test("an item's amount by its Amount Unit", () => {
	const item = (parameters: Record<string, unknown>) =>
		({ getNodeParameter: (name: string, _item: number, fallback?: unknown) => parameters[name] ?? fallback }) as unknown as IExecuteFunctions;
	expect(readMinorAmount(item({ amount: 1050 }), 0, 'USD')).toBe(1050);
	expect(readMinorAmount(item({ amountUnit: 'major', amount: '10.50' }), 0, 'USD')).toBe(1050);
	expect(problemOf(() => readMinorAmount(item({ amountUnit: 'minor', amount: 10.5 }), 0, 'USD'))).toBe('must be a whole number, not 10.5');
	expect(problemOf(() => readMinorAmount(item({ amountUnit: 'cents', amount: 1 }), 0, 'USD'))).toBe('"cents" is not Minor Units or Major Units');
});
