import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { derivedReference, expectInvalid, expectRequests, outputJson } from '../../../helpers/sandbox/operations';
import { destinationForm } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

const KE_FORM = {
	resource: 'beneficiary',
	operation: 'create',
	country: 'KE',
	currency: 'KES',
	customerEmail: 'ann@example.com',
	destinationType: 'MOBILEMONEY',
	destinationFields: destinationForm({ network: 'MPESA', accountName: 'Ann Doe', accountNumber: '254712345678' }),
};

/** The Kenyan form with some of its values replaced. */
const keForm = (values: Record<string, string>) => ({
	destinationFields: destinationForm({ network: 'MPESA', accountName: 'Ann Doe', accountNumber: '254712345678', ...values }),
});

/** The country requirement the node reads (once per run) before creating a beneficiary from the form. */
const requirementsOf = (country: string) => ({ method: 'GET', path: `/api/v1/wallets/payout/supported-countries/${country}` });

/** n8n itself refuses an empty required parameter; an expression can still give a blank value. */
const BLANK = '={{ $json.missing ?? "" }}';

const KE_DESTINATION = { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'Ann Doe', accountNumber: '254712345678' };

/** The sandbox's beneficiary record, as the contract (2.2) shows it. */
function beneficiaryOutput(index: number) {
	const b = fixture.sandbox.state.beneficiaries[index];
	return {
		id: b.id,
		createdAt: b.createdAt,
		updatedAt: b.updatedAt,
		currency: b.currency,
		country: b.country,
		status: b.status,
		provider: b.provider,
		destination: b.destination,
		reference: b.reference,
	};
}

