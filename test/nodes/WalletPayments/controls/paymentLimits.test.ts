/**
 * Payment limits on the credential (issue #31, point 3): a run that would break one sends
 * nothing, not even its items within the limits, and fails with an error naming the limit, the
 * items and the totals; with Continue On Fail every item is one error item. Counted in the
 * sandbox's own request log (no money-moving request reaches it).
 */
import type { INodeParameters } from 'n8n-workflow';

import { readLimits, refusals, refusalText } from '../../../../nodes/WalletPayments/controls/paymentLimits';
import { InvalidInput } from '../../../../nodes/WalletPayments/input/validation';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, idLocator, payoutInitiate } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

describe('the limits as the credential stores them', () => {
	test('per currency, in major units, with or without thousands separators', () => {
		const limits = readLimits({ maxPerPayment: 'USD 5000, eur 4500.50; JPY 1,000,000\nKWD 1.5', maxPerRun: '', allowedCurrencies: 'usd, EUR  JPY' });
		expect([...limits.perPayment]).toEqual([
			['USD', 500000],
			['EUR', 450050],
			['JPY', 1000000],
			['KWD', 1500],
		]);
		expect(limits.perRun.size).toBe(0);
		expect([...limits.currencies!]).toEqual(['USD', 'EUR', 'JPY']);
		expect(limits.savedBeneficiariesOnly).toBe(false);
	});

	test('nothing set: no limit', () => {
		const limits = readLimits({});
		expect(refusals([{ itemIndex: 0, money: { currency: 'USD', minor: 10 ** 12, inlineBeneficiary: true } }], limits)).toEqual([]);
	});

	test.each([
		[{ maxPerPayment: 'USD five' }, 'Maximum per Payment (credential)'],
		[{ maxPerRun: '5000' }, 'Maximum per Run (credential)'],
		[{ maxPerPayment: 'USD 10.001' }, 'Maximum per Payment (credential)'],
		[{ allowedCurrencies: 'USD, dollars' }, 'Allowed Currencies (credential)'],
	])('%j is refused, naming the field', (data, field) => {
		let error: unknown;
		try {
			readLimits(data);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(InvalidInput);
		expect((error as InvalidInput).message).toContain(field);
	});

	test('every limit a run breaks, with its items', () => {
		const limits = readLimits({ maxPerPayment: 'USD 100', maxPerRun: 'USD 150, EUR 1000', allowedCurrencies: 'USD, EUR', savedBeneficiariesOnly: true });
		const found = refusals(
			[
				{ itemIndex: 0, money: { currency: 'USD', minor: 10000 } },
				{ itemIndex: 1, money: { currency: 'USD', minor: 10001, inlineBeneficiary: true } },
				{ itemIndex: 2, money: { currency: 'GBP', minor: 100 } },
				{ itemIndex: 3, money: { currency: 'EUR', minor: 100, into: 'NGN' } },
			],
			limits,
		);
		expect(found).toEqual([
			{ limit: 'Saved Beneficiaries Only', items: [1], detail: 'a payout to an inline beneficiary' },
			{ limit: 'Maximum per Payment', items: [1], detail: '100.01 USD is over 100.00 USD' },
			{ limit: 'Allowed Currencies', items: [2], detail: 'GBP is not one of USD, EUR' },
			{ limit: 'Allowed Currencies', items: [3], detail: 'NGN is not one of USD, EUR' },
			{ limit: 'Maximum per Run', items: [0, 1], detail: 'the 2 items total 200.01 USD, over 150.00 USD' },
		]);
	});
});

test('a run over the limit on every one of 50,000 rows: each found, the error lists 5 and counts the rest', () => {
	const limits = readLimits({ maxPerPayment: 'USD 1' });
	const items = Array.from({ length: 50_000 }, (_, itemIndex) => ({ itemIndex, money: { currency: 'USD', minor: 101 + itemIndex } }));
	const found = refusals(items, limits);
	expect(found).toHaveLength(50_000);
	const text = refusalText(found);
	expect(text).toMatch(/^Nothing was sent: this run breaks the payment limits set on the Wallet Payments credential\. Maximum per Payment: 1\.01 USD is over 1\.00 USD \(item 0\);/);
	expect(text).toMatch(/; and 49995 more\.$/);
	expect(text.length).toBeLessThan(600);
});

describe('a run against the limits, over real HTTP', () => {
	const payRows = (beneficiaryId: string): INodeParameters => ({
		resource: 'payout',
		operation: 'initiate',
		amountUnit: 'major',
		amount: '={{ $json.amount }}',
		sourceWalletCurrency: '={{ $json.currency }}',
		customerEmail: 'ann@example.com',
		description: '={{ $json.invoice }}',
		beneficiaryMode: 'id',
		beneficiaryId: idLocator(beneficiaryId),
		duplicateProtection: { idempotencyKey: '={{ $json.invoice }}' },
	});
	const rows = [
		{ invoice: 'INV-1', amount: '4000', currency: 'USD' },
		{ invoice: 'INV-2', amount: '6000.50', currency: 'USD' },
		{ invoice: 'INV-3', amount: '10', currency: 'USD' },
	];
	const posts = () => fixture.apiRequests().filter((r) => r.method === 'POST');

	test('one payout over the maximum per payment: nothing sent, the error names the limit, item and amounts', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const before = posts().length;
		const result = await fixture.run(payRows(beneficiary.id as string), { items: rows, credentials: { maxPerPayment: 'USD 5000' } });
		expect(posts().length).toBe(before);
		expect(result.error?.message).toBe(
			'Nothing was sent: this run breaks the payment limits set on the Wallet Payments credential. Maximum per Payment: 6,000.50 USD is over 5,000.00 USD (item 1).',
		);
	});

	test('a run over the maximum per run, Continue On Fail: one error item per item, paired, nothing sent', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const before = posts().length;
		const result = await fixture.run(payRows(beneficiary.id as string), { items: rows, continueOnFail: true, credentials: { maxPerRun: 'USD 10000' } });
		expect(posts().length).toBe(before);
		expect(result.items.map((item) => [item.pairedItem, item.json.error])).toEqual(
			rows.map((_, index) => [
				{ item: index },
				'Nothing was sent: this run breaks the payment limits set on the Wallet Payments credential. Maximum per Run: the 3 items total 10,010.50 USD, over 10,000.00 USD (items 0–2).',
			]),
		);
	});

	test('within every limit: every row is sent', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const before = posts().length;
		const result = await fixture.run(payRows(beneficiary.id as string), {
			items: rows,
			credentials: { maxPerPayment: 'USD 6000.50', maxPerRun: 'USD 10010.50', allowedCurrencies: 'USD', savedBeneficiariesOnly: true },
		});
		expect(result.error).toBeUndefined();
		expect(posts().length - before).toBe(3);
	});

	test('an inline destination under Saved Beneficiaries Only: nothing sent', async () => {
		const before = posts().length;
		const result = await fixture.run(
			payoutInitiate({
				beneficiaryMode: 'inline',
				country: 'NG',
				currency: 'NGN',
				destinationType: 'json',
				destinationJson: JSON.stringify({ type: 'nuban', bankCode: '058', accountName: 'Obi Eze', accountNumber: '0123456789' }),
			}),
			{ credentials: { savedBeneficiariesOnly: true } },
		);
		expect(posts().length).toBe(before);
		expect(result.error?.message).toContain('Saved Beneficiaries Only: a payout to an inline beneficiary (item 0)');
	});

	test('a card top-up over the maximum per payment, and a swap quote into a currency not allowed: nothing sent', async () => {
		const before = posts().length;
		const topUp = await fixture.run({ resource: 'card', operation: 'topUp', cardId: 'card-1', amount: 2500 }, { credentials: { maxPerPayment: 'USD 2000' } });
		expect(topUp.error?.message).toContain('Maximum per Payment: 2,500.00 USD is over 2,000.00 USD (item 0)');
		const quote = await fixture.run({ resource: 'swap', operation: 'getQuote', sourceCurrency: 'USD', targetCurrency: 'NGN', amount: 10 }, { credentials: { allowedCurrencies: 'USD, EUR' } });
		expect(quote.error?.message).toContain('Allowed Currencies: NGN is not one of USD, EUR (item 0)');
		expect(posts().length).toBe(before);
	});

	test('a malformed limit refuses the run, naming the field', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const before = posts().length;
		const result = await fixture.run(payRows(beneficiary.id as string), { items: rows, credentials: { maxPerRun: 'lots' } });
		expect(posts().length).toBe(before);
		expect(result.error?.message).toBe('Nothing was sent: Invalid "Maximum per Run (credential)": "lots" is not a currency and an amount in major units');
	});
});
