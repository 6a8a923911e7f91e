import type { INodeParameters, NodeApiError } from 'n8n-workflow';

import { useSandbox } from '../../../helpers/sandbox/sandbox';

const fixture = useSandbox();

const getRequirements = (countryCode: string): INodeParameters => ({ resource: 'country', operation: 'getRequirements', countryCode });

describe('Country → Get Payout Requirements', () => {
	test('reads a country’s destination fields; the code is upper-cased: exact request and output', async () => {
		const result = await fixture.run(getRequirements(' ke '));

		expect(result.error).toBeUndefined();
		const requests = fixture.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/wallets/payout/supported-countries/KE', rawBody: '' });
		expect(requests[0].headers.authorization).toBe('Bearer sk_test_sandbox');
		expect(result.items).toEqual([
			{
				json: {
					code: 'KE',
					name: 'Kenya',
					flag: '🇰🇪',
					dialCode: '+254',
					destination: {
						MOBILEMONEY: [
							{ name: 'type', type: 'string', required: true, const: 'MOBILEMONEY' },
							{ name: 'network', type: 'string', required: true, enum: ['MPESA'] },
							{ name: 'accountName', type: 'string', required: true },
							{ name: 'accountNumber', type: 'string', required: true, pattern: '^2547[\\d]{8}$' },
						],
					},
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('one request per item from an expression', async () => {
		const result = await fixture.run(getRequirements('={{ $json.country }}'), { items: [{ country: 'NG' }, { country: 'gh' }] });
		expect(result.error).toBeUndefined();
		expect(fixture.apiRequests().map((request) => request.path)).toEqual([
			'/api/v1/wallets/payout/supported-countries/NG',
			'/api/v1/wallets/payout/supported-countries/GH',
		]);
		expect(result.items.map((item) => [item.json.code, Object.keys(item.json.destination as object), item.pairedItem])).toEqual([
			['NG', ['NUBAN'], { item: 0 }],
			['GH', ['BANK', 'MOBILEMONEY'], { item: 1 }],
		]);
	});

	test('an unsupported country gives 404 and the service’s message', async () => {
		const result = await fixture.run(getRequirements('us'));
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('404');
		expect(error.message).toBe('Country US is not supported [HTTP 404]');
	});

	test.each([
		['a blank code', ' ', 'Invalid "Country Code": is required and cannot be blank'],
		['a three-letter code', 'KEN', 'Invalid "Country Code": "KEN" is not a two-letter country code'],
		['a code with a digit', 'K1', 'Invalid "Country Code": "K1" is not a two-letter country code'],
		['a code with a slash', 'K/', 'Invalid "Country Code": "K/" is not a two-letter country code'],
	])('%s is refused before any request', async (_name, code, message) => {
		const result = await fixture.run(getRequirements(code));
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(`${message} (item 0)`);
		expect(fixture.apiRequests()).toHaveLength(0);
	});
});
