import type { IDataObject, INodeParameters, NodeApiError } from 'n8n-workflow';

import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { ISO_TIMESTAMP, movableClock, UUID } from '../../../helpers/sandbox/walletOperations';

const clock = movableClock();
const fixture = useSandbox({ now: clock.now });

beforeEach(() => clock.reset());

function getQuote(overrides: INodeParameters = {}): INodeParameters {
	return { resource: 'swap', operation: 'getQuote', sourceCurrency: 'USD', targetCurrency: 'NGN', amount: 10.5, ...overrides };
}

const finalize = (quoteId: string): INodeParameters => ({ resource: 'swap', operation: 'finalize', quoteId });

describe('Swap → Get Quote', () => {
	test('sends major units as a two-decimal string and lower-case currencies: exact request and output', async () => {
		const result = await fixture.run(getQuote({ sourceCurrency: 'usd', targetCurrency: 'Ngn' }));

		expect(result.error).toBeUndefined();
		const requests = fixture.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/wallets/initialize-swap' });
		expect(requests[0].headers.authorization).toBe('Bearer sk_test_sandbox');
		expect(requests[0].body).toEqual({ sourceCurrency: 'usd', amount: '10.50', targetCurrency: 'ngn' });
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[0].json).toEqual({
			id: UUID,
			sourceAmount: 10.5,
			targetAmount: 15750,
			fee: 0.05,
			usdAmount: 10.5,
			sourceCurrency: 'USD',
			targetCurrency: 'NGN',
			conversionRate: { amount: 1500, currency: 'NGN' },
			expiration: ISO_TIMESTAMP,
			expirationInSec: '250',
		});
	});

	test.each([
		[10, '10.00'],
		[0.5, '0.50'],
		['7.5', '7.50'],
		['0012.25', '12.25'],
	])('amount %p is sent as "%s"', async (amount, sent) => {
		const result = await fixture.run(getQuote({ amount: typeof amount === 'string' ? `={{ "${amount}" }}` : amount }));
		expect(result.error).toBeUndefined();
		expect((fixture.apiRequests()[0].body as IDataObject).amount).toBe(sent);
	});

	test.each([
		['JPY', 1500, '1500'],
		['KWD', 1.2, '1.200'],
		['KWD', '0.125', '0.125'],
	])('the decimals are the source currency’s: %s %p is sent as "%s"', async (sourceCurrency, amount, sent) => {
		const body = await fixture.run(getQuote({ sourceCurrency, amount: typeof amount === 'string' ? `={{ "${amount}" }}` : amount }));
		// The sandbox has wallets for some currencies only; what matters is what the node sent.
		expect(body.error === undefined || (body.error as { httpCode?: string }).httpCode === '400').toBe(true);
		expect((fixture.apiRequests()[0].body as IDataObject).amount).toBe(sent);
	});

	test('more decimals than the currency has are refused, never rounded: JPY 1500.5, USD 10.555', async () => {
		expect((await fixture.run(getQuote({ sourceCurrency: 'JPY', amount: 1500.5 }))).error?.message).toBe(
			'Invalid "Amount (Major Units)": 1500.5 JPY has 1 decimal, but JPY has no decimals; the node does not round (item 0)',
		);
		expect(fixture.apiRequests()).toHaveLength(0);
	});

	test('the amount field says plainly that it takes major units', async () => {
		const { WalletPayments } = await import('../../../../nodes/WalletPayments/WalletPayments.node');
		const amount = new WalletPayments().description.properties.find(
			(property) => property.name === 'amount' && property.displayOptions?.show?.resource?.includes('swap'),
		);
		expect(amount?.displayName).toBe('Amount (Major Units)');
		expect(amount?.description).toMatch(/MAJOR units, with at most the decimals the currency has \(USD 2, JPY 0, KWD 3\): 10\.50 USD is 10\.50, not 1050\. The service takes major units here/);
		expect(amount?.hint).toMatch(/expires in about 250 seconds.*Swap → Finalize/);
	});

	describe('checks its input before sending anything', () => {
		const cases: Array<[string, INodeParameters, string]> = [
			['a zero amount', { amount: 0 }, 'Invalid "Amount (Major Units)": must be greater than zero, not 0'],
			['a negative amount', { amount: -3 }, 'Invalid "Amount (Major Units)": must be a positive decimal number such as 10.50, not -3'],
			['more than two decimals', { amount: 10.555 }, 'Invalid "Amount (Major Units)": 10.555 USD has 3 decimals, but USD has at most 2 decimals; the node does not round'],
			['an amount that is not a number', { amount: '={{ "ten" }}' }, 'Invalid "Amount (Major Units)": must be a number, but the value is the text "ten"'],
			['a blank amount', { amount: '={{ "" }}' }, 'Invalid "Amount (Major Units)": is required and cannot be blank'],
			['a source currency that is not three letters', { sourceCurrency: 'US' }, 'Invalid "Source Currency": "US" is not a three-letter currency code'],
			['a blank target currency', { targetCurrency: ' ' }, 'Invalid "Target Currency": is required and cannot be blank'],
			['a target currency with digits', { targetCurrency: 'NG1' }, 'Invalid "Target Currency": "NG1" is not a three-letter currency code'],
			['the same currency on both sides', { targetCurrency: 'usd' }, 'Invalid "Target Currency": must differ from the source currency (USD)'],
		];

		test.each(cases)('%s', async (_name, overrides, message) => {
			const result = await fixture.run(getQuote(overrides));
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toBe(`${message} (item 0)`);
			expect(fixture.apiRequests()).toHaveLength(0);
		});
	});
});

