import type { IDataObject, INodeParameters, INodeProperties, NodeApiError } from 'n8n-workflow';

import { WalletPayments } from '../../../../nodes/WalletPayments/WalletPayments.node';
import { loadOptions, resourceMapping } from '../../../helpers/n8n/loadOptions';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { destinationForm, idLocator, KENYA_MOBILE_MONEY, payoutInitiate } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

const requirementsPath = (country: string) => `/api/v1/wallets/payout/supported-countries/${country}`;

const editor = (parameters: INodeParameters) => ({ parameters, credentials: fixture.credentials });

function received() {
	return fixture.apiRequests().map((request) => [request.method, request.path, request.headers.authorization]);
}

const required = (id: string, displayName: string) => ({
	id,
	displayName,
	required: true,
	defaultMatch: false,
	canBeUsedToMatch: false,
	display: true,
	type: 'string',
});
const choice = (id: string, displayName: string, values: string[]) => ({
	...required(id, displayName),
	type: 'options',
	options: values.map((value) => ({ name: value, value })),
});

describe('the destination fields in the node description', () => {
	const properties = new WalletPayments().description.properties;
	const find = (name: string, resource: string, operation: string): INodeProperties | undefined =>
		properties.find(
			(property) =>
				property.name === name &&
				property.displayOptions?.show?.resource?.includes(resource) &&
				property.displayOptions?.show?.operation?.includes(operation),
		);

	test.each([
		['beneficiary', 'create', {}],
		['payout', 'initiate', { beneficiaryMode: ['inline'] }],
	])('%s → %s: Destination Type loads from the country, the form from country and type, raw JSON for expressions', (resource, operation, mode) => {
		const type = find('destinationType', resource, operation);
		expect(type).toMatchObject({ type: 'options', typeOptions: { loadOptionsMethod: 'getDestinationTypes', loadOptionsDependsOn: ['country'] } });
		expect(type?.displayOptions?.show).toMatchObject(mode);

		const form = find('destinationFields', resource, operation);
		expect(form).toMatchObject({
			type: 'resourceMapper',
			typeOptions: {
				loadOptionsDependsOn: ['country', 'destinationType'],
				resourceMapper: { resourceMapperMethod: 'getDestinationFields', mode: 'add', supportAutoMap: false },
			},
		});
		expect(form?.displayOptions?.hide).toEqual({ destinationType: ['json', ''] });
		expect(form?.displayOptions?.show).toMatchObject(mode);

		const json = find('destinationJson', resource, operation);
		expect(json?.displayOptions?.show).toMatchObject({ ...mode, destinationType: ['json'] });

		const methods = new WalletPayments().methods;
		expect(typeof methods.loadOptions.getDestinationTypes).toBe('function');
		expect(typeof methods.resourceMapping.getDestinationFields).toBe('function');
	});
});

describe('Destination Type options per country (n8n-core LoadOptionsContext over real HTTP)', () => {
	const RAW_JSON = { name: 'Raw JSON', value: 'json', description: 'Give the whole destination object as JSON, e.g. from an expression' };

	test.each([
		['KE', [{ name: 'Mobile Money', value: 'MOBILEMONEY', description: 'Mobile Network (MPESA), Account Name, Account Number' }]],
		['NG', [{ name: 'NUBAN (Nigerian Bank Account)', value: 'NUBAN', description: 'Bank Code, Account Name, Account Number' }]],
		[
			'GH',
			[
				{ name: 'Bank Account', value: 'BANK', description: 'Bank Code, Bank Name, Account Name, Account Number' },
				{ name: 'Mobile Money', value: 'MOBILEMONEY', description: 'Mobile Network (MTN, VODAFONE, AIRTELTIGO), Account Name, Account Number' },
			],
		],
		['ZA', [{ name: 'Bank Account', value: 'BANK', description: 'Bank Code, Bank Name, Account Name, Account Number' }]],
	])('%s offers its own types, then Raw JSON', async (country, types) => {
		const options = await loadOptions('getDestinationTypes', editor({ resource: 'beneficiary', operation: 'create', country: country.toLowerCase() }));
		expect(options).toEqual([...types, RAW_JSON]);
		expect(received()).toEqual([['GET', requirementsPath(country), 'Bearer sk_test_sandbox']]);
	});

	test('before a country is entered as a plain code (empty, or an expression), the contract’s three types, without asking the service', async () => {
		for (const country of ['', '={{ $json.country }}']) {
			const options = await loadOptions('getDestinationTypes', editor({ country }));
			expect(options.map((option) => option.value)).toEqual(['BANK', 'MOBILEMONEY', 'NUBAN', 'json']);
			expect(options[0].description).toBe('Bank Code, Bank Name, Account Name, Account Number. Enter the country as a two-letter code to see what it offers.');
		}
		expect(fixture.apiRequests()).toEqual([]);
	});

	test('a country the service does not support is the service’s 404, shown in the list', async () => {
		const error = (await loadOptions('getDestinationTypes', editor({ country: 'US' })).catch((caught: unknown) => caught)) as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('Country US is not supported [HTTP 404]');
	});
});

