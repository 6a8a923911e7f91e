import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { callApi, createBeneficiary, idLocator, initiatePayout, ISO_TIMESTAMP, payoutInitiate, KENYA_MOBILE_MONEY, UUID } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

const getTransaction = (transactionId: string) => ({ resource: 'transaction', operation: 'get', transactionId });

describe('Transaction → Get', () => {
	test('full flow: Payout → Initiate, then Get Transaction reads it back: exact request and output', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const payout = await fixture.run(payoutInitiate({ beneficiaryMode: 'id', beneficiaryId: idLocator(beneficiary.id as string) }));
		expect(payout.error).toBeUndefined();
		const payoutJson = payout.items[0].json;
		fixture.sandbox.clearRequests();

		const result = await fixture.run(
			{ resource: 'transaction', operation: 'get', transactionId: '={{ $json.id }}', simplify: false },
			{ items: [payoutJson] },
		);

		expect(result.error).toBeUndefined();
		const requests = fixture.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', path: `/api/v2/transactions/${payoutJson.id as string}`, rawBody: '' });
		expect(requests[0].headers.authorization).toBe('Bearer sk_test_sandbox');
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[0].json).toEqual({
			id: payoutJson.id,
			type: 'DEBIT',
			fees: '0.11',
			action: 'USD_ACCOUNT_PAYOUT',
			amount: '10.50',
			status: 'initiated',
			channel: 'payout',
			createdAt: ISO_TIMESTAMP,
			updatedAt: ISO_TIMESTAMP,
			reference: payoutJson.reference,
			companyId: UUID,
			customerId: payoutJson.customerId,
			exchangeRate: '130',
			balanceAfter: '9999989.39',
			balanceBefore: '10000000.00',
			description: 'Invoice 42',
			currency: 'USD',
			beneficiary: KENYA_MOBILE_MONEY,
			payoutAmount: 1365,
			payoutCurrency: 'KES',
			payoutUsdAmount: '10.50',
			sessionId: expect.stringMatching(/^\d+$/),
			failedReason: '',
			metaData: { flow: 'v2', beneficiaryId: beneficiary.id, callbackUrl: null },
		});

		// Once the service settles it, the same call shows the new status.
		await fixture.sandbox.controls.settlePayout(payoutJson.id as string);
		const settled = await fixture.run(getTransaction(payoutJson.id as string));
		expect(settled.items[0].json.status).toBe('success');
	});

	test('reads a collection transaction too', async () => {
		const collection = await callApi(fixture, 'POST', '/api/v2/wallets/collections/initialize', {
			country: 'NG',
			currency: 'NGN',
			customerEmail: 'ann@example.com',
			amount: 5000,
			reference: 'COL-1',
		});
		const result = await fixture.run({ ...getTransaction(collection.id as string), simplify: false });
		expect(result.items[0].json).toMatchObject({ id: collection.id, type: 'CREDIT', action: 'DEPOSIT_NGN', amount: '50.00', reference: 'COL-1', status: 'processing' });
	});

	describe('Simplify', () => {
		async function payoutTransactionId(): Promise<{ id: string; reference: string }> {
			const payout = await initiatePayout(fixture, { amount: 1050, description: 'Invoice 42' });
			return { id: payout.id as string, reference: payout.reference as string };
		}

		test('is on by default: id, type, channel, status, failedReason, amount, currency, reference and dates, under the API’s names', async () => {
			const { id, reference } = await payoutTransactionId();
			const result = await fixture.run(getTransaction(id));

			expect(result.error).toBeUndefined();
			expect(fixture.apiRequests().map((request) => [request.method, request.path])).toEqual([['GET', `/api/v2/transactions/${id}`]]);
			expect(result.items).toEqual([
				{
					json: {
						id,
						type: 'DEBIT',
						channel: 'payout',
						status: 'initiated',
						failedReason: '',
						amount: '10.50',
						currency: 'USD',
						reference,
						createdAt: ISO_TIMESTAMP,
						updatedAt: ISO_TIMESTAMP,
					},
					pairedItem: { item: 0 },
				},
			]);
		});

		test('off returns the raw record: the same request, every field the API sent', async () => {
			const { id } = await payoutTransactionId();
			const simplified = await fixture.run(getTransaction(id));
			const raw = await fixture.run({ ...getTransaction(id), simplify: false });

			const [first, second] = fixture.apiRequests();
			expect([first.method, first.path, first.query]).toEqual([second.method, second.path, second.query]);
			const rawJson = raw.items[0].json;
			expect(Object.keys(rawJson).length).toBeGreaterThan(Object.keys(simplified.items[0].json).length);
			// Every simplified field is the API's own field with the API's own value.
			expect(rawJson).toMatchObject(simplified.items[0].json);
			expect(rawJson).toMatchObject({ exchangeRate: '130', payoutCurrency: 'KES', beneficiary: KENYA_MOBILE_MONEY });
		});
	});

	test('an unknown transaction gives a NodeApiError with HTTP code 404 and the service’s message', async () => {
		const result = await fixture.run(getTransaction('7f1e2d3c-0000-4000-8000-000000000000'));
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('404');
		expect(error.message).toBe('Transaction not found [HTTP 404]');
		expect(error.description).toMatch(/ID does not exist/);
		expect(result.items).toEqual([]);
	});

	test('with Continue On Fail the 404 becomes an error item paired with its input', async () => {
		const result = await fixture.run(getTransaction('missing'), { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: { error: 'Transaction not found [HTTP 404]', description: expect.any(String), httpCode: '404' }, pairedItem: { item: 0 } },
		]);
	});

	test('with On Error → Continue (using error output) the 404 goes to the error output, with the input item\'s fields; nothing on the main output', async () => {
		const result = await fixture.run(getTransaction('={{ $json.id }}'), { items: [{ id: 'missing', invoice: 'INV-9' }], errorOutput: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
		expect(result.errorItems).toEqual([
			{ json: { id: 'missing', invoice: 'INV-9', error: 'Transaction not found [HTTP 404]', details: { description: expect.any(String), httpCode: '404' } }, pairedItem: { item: 0 } },
		]);
	});

	test('the ID is encoded into the path, so it cannot reach another endpoint', async () => {
		const result = await fixture.run(getTransaction('../customers?x=1'));
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect(fixture.apiRequests().map((request) => [request.method, request.path, request.query])).toEqual([
			['GET', '/api/v2/transactions/..%2Fcustomers%3Fx%3D1', {}],
		]);
	});

	test('a blank transaction ID is refused before any request', async () => {
		const result = await fixture.run(getTransaction('  '));
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('Invalid "Transaction ID": is required and cannot be blank (item 0)');
		expect(fixture.apiRequests()).toHaveLength(0);
	});

	test('an ID that is an object (a whole record from an expression) is refused before any request', async () => {
		const item: IDataObject = { transaction: { id: 'abc' } };
		const result = await fixture.run({ resource: 'transaction', operation: 'get', transactionId: '={{ $json.transaction }}' }, { items: [item] });
		expect(result.error?.message).toBe('Invalid "Transaction ID": must be text, but the value is an object (item 0)');
		expect(fixture.apiRequests()).toHaveLength(0);
	});
});