describe('Swap → Finalize', () => {
	test('full flow: quote → finalize moves money between the wallets: exact request and output', async () => {
		const quote = await fixture.run(getQuote({ amount: 100 }));
		const quoteId = quote.items[0].json.id as string;
		fixture.sandbox.clearRequests();

		const result = await fixture.run({ resource: 'swap', operation: 'finalize', quoteId: '={{ $json.id }}' }, { items: [quote.items[0].json] });

		expect(result.error).toBeUndefined();
		const requests = fixture.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v2/wallets/finalize-swap' });
		expect(requests[0].body).toEqual({ quoteId });
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(result.items[0].json).toEqual({
			id: UUID,
			createdAt: ISO_TIMESTAMP,
			updatedAt: ISO_TIMESTAMP,
			reference: expect.stringMatching(/^SWP-/),
			description: 'Swap USD to NGN',
			balanceAfter: 9999899.5,
			amount: 100,
			centAmount: 10000,
			fees: 0.5,
			centFees: 50,
			spotPrice: '1500',
			action: 'swap_usd_ngn',
			type: 'debit',
			status: 'success',
			channel: 'swap',
			companyId: UUID,
		});
		expect(fixture.sandbox.state.wallets.USD).toBe(1_000_000_000 - 10050);
		expect(fixture.sandbox.state.wallets.NGN).toBe(1_000_000_000 + 15_000_000);
	});

	test('finalizing the same quote twice: n8n sends nothing again; sent on purpose, the service’s 409 says it was done', async () => {
		const quote = await fixture.run(getQuote({ amount: 100 }));
		const quoteId = quote.items[0].json.id as string;
		expect((await fixture.run(finalize(quoteId))).error).toBeUndefined();
		fixture.sandbox.clearRequests();

		const again = await fixture.run(finalize(quoteId));
		expect(again.error).toBeUndefined();
		expect(again.items[0].json).toMatchObject({ alreadySubmitted: true, sent: false, outcome: 'accepted' });
		expect(fixture.apiRequests()).toHaveLength(0);

		// "Quote has already been used" with HTTP 409 matches the credential's Already Submitted rule.
		const resent = await fixture.run({ ...finalize(quoteId), duplicateProtection: { allowResend: true } });
		expect(resent.error).toBeUndefined();
		expect(resent.items[0].json).toMatchObject({ alreadySubmitted: true, sent: true, outcome: 'accepted' });
		expect(resent.items[0].json.message).toContain('Quote has already been used [HTTP 409]');
		expect(fixture.apiRequests()).toHaveLength(1);
		expect(fixture.sandbox.state.wallets.USD).toBe(1_000_000_000 - 10050);
	});

	test('an expired quote (after ~250 seconds) is refused with the service’s message', async () => {
		const quote = await fixture.run(getQuote());
		clock.advanceSeconds(251);

		const result = await fixture.run(finalize(quote.items[0].json.id as string));
		const error = result.error as NodeApiError;
		expect(error.httpCode).toBe('400');
		expect(error.message).toBe('Quote has expired [HTTP 400]');
		expect(fixture.sandbox.state.wallets.USD).toBe(1_000_000_000);
	});

	test('an unknown quote gives 404 and the service’s message', async () => {
		const result = await fixture.run(finalize('0e0e0e0e-0000-4000-8000-000000000000'));
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect(result.error?.message).toBe('Quote not found [HTTP 404]');
	});

	test('a blank quote ID is refused before any request', async () => {
		const result = await fixture.run(finalize(' '));
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('Invalid "Quote ID": is required and cannot be blank (item 0)');
		expect(fixture.apiRequests()).toHaveLength(0);
	});
});