describe('the destination form per country and type (resource mapper over real HTTP)', () => {
	const fields = (country: string, destinationType: string) =>
		resourceMapping('getDestinationFields', editor({ resource: 'beneficiary', operation: 'create', country, destinationType }));

	test.each([
		['KE', 'MOBILEMONEY', [choice('network', 'Mobile Network', ['MPESA']), required('accountName', 'Account Name'), required('accountNumber', 'Account Number')]],
		['NG', 'NUBAN', [required('bankCode', 'Bank Code'), required('accountName', 'Account Name'), required('accountNumber', 'Account Number')]],
		['GH', 'BANK', [required('bankCode', 'Bank Code'), required('bankName', 'Bank Name'), required('accountName', 'Account Name'), required('accountNumber', 'Account Number')]],
		['GH', 'MOBILEMONEY', [choice('network', 'Mobile Network', ['MTN', 'VODAFONE', 'AIRTELTIGO']), required('accountName', 'Account Name'), required('accountNumber', 'Account Number')]],
		['ZA', 'BANK', [required('bankCode', 'Bank Code'), required('bankName', 'Bank Name'), required('accountName', 'Account Name'), required('accountNumber', 'Account Number')]],
	])('%s %s: required fields, enums as dropdowns, the const type left out', async (country, type, expected) => {
		expect(await fields(country, type)).toEqual({ fields: expected });
		expect(received()).toEqual([['GET', requirementsPath(country), 'Bearer sk_test_sandbox']]);
	});

	test.each([
		['no country', '', 'MOBILEMONEY', 'Enter the country as a two-letter code (not an expression) to load its form, or use Raw JSON'],
		['a country from an expression', '={{ $json.country }}', 'MOBILEMONEY', 'Enter the country as a two-letter code (not an expression) to load its form, or use Raw JSON'],
		['no type yet', 'KE', '', 'Choose a destination type first'],
		['Raw JSON', 'KE', 'json', 'Choose a destination type first'],
	])('%s: no fields, and a notice saying what to do', async (_name, country, type, notice) => {
		expect(await fields(country, type)).toEqual({ fields: [], emptyFieldsNotice: notice });
		expect(fixture.apiRequests()).toEqual([]);
	});

	test('a type the country does not offer: no fields, and the types it does offer', async () => {
		expect(await fields('KE', 'BANK')).toEqual({ fields: [], emptyFieldsNotice: 'Kenya (KE) does not offer BANK; choose one of: MOBILEMONEY' });
	});
});

