import type { IDataObject, INodeParameters, NodeApiError } from 'n8n-workflow';

import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { ISO_TIMESTAMP, UUID } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

function initialize(overrides: INodeParameters = {}): INodeParameters {
	return {
		resource: 'collection',
		operation: 'initialize',
		country: 'NG',
		currency: 'NGN',
		customerEmail: 'ann@example.com',
		amount: 250000,
		...overrides,
	};
}

/** The collection transaction (contract 2.5). */
function collectionTransaction(fields: IDataObject): IDataObject {
	return {
		id: UUID,
		accountNumber: expect.stringMatching(/^\d{10}$/),
		type: 'credit',
		customerId: UUID,
		companyId: UUID,
		createdAt: ISO_TIMESTAMP,
		updatedAt: ISO_TIMESTAMP,
		channel: 'collection',
		status: 'processing',
		fees: 0,
		expiryInSeconds: 1800,
		expiryDate: ISO_TIMESTAMP,
		...fields,
	};
}

describe('Collection → Initialize', () => {
	test('v2 with every field: exact request and output', async () => {
		const result = await fixture.run(
			initialize({
				country: 'ng',
				currency: 'ngn',
				reference: 'ORDER-1001',
				additionalFields: { description: 'Order 1001', bankName: 'Wema Bank', accountName: 'Ann Shop' },
			}),
		);

		expect(result.error).toBeUndefined();
		const requests = fixture.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v2/wallets/collections/initialize' });
		expect(requests[0].headers.authorization).toBe('Bearer sk_test_sandbox');
		expect(requests[0].body).toEqual({
			country: 'NG',
			currency: 'NGN',
			customerEmail: 'ann@example.com',
			amount: 250000,
			reference: 'ORDER-1001',
			description: 'Order 1001',
			payload: { type: 'Wema Bank', accountName: 'Ann Shop' },
		});
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[0].json).toEqual(
			collectionTransaction({
				accountName: 'Ann Shop',
				bankName: 'Wema Bank',
				description: 'Order 1001',
				reference: 'ORDER-1001',
				// One unit whatever the service echoes: major units, and minor beside them.
				amount: 2500,
				centAmount: 250000,
				currency: 'NGN',
				action: 'deposit_ngn',
			}),
		);
		const { expiryDate, createdAt } = result.items[0].json as { expiryDate: string; createdAt: string };
		expect(Date.parse(expiryDate) - Date.parse(createdAt)).toBe(1800 * 1000);
	});

	test('API Version v1 calls the v1 path with the same fields; only the fields given are sent', async () => {
		const result = await fixture.run(initialize({ apiVersion: 'v1', additionalFields: { bankName: 'Wema Bank' } }));

		expect(result.error).toBeUndefined();
		const [request] = fixture.apiRequests();
		expect(request).toMatchObject({ method: 'POST', path: '/api/v1/wallets/collections/initialize' });
		expect(request.body).toEqual({
			country: 'NG',
			currency: 'NGN',
			customerEmail: 'ann@example.com',
			amount: 250000,
			reference: expect.stringMatching(/^n8n-[0-9a-f]{24}$/),
			payload: { type: 'Wema Bank' },
		});
		expect(result.items[0].json).toMatchObject({ bankName: 'Wema Bank', amount: 2500, centAmount: 250000, reference: (request.body as IDataObject).reference });
	});

	test('without a reference the derived one is sent; no description or payload keys', async () => {
		const result = await fixture.run(initialize());
		expect(result.error).toBeUndefined();
		const body = fixture.apiRequests()[0].body as IDataObject;
		expect(Object.keys(body).sort()).toEqual(['amount', 'country', 'currency', 'customerEmail', 'reference']);
		expect(body.reference).toMatch(/^n8n-[0-9a-f]{24}$/);
	});

	test('one request per item, each with its own derived reference and paired output', async () => {
		const result = await fixture.run(initialize({ amount: '={{ $json.kobo }}', customerEmail: '={{ $json.email }}' }), {
			items: [
				{ kobo: 1000, email: 'a@example.com' },
				{ kobo: 2000, email: 'b@example.com' },
			],
		});
		expect(result.error).toBeUndefined();
		const bodies = fixture.apiRequests().map((request) => request.body as IDataObject);
		expect(bodies.map((body) => [body.amount, body.customerEmail])).toEqual([
			[1000, 'a@example.com'],
			[2000, 'b@example.com'],
		]);
		expect(bodies[0].reference).not.toBe(bodies[1].reference);
		expect(result.items.map((item) => [item.json.amount, item.json.centAmount, item.pairedItem])).toEqual([
			[10, 1000, { item: 0 }],
			[20, 2000, { item: 1 }],
		]);
	});

	test('a reused reference: n8n sends nothing again; sent on purpose, the service refuses it as already submitted', async () => {
		expect((await fixture.run(initialize({ reference: 'ORDER-7' }))).error).toBeUndefined();
		const again = await fixture.run(initialize({ reference: 'ORDER-7' }), { trigger: { run: 2 } });
		expect(again.error).toBeUndefined();
		expect(again.items[0].json).toMatchObject({ alreadySubmitted: true, sent: false, idempotencyKey: 'ORDER-7', reference: 'ORDER-7' });
		expect(fixture.apiRequests()).toHaveLength(1);

		const resent = await fixture.run({ ...initialize({ reference: 'ORDER-7' }), duplicateProtection: { allowResend: true } });
		expect(resent.error).toBeUndefined();
		expect(resent.items[0].json).toMatchObject({ alreadySubmitted: true, sent: true, outcome: 'accepted', reference: 'ORDER-7' });
		expect(resent.items[0].json.message).toContain("Already submitted: Reference 'ORDER-7' has already been used [HTTP 409]");
		expect(fixture.apiRequests()).toHaveLength(2);
		expect(fixture.sandbox.state.transactions.filter((tx) => tx.kind === 'collection')).toHaveLength(1);
	});

	test('a currency the service has no wallet for surfaces the service’s validation message', async () => {
		const result = await fixture.run(initialize({ currency: 'XYZ' }));
		const error = result.error as NodeApiError;
		expect(error.httpCode).toBe('400');
		expect(error.message).toMatch(/^currency must be one of .*NGN.* \[HTTP 400\]$/);
	});

	describe('Amount Unit', () => {
		test('major units are converted with the currency’s decimals: exact request, and the output in major units with the minor beside them', async () => {
			const result = await fixture.run(initialize({ amountUnit: 'major', amount: 2500.5, reference: 'ORDER-2' }));

			expect(result.error).toBeUndefined();
			const requests = fixture.apiRequests();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v2/wallets/collections/initialize' });
			expect(requests[0].body).toEqual({
				country: 'NG',
				currency: 'NGN',
				customerEmail: 'ann@example.com',
				amount: 250050,
				reference: 'ORDER-2',
			});
			expect(result.items[0].json).toEqual(
				collectionTransaction({
					accountName: expect.any(String),
					bankName: expect.any(String),
					description: expect.any(String),
					reference: 'ORDER-2',
					amount: 2500.5,
					centAmount: 250050,
					currency: 'NGN',
					action: 'deposit_ngn',
				}),
			);
		});

		const conversions: Array<[string | number, string, number]> = [
			['0.29', 'NGN', 29],
			[1000, 'JPY', 1000],
			['0.125', 'KWD', 125],
		];

		test.each(conversions)('%p %s is sent as %i minor units', async (major, currency, minor) => {
			await fixture.run(initialize({ amountUnit: 'major', amount: major, currency }), { continueOnFail: true });
			expect(fixture.apiRequests().map((request) => [(request.body as IDataObject).amount, (request.body as IDataObject).currency])).toEqual([
				[minor, currency],
			]);
		});

		const refusals: Array<[string, INodeParameters, string]> = [
			['NGN with three decimals', { amount: 2500.555 }, 'Invalid "Amount (Major Units)": 2500.555 NGN has 3 decimals, but NGN has at most 2 decimals; the node does not round'],
			['JPY with decimals', { amount: 10.5, currency: 'JPY' }, 'Invalid "Amount (Major Units)": 10.5 JPY has 1 decimal, but JPY has no decimals; the node does not round'],
			['NaN', { amount: '={{ Number("x") }}' }, 'Invalid "Amount (Major Units)": must be a finite number, not NaN'],
		];

		test.each(refusals)('refuses %s before sending anything', async (_name, overrides, message) => {
			const result = await fixture.run(initialize({ amountUnit: 'major', ...overrides }));
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toBe(`${message} (item 0)`);
			expect(fixture.apiRequests()).toHaveLength(0);
		});
	});

	describe('checks its input before sending anything', () => {
		const cases: Array<[string, INodeParameters, string]> = [
			['a blank country', { country: ' ' }, 'Invalid "Country": is required and cannot be blank'],
			['a country that is not two letters', { country: 'NGA' }, 'Invalid "Country": "NGA" is not a two-letter country code'],
			['a country with a digit', { country: 'N1' }, 'Invalid "Country": "N1" is not a two-letter country code'],
			['a blank currency', { currency: ' ' }, 'Invalid "Currency": is required and cannot be blank'],
			['a currency that is not three letters', { currency: 'NAIRA' }, 'Invalid "Currency": "NAIRA" is not a three-letter currency code'],
			['a blank customer email', { customerEmail: '={{ $json.email }}' }, 'Invalid "Customer Email": is required and cannot be blank'],
			['a bad email', { customerEmail: 'ann@example' }, 'Invalid "Customer Email": "ann@example" does not look like an email address (name@example.com)'],
			['an amount with decimals', { amount: 2500.5 }, 'Invalid "Amount (Minor Units)": must be a whole number, not 2500.5'],
			['a zero amount', { amount: 0 }, 'Invalid "Amount (Minor Units)": must be greater than zero, not 0'],
			['a negative amount', { amount: -5 }, 'Invalid "Amount (Minor Units)": must be greater than zero, not -5'],
			['a description that is not text', { additionalFields: { description: '={{ { a: 1 } }}' } }, 'Invalid "Description": must be text, but the value is an object'],
		];

		test.each(cases)('%s', async (_name, overrides, message) => {
			const result = await fixture.run(initialize(overrides));
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toBe(`${message} (item 0)`);
			expect(fixture.apiRequests()).toHaveLength(0);
		});
	});
});