describe('Beneficiary → Create', () => {
	test('sends the form destination with a derived reference and outputs the beneficiary', async () => {
		const result = await fixture.run(KE_FORM, { executionId: 'ben-1' });

		const reference = derivedReference({ currency: 'KES', country: 'KE', destination: KE_DESTINATION, customerEmail: 'ann@example.com' });
		expectRequests(fixture, [
			requirementsOf('KE'),
			{
				method: 'POST',
				path: '/api/v2/beneficiaries',
				body: { currency: 'KES', country: 'KE', destination: KE_DESTINATION, customerEmail: 'ann@example.com', reference },
			},
		]);
		expect(fixture.sandbox.state.beneficiaries).toHaveLength(1);
		expect(outputJson(result)).toEqual([beneficiaryOutput(0)]);
		expect(result.items[0].json).toMatchObject({ status: 'SUCCESS', reference, destination: KE_DESTINATION });
	});

	test('sends the user’s reference and callback URL, and upper-cases the codes', async () => {
		const result = await fixture.run({
			...KE_FORM,
			country: 'ng',
			currency: 'ngn',
			destinationType: 'NUBAN',
			destinationFields: destinationForm({ bankCode: '058', accountName: 'Chidi Bello', accountNumber: '0123456789' }),
			additionalFields: { reference: 'BEN-0001', callbackUrl: 'https://n8n.example.com/webhook/wallet' },
		});

		const destination = { type: 'NUBAN', bankCode: '058', accountName: 'Chidi Bello', accountNumber: '0123456789' };
		expectRequests(fixture, [
			requirementsOf('NG'),
			{
				method: 'POST',
				path: '/api/v2/beneficiaries',
				body: {
					currency: 'NGN',
					country: 'NG',
					destination,
					customerEmail: 'ann@example.com',
					reference: 'BEN-0001',
					callbackUrl: 'https://n8n.example.com/webhook/wallet',
				},
			},
		]);
		expect(fixture.sandbox.state.beneficiaries[0].callbackUrl).toBe('https://n8n.example.com/webhook/wallet');
		expect(outputJson(result)).toEqual([beneficiaryOutput(0)]);
		expect(result.items[0].json.reference).toBe('BEN-0001');
	});

	test('a bank destination sends all four bank fields', async () => {
		const result = await fixture.run({
			...KE_FORM,
			country: 'ZA',
			currency: 'ZAR',
			destinationType: 'BANK',
			destinationFields: destinationForm({
				bankCode: '250655',
				bankName: 'First Sandbox Bank',
				accountName: 'Thabo Nkosi',
				accountNumber: '62001234',
			}),
			additionalFields: { reference: 'za-1' },
		});
		const destination = {
			type: 'BANK',
			bankCode: '250655',
			bankName: 'First Sandbox Bank',
			accountName: 'Thabo Nkosi',
			accountNumber: '62001234',
		};
		expect(fixture.apiRequests().map((request) => [request.method, request.path])).toEqual([
			['GET', '/api/v1/wallets/payout/supported-countries/ZA'],
			['POST', '/api/v2/beneficiaries'],
		]);
		expect(fixture.apiRequests()[1].body).toEqual({
			currency: 'ZAR',
			country: 'ZA',
			destination,
			customerEmail: 'ann@example.com',
			reference: 'za-1',
		});
		expect(outputJson(result)).toEqual([beneficiaryOutput(0)]);
	});

	test('a raw JSON destination is sent as given (type upper-cased)', async () => {
		const result = await fixture.run({
			...KE_FORM,
			destinationType: 'json',
			destinationJson: JSON.stringify({ ...KE_DESTINATION, type: 'mobilemoney' }),
			additionalFields: { reference: 'json-1' },
		});
		expect(fixture.apiRequests()[0].body).toEqual({
			currency: 'KES',
			country: 'KE',
			destination: KE_DESTINATION,
			customerEmail: 'ann@example.com',
			reference: 'json-1',
		});
		expect(outputJson(result)).toEqual([beneficiaryOutput(0)]);
	});

	test('each item gets its own derived reference', async () => {
		const result = await fixture.run(
			{ ...KE_FORM, ...keForm({ accountName: '={{ $json.name }}' }) },
			{ items: [{ name: 'Ann Doe' }, { name: 'Bob Doe' }], executionId: 'ben-2' },
		);
		expect(result.error).toBeUndefined();
		// The country requirement is read once for the whole run.
		expect(fixture.apiRequests().map((r) => r.method)).toEqual(['GET', 'POST', 'POST']);
		const posts = fixture.apiRequests().filter((r) => r.method === 'POST');
		expect(posts.map((r) => (r.body as { destination: { accountName: string } }).destination.accountName)).toEqual(['Ann Doe', 'Bob Doe']);
		expect(posts.map((r) => (r.body as { reference: string }).reference)).toEqual(
			posts.map((r, itemIndex) => {
				const { reference: _sent, ...body } = r.body as IDataObject;
				return derivedReference(body, { itemIndex });
			}),
		);
		expect(new Set(posts.map((r) => (r.body as { reference: string }).reference)).size).toBe(2);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(result.items.map((item) => item.json)).toEqual([beneficiaryOutput(0), beneficiaryOutput(1)]);
	});

	test('the service’s own destination rules come back as a NodeApiError with its message (raw JSON is checked by the service)', async () => {
		const result = await fixture.run({
			...KE_FORM,
			destinationType: 'json',
			destinationJson: JSON.stringify({ ...KE_DESTINATION, accountNumber: '0712345678' }),
		});
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('destination.accountNumber must match ^2547[\\d]{8}$ [HTTP 400]');
		expect(error.httpCode).toBe('400');
		expect(fixture.apiRequests()).toHaveLength(1);
		expect(fixture.sandbox.state.beneficiaries).toHaveLength(0);
	});

	describe('checks input before sending anything', () => {
		const cases: Array<[string, Record<string, unknown>, string, string | RegExp]> = [
			['blank currency', { currency: ' ' }, 'Currency', 'is required and cannot be blank'],
			['currency that is not three letters', { currency: 'KESH' }, 'Currency', '"KESH" is not a three-letter currency code'],
			['blank country', { country: BLANK }, 'Country', 'is required and cannot be blank'],
			['country that is not two letters', { country: 'Kenya' }, 'Country', '"Kenya" is not a two-letter country code'],
			['blank customer email', { customerEmail: BLANK }, 'Customer Email', 'is required and cannot be blank'],
			['malformed customer email', { customerEmail: 'ann.example.com' }, 'Customer Email', 'does not look like an email address'],
			['blank account number', keForm({ accountNumber: BLANK }), 'Account Number', 'is required and cannot be blank'],
			['blank mobile network', keForm({ network: '  ' }), 'Mobile Network', 'is required and cannot be blank'],
			['blank account name', keForm({ accountName: BLANK }), 'Account Name', 'is required and cannot be blank'],
			['blank bank code (bank)', { destinationType: 'BANK', destinationFields: destinationForm({ bankCode: BLANK, bankName: 'B', accountName: 'A', accountNumber: '123456' }) }, 'Bank Code', 'is required'],
			['blank bank name (bank)', { destinationType: 'BANK', destinationFields: destinationForm({ bankCode: '1', bankName: BLANK, accountName: 'A', accountNumber: '123456' }) }, 'Bank Name', 'is required'],
			['destination JSON that is not JSON', { destinationType: 'json', destinationJson: '{ type: MOBILEMONEY' }, 'Destination (JSON)', 'is not valid JSON'],
			['destination JSON that is a list', { destinationType: 'json', destinationJson: '[]' }, 'Destination (JSON)', 'must be a JSON object, but the value is a list'],
			['destination JSON without a type', { destinationType: 'json', destinationJson: '{"accountName":"A"}' }, 'Destination (JSON) → type', 'is required'],
			['destination JSON missing a field its type needs', { destinationType: 'json', destinationJson: '{"type":"NUBAN","bankCode":"058","accountName":"A"}' }, 'Destination (JSON) → accountNumber', 'is required'],
			['callback URL that is not http(s)', { additionalFields: { callbackUrl: 'ftp://example.com/hook' } }, 'Callback URL', 'is not an http:// or https:// address'],
			['reference longer than 100 characters', { additionalFields: { reference: 'r'.repeat(101) } }, 'Reference', 'is 101 characters long; the maximum is 100'],
		];
		test.each(cases)('%s', async (_name, overrides, field, problem) => {
			await expectInvalid(fixture, { ...KE_FORM, ...overrides }, field, problem);
		});
	});
});