describe('the form at run time: checked against the country’s requirements before anything is created or paid', () => {
	const create = (country: string, destinationType: string, values: IDataObject, extra: INodeParameters = {}): INodeParameters => ({
		resource: 'beneficiary',
		operation: 'create',
		country,
		currency: { KE: 'KES', NG: 'NGN', GH: 'GHS', ZA: 'ZAR' }[country] ?? 'USD',
		customerEmail: 'ann@example.com',
		destinationType,
		destinationFields: destinationForm(values as Record<string, string>),
		additionalFields: { reference: 'form-1' },
		...extra,
	});

	/** Only the requirement was read: nothing was created or paid. */
	function expectOnlyRequirementsRead(country: string) {
		expect(fixture.apiRequests().map((request) => [request.method, request.path])).toEqual([['GET', requirementsPath(country)]]);
		expect(fixture.sandbox.state.beneficiaries).toHaveLength(0);
		expect(fixture.sandbox.state.transactions).toHaveLength(0);
	}

	async function expectRefused(parameters: INodeParameters, message: string, country: string) {
		const result = await fixture.run(parameters);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(`${message} (item 0)`);
		expect(result.items).toEqual([]);
		expectOnlyRequirementsRead(country);
	}

	test.each([
		['KE', 'MOBILEMONEY', { network: 'MPESA', accountName: 'Ann Doe', accountNumber: '254712345678' }],
		['NG', 'NUBAN', { bankCode: '058', accountName: 'Obi Eze', accountNumber: '0123456789' }],
		['GH', 'MOBILEMONEY', { network: 'VODAFONE', accountName: 'Kofi Mensah', accountNumber: '0241234567' }],
		['GH', 'BANK', { bankCode: 'GH123', bankName: 'Accra Bank', accountName: 'Kofi Mensah', accountNumber: '1234567890' }],
		['ZA', 'BANK', { bankCode: '250655', bankName: 'First Sandbox Bank', accountName: 'Thabo Nkosi', accountNumber: '62001234' }],
	])('%s %s: the form becomes the destination, the const type filled in', async (country, type, values) => {
		const result = await fixture.run(create(country, type, values));
		expect(result.error).toBeUndefined();
		const requests = fixture.apiRequests();
		expect(requests.map((request) => [request.method, request.path])).toEqual([
			['GET', requirementsPath(country)],
			['POST', '/api/v2/beneficiaries'],
		]);
		expect((requests[1].body as IDataObject).destination).toEqual({ type, ...values });
		expect(result.items[0].json).toMatchObject({ country, destination: { type, ...values } });
	});

	test.each([
		['KE', 'MOBILEMONEY', { network: 'MPESA', accountName: 'Ann Doe', accountNumber: '0712345678' }, 'Invalid "Account Number": "0712345678" does not match the pattern ^2547[\\d]{8}$, which Kenya (KE) requires for MOBILEMONEY'],
		['NG', 'NUBAN', { bankCode: '058', accountName: 'Obi Eze', accountNumber: '123456789' }, 'Invalid "Account Number": "123456789" does not match the pattern ^\\d{10}$, which Nigeria (NG) requires for NUBAN'],
		['GH', 'MOBILEMONEY', { network: 'MTN', accountName: 'Kofi', accountNumber: '241234567' }, 'Invalid "Account Number": "241234567" does not match the pattern ^0\\d{9}$, which Ghana (GH) requires for MOBILEMONEY'],
		['ZA', 'BANK', { bankCode: '1', bankName: 'B', accountName: 'Thabo', accountNumber: '12-34' }, 'Invalid "Account Number": "12-34" does not match the pattern ^\\d{6,12}$, which South Africa (ZA) requires for BANK'],
		['GH', 'MOBILEMONEY', { network: 'MPESA', accountName: 'Kofi', accountNumber: '0241234567' }, 'Invalid "Mobile Network": "MPESA" is not one of MTN, VODAFONE, AIRTELTIGO, the values Ghana (GH) requires for MOBILEMONEY'],
		['KE', 'BANK', { bankCode: '1', bankName: 'B', accountName: 'Ann', accountNumber: '123456' }, 'Invalid "Destination Type": Kenya (KE) does not offer "BANK"; it offers MOBILEMONEY'],
		['KE', '={{ "PAYPAL" }}', { accountName: 'Ann' }, 'Invalid "Destination Type": Kenya (KE) does not offer "PAYPAL"; it offers MOBILEMONEY'],
	])('%s %s: a value breaking the country’s rules is refused, naming the field and the rule; nothing is created', async (country, type, values, message) => {
		await expectRefused(create(country, type, values), message, country);
	});

	test('Payout → Initiate with an inline beneficiary: a bad account number pays nothing', async () => {
		const result = await fixture.run(
			payoutInitiate({
				beneficiaryMode: 'inline',
				country: 'KE',
				currency: 'KES',
				destinationType: 'MOBILEMONEY',
				destinationFields: destinationForm({ ...KENYA_MOBILE_MONEY, type: null, accountNumber: '+254 712 345 678' }),
			}),
		);
		expect(result.error?.message).toBe(
			'Invalid "Account Number": "+254 712 345 678" does not match the pattern ^2547[\\d]{8}$, which Kenya (KE) requires for MOBILEMONEY (item 0)',
		);
		expect(result.error?.description).toBe('The service refuses values in any other format.');
		expectOnlyRequirementsRead('KE');
		expect(fixture.sandbox.state.wallets.USD).toBe(1_000_000_000);
	});

	test('a blank field is refused before any request, even the requirement', async () => {
		const result = await fixture.run(create('KE', 'MOBILEMONEY', { network: 'MPESA', accountName: '', accountNumber: '254712345678' }));
		expect(result.error?.message).toBe('Invalid "Account Name": is required and cannot be blank (item 0)');
		expect(fixture.apiRequests()).toEqual([]);
	});

	test('values for fields the type does not describe (left from another type) are not sent', async () => {
		const result = await fixture.run(
			create('KE', 'MOBILEMONEY', { ...KENYA_MOBILE_MONEY, type: null, bankCode: '058', bankName: 'Old Bank' }),
		);
		expect(result.error).toBeUndefined();
		expect((fixture.apiRequests()[1].body as IDataObject).destination).toEqual(KENYA_MOBILE_MONEY);
	});

	test('the requirement is read once per country per run, whatever the number of items; expressions fill the form', async () => {
		const result = await fixture.run(
			{
				...create('={{ $json.country }}', '={{ $json.type }}', {
					network: '={{ $json.network }}',
					bankCode: '={{ $json.bankCode }}',
					accountName: '={{ $json.name }}',
					accountNumber: '={{ $json.number }}',
				}),
				currency: '={{ $json.currency }}',
				additionalFields: {},
			},
			{
				items: [
					{ country: 'KE', currency: 'KES', type: 'MOBILEMONEY', network: 'MPESA', name: 'Ann', number: '254712345678' },
					{ country: 'NG', currency: 'NGN', type: 'NUBAN', bankCode: '058', name: 'Obi', number: '0123456789' },
					{ country: 'KE', currency: 'KES', type: 'MOBILEMONEY', network: 'MPESA', name: 'Wanjiru', number: '254700000001' },
				],
			},
		);
		expect(result.error).toBeUndefined();
		expect(fixture.apiRequests().map((request) => [request.method, request.path])).toEqual([
			// Every item is checked before the first one is sent.
			['GET', requirementsPath('KE')],
			['GET', requirementsPath('NG')],
			['POST', '/api/v2/beneficiaries'],
			['POST', '/api/v2/beneficiaries'],
			['POST', '/api/v2/beneficiaries'],
		]);
		expect(result.items.map((item) => [(item.json.destination as IDataObject).accountName, item.pairedItem])).toEqual([
			['Ann', { item: 0 }],
			['Obi', { item: 1 }],
			['Wanjiru', { item: 2 }],
		]);
		expect((fixture.apiRequests()[3].body as IDataObject).destination).toEqual({ type: 'NUBAN', bankCode: '058', accountName: 'Obi', accountNumber: '0123456789' });
	});

	test('a new run reads the requirement again (nothing is cached across executions)', async () => {
		const parameters = create('KE', 'MOBILEMONEY', KENYA_MOBILE_MONEY, { additionalFields: {} });
		expect((await fixture.run(parameters)).error).toBeUndefined();
		expect((await fixture.run(parameters, { trigger: { run: 2 } })).error).toBeUndefined();
		expect(fixture.apiRequests().map((request) => request.method)).toEqual(['GET', 'POST', 'GET', 'POST']);
	});

	test('a failing requirement read stops the item before anything is created, with the service’s error', async () => {
		fixture.sandbox.injectFailure({ method: 'GET', path: requirementsPath('KE'), status: 503 });
		const result = await fixture.run(create('KE', 'MOBILEMONEY', KENYA_MOBILE_MONEY));
		expect((result.error as NodeApiError).httpCode).toBe('503');
		expect(fixture.apiRequests().map((request) => request.method)).toEqual(['GET']);
		expect(fixture.sandbox.state.beneficiaries).toHaveLength(0);
	});

	test('a payout to a saved beneficiary picked by ID reads no requirement', async () => {
		const result = await fixture.run(
			{
				resource: 'payout',
				operation: 'initiate',
				amount: 100,
				sourceWalletCurrency: 'USD',
				customerEmail: 'ann@example.com',
				description: 'x',
				beneficiaryMode: 'id',
				beneficiaryId: idLocator('no-such-beneficiary'),
			},
			{ continueOnFail: true },
		);
		expect(result.items).toHaveLength(1);
		expect(fixture.apiRequests().map((request) => request.method)).toEqual(['POST']);
	});
});