describe('Beneficiary → Get Many', () => {
	async function addBeneficiaries(count: number) {
		const items = Array.from({ length: count }, (_, i) => ({ ref: `REF-${String(i).padStart(3, '0')}` }));
		const result = await fixture.run({ ...KE_FORM, additionalFields: { reference: '={{ $json.ref }}' } }, { items });
		expect(result.error).toBeUndefined();
		fixture.sandbox.clearRequests();
	}

	test('sends every filter (reference as q) and outputs one item per beneficiary, newest first', async () => {
		await addBeneficiaries(3);
		await fixture.sandbox.controls.setBeneficiaryStatus(fixture.sandbox.state.beneficiaries[1].id, 'PENDING');
		fixture.sandbox.clearRequests();

		const result = await fixture.run({
			resource: 'beneficiary',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
			filters: { status: 'PENDING', currency: 'kes', country: 'ke', reference: 'REF-001' },
		});
		expectRequests(fixture, [
			{
				method: 'GET',
				path: '/api/v2/beneficiaries',
				query: { status: 'PENDING', currency: 'KES', country: 'KE', q: 'REF-001', limit: '100' },
			},
		]);
		expect(outputJson(result)).toEqual([beneficiaryOutput(1)]);
	});

	test('without filters and with a limit, asks for exactly that many', async () => {
		await addBeneficiaries(3);
		const result = await fixture.run({ resource: 'beneficiary', operation: 'getAll', limit: 2, simplify: false });
		expectRequests(fixture, [{ method: 'GET', path: '/api/v2/beneficiaries', query: { limit: '2' } }]);
		expect(outputJson(result)).toEqual([beneficiaryOutput(2), beneficiaryOutput(1)]);
	});

	test('an empty list gives no items and no error', async () => {
		const result = await fixture.run({ resource: 'beneficiary', operation: 'getAll', returnAll: true });
		expectRequests(fixture, [{ method: 'GET', path: '/api/v2/beneficiaries', query: { limit: '100' } }]);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
	});

	describe('checks filters before sending anything', () => {
		const cases: Array<[string, Record<string, unknown>, string, string]> = [
			['currency filter that is not three letters', { filters: { currency: 'K' } }, 'Currency', '"K" is not a three-letter currency code'],
			['country filter that is not two letters', { filters: { country: 'Kenya' } }, 'Country', '"Kenya" is not a two-letter country code'],
			['status that is not one of the four', { filters: { status: '={{ "DONE" }}' } }, 'Status', '"DONE" is not one of FAILED, PENDING, PROCESSING, SUCCESS'],
			['limit of 0', { limit: 0 }, 'Limit', 'must be a whole number from 1'],
			['fractional limit', { limit: 2.5 }, 'Limit', 'must be a whole number from 1'],
		];
		test.each(cases)('%s', async (_name, overrides, field, problem) => {
			await expectInvalid(fixture, { resource: 'beneficiary', operation: 'getAll', ...overrides }, field, problem);
		});
	});
});
