import type { IDataObject, INodeParameters, NodeApiError } from 'n8n-workflow';

import { requiredFieldError } from '../../../helpers/n8n/n8nLine';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, destinationForm, idLocator, ISO_TIMESTAMP, KENYA_MOBILE_MONEY, movableClock, payoutInitiate, UUID } from '../../../helpers/sandbox/walletOperations';

const clock = movableClock();
const fixture = useSandbox({ now: clock.now });

beforeEach(() => clock.reset());

const CALLBACK_URL = 'https://n8n.example.com/webhook/wallet-events';

/** The payout transaction (contract 2.4) as both initialize calls answer it. */
function payoutTransaction(fields: IDataObject): IDataObject {
	return {
		id: UUID,
		createdAt: ISO_TIMESTAMP,
		updatedAt: ISO_TIMESTAMP,
		companyId: UUID,
		customerId: UUID,
		type: 'debit',
		channel: 'payout',
		status: 'initiated',
		...fields,
	};
}

const initiate = payoutInitiate;

function initiateLegacy(overrides: INodeParameters = {}): INodeParameters {
	return {
		resource: 'payout',
		operation: 'initiateLegacy',
		amount: 1050,
		sourceWalletCurrency: 'USD',
		customerEmail: 'ann@example.com',
		description: 'Invoice 42',
		callbackUrl: CALLBACK_URL,
		...overrides,
	};
}

const finalizeLegacy = (transactionId: string): INodeParameters => ({
	resource: 'payout',
	operation: 'finalizeLegacy',
	transactionId,
});

describe('Payout → Initiate', () => {
	test('pays a saved beneficiary by ID: exact request and output', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const result = await fixture.run(initiate({ beneficiaryMode: 'id', beneficiaryId: idLocator(beneficiary.id as string), sourceWalletCurrency: 'usd' }));

		expect(result.error).toBeUndefined();
		const requests = fixture.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v2/wallets/payout/initialize' });
		expect(requests[0].headers.authorization).toBe('Bearer sk_test_sandbox');
		expect(requests[0].headers['content-type']).toMatch(/^application\/json/);
		expect(requests[0].body).toEqual({
			amount: 1050,
			sourceWalletCurrency: 'USD',
			customerEmail: 'ann@example.com',
			description: 'Invoice 42',
			beneficiaryId: beneficiary.id,
		});

		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[0].json).toEqual(
			payoutTransaction({
				centFees: 11,
				fees: 0.11,
				reference: expect.stringMatching(/^PAY-/),
				description: 'Invoice 42',
				action: 'usd_account_payout',
				amount: 10.5,
				centAmount: 1050,
				spotPrice: 130,
			}),
		);
		// The service debited amount plus fees from the USD wallet.
		expect(fixture.sandbox.state.wallets.USD).toBe(1_000_000_000 - 1061);
	});

	test('pays an inline beneficiary built from the form fields', async () => {
		const result = await fixture.run(
			initiate({
				amount: 500,
				beneficiaryMode: 'inline',
				country: 'ke',
				currency: 'kes',
				destinationType: 'MOBILEMONEY',
				destinationFields: destinationForm({ network: 'MPESA', accountName: ' Ann Doe ', accountNumber: '254712345678' }),
			}),
		);

		expect(result.error).toBeUndefined();
		// The form is checked against Kenya's requirements first, then the payout is sent.
		const [requirements, request] = fixture.apiRequests();
		expect(fixture.apiRequests()).toHaveLength(2);
		expect(requirements).toMatchObject({ method: 'GET', path: '/api/v1/wallets/payout/supported-countries/KE' });
		expect(request).toMatchObject({ method: 'POST', path: '/api/v2/wallets/payout/initialize' });
		expect(request.body).toEqual({
			amount: 500,
			sourceWalletCurrency: 'USD',
			customerEmail: 'ann@example.com',
			description: 'Invoice 42',
			beneficiary: { country: 'KE', currency: 'KES', destination: KENYA_MOBILE_MONEY },
		});
		expect(result.items.map((item) => item.json)).toEqual([
			payoutTransaction({
				centFees: 5,
				fees: 0.05,
				reference: expect.stringMatching(/^PAY-/),
				description: 'Invoice 42',
				action: 'usd_account_payout',
				amount: 5,
				centAmount: 500,
				spotPrice: 130,
			}),
		]);
	});

	test('pays an inline beneficiary whose destination is JSON from an expression, one request per item', async () => {
		const nuban = { type: 'nuban', bankCode: '058', accountName: 'Obi Eze', accountNumber: '0123456789' };
		const result = await fixture.run(
			initiate({
				amount: '={{ $json.cents }}',
				customerEmail: '={{ $json.email }}',
				beneficiaryMode: 'inline',
				country: 'NG',
				currency: 'NGN',
				destinationType: 'json',
				destinationJson: '={{ $json.destination }}',
			}),
			{
				items: [
					{ cents: 200, email: 'obi@example.com', destination: nuban },
					{ cents: 300, email: 'eze@example.com', destination: nuban },
				],
			},
		);

		expect(result.error).toBeUndefined();
		expect(fixture.apiRequests().map((request) => request.body)).toEqual([
			expect.objectContaining({ amount: 200, customerEmail: 'obi@example.com', beneficiary: { country: 'NG', currency: 'NGN', destination: { ...nuban, type: 'NUBAN' } } }),
			expect.objectContaining({ amount: 300, customerEmail: 'eze@example.com', beneficiary: { country: 'NG', currency: 'NGN', destination: { ...nuban, type: 'NUBAN' } } }),
		]);
		expect(result.items.map((item) => [item.json.centAmount, item.json.spotPrice, item.pairedItem])).toEqual([
			[200, 1500, { item: 0 }],
			[300, 1500, { item: 1 }],
		]);
	});


	describe('Beneficiary: From Row Columns (a sheet that mixes saved beneficiaries, bank and mobile money, and currencies)', () => {
		/** Every field mapped to the column of the same name, as a user maps a sheet. */
		const fromColumns: INodeParameters = {
			amountUnit: 'major',
			amount: '={{ $json.amount }}',
			sourceWalletCurrency: '={{ $json.wallet }}',
			customerEmail: '={{ $json.email }}',
			description: '={{ $json.note }}',
			beneficiaryMode: 'columns',
			rowBeneficiaryId: '={{ $json.beneficiaryId }}',
			rowDestinationType: '={{ $json.destinationType }}',
			rowCountry: '={{ $json.country }}',
			rowCurrency: '={{ $json.currency }}',
			rowAccountName: '={{ $json.accountName }}',
			rowAccountNumber: '={{ $json.accountNumber }}',
			rowBankCode: '={{ $json.bankCode }}',
			rowBankName: '={{ $json.bankName }}',
			rowNetwork: '={{ $json.network }}',
		};
		/** A row as a CSV export or a sheet gives it: every value text, empty cells empty. */
		const row = (fields: Record<string, string>) => ({
			wallet: 'USD',
			email: 'payroll@example.com',
			note: 'November pay',
			beneficiaryId: '',
			destinationType: '',
			country: '',
			currency: '',
			accountName: '',
			accountNumber: '',
			bankCode: '',
			bankName: '',
			network: '',
			...fields,
		});
		const kenya = { destinationType: 'Mobile Money', country: 'KE', currency: 'KES', accountName: 'Ann Doe', accountNumber: '254712345678', network: 'MPESA' };

		test('one node pays each row as its columns say: saved, mobile money, NUBAN, bank; two source currencies; amounts as text', async () => {
			const saved = await createBeneficiary(fixture);
			const rows = [
				row({ amount: '10.50', beneficiaryId: saved.id as string, country: 'KE', currency: 'KES' }),
				row({ amount: '25', ...kenya }),
				row({ amount: '2500.00', wallet: 'NGN', destinationType: 'nuban', country: 'ng', currency: 'ngn', accountName: 'Bola Ade', accountNumber: '0123456789', bankCode: '058' }),
				row({ amount: '7.05', destinationType: 'Bank', country: 'GH', currency: 'GHS', accountName: 'Kofi Mensah', accountNumber: '1234567890', bankCode: 'GCB', bankName: 'GCB Bank' }),
			];
			const result = await fixture.run(initiate(fromColumns), { items: rows });
			expect(result.error).toBeUndefined();
			const payouts = fixture.apiRequests().filter((request) => request.method === 'POST');
			const base = { customerEmail: 'payroll@example.com', description: 'November pay' };
			expect(payouts.map((request) => request.body)).toEqual([
				{ ...base, amount: 1050, sourceWalletCurrency: 'USD', beneficiaryId: saved.id },
				{ ...base, amount: 2500, sourceWalletCurrency: 'USD', beneficiary: { country: 'KE', currency: 'KES', destination: KENYA_MOBILE_MONEY } },
				{ ...base, amount: 250000, sourceWalletCurrency: 'NGN', beneficiary: { country: 'NG', currency: 'NGN', destination: { type: 'NUBAN', bankCode: '058', accountName: 'Bola Ade', accountNumber: '0123456789' } } },
				{ ...base, amount: 705, sourceWalletCurrency: 'USD', beneficiary: { country: 'GH', currency: 'GHS', destination: { type: 'BANK', bankCode: 'GCB', bankName: 'GCB Bank', accountName: 'Kofi Mensah', accountNumber: '1234567890' } } },
			]);
			expect(result.items.map((item) => [item.json.centAmount, item.pairedItem])).toEqual([
				[1050, { item: 0 }],
				[2500, { item: 1 }],
				[250000, { item: 2 }],
				[705, { item: 3 }],
			]);
		});

		const refused: Array<[string, Record<string, string>, string]> = [
			['neither a saved beneficiary nor a destination type', { amount: '5' }, 'Invalid "Destination Type": the row has neither a Saved Beneficiary ID nor a Destination Type; it needs one of them'],
			['a saved beneficiary and an account number', { amount: '5', beneficiaryId: 'b6d8a0c2', accountNumber: '254712345678' }, 'Invalid "Saved Beneficiary ID": the row gives a saved beneficiary (b6d8a0c2) and also an Account Number; give one payee per row'],
			['an account missing what its type needs', { amount: '5', ...kenya, accountNumber: '' }, 'Invalid "Account Number": is required and cannot be blank'],
			['a type the country does not offer', { amount: '5', ...kenya, destinationType: 'NUBAN', bankCode: '058' }, 'Invalid "Destination Type": Kenya (KE) does not offer "NUBAN"; it offers MOBILEMONEY'],
			['no country', { amount: '5', ...kenya, country: '' }, 'Invalid "Beneficiary Country": is required and cannot be blank'],
			['an amount a sheet formatted with a thousands separator', { amount: '1,250.00', ...kenya }, 'Invalid "Amount (Major Units)": must be a number, but the value is the text "1,250.00"'],
		];
		test.each(refused)('a row with %s is refused, naming the row and the field, before anything is sent', async (_name, fields, message) => {
			const rows = [row({ amount: '1', ...kenya }), row({ amount: '2', ...kenya }), row(fields)];
			const result = await fixture.run(initiate(fromColumns), { items: rows });
			expect(result.error?.message).toBe(`${message} (item 2)`);
			expect(fixture.apiRequests().filter((request) => request.method === 'POST')).toEqual([]);
		});
	});

	describe('checks its input before sending anything', () => {
		const inlineForm: INodeParameters = {
			beneficiaryMode: 'inline',
			country: 'KE',
			currency: 'KES',
			destinationType: 'MOBILEMONEY',
			destinationFields: destinationForm({ network: 'MPESA', accountName: 'Ann Doe', accountNumber: '254712345678' }),
		};
		const inlineJson = (destination: unknown): INodeParameters => ({
			...inlineForm,
			destinationType: 'json',
			destinationJson: typeof destination === 'string' ? destination : JSON.stringify(destination),
		});
		const byId: INodeParameters = { beneficiaryMode: 'id', beneficiaryId: idLocator('b6d8a0c2-1111-4222-8333-944455556666') };

		const cases: Array<[string, INodeParameters, IDataObject[] | undefined, string]> = [
			['neither beneficiary (blank ID)', { beneficiaryMode: 'id', beneficiaryId: idLocator('  ') }, undefined, 'Invalid "Beneficiary": neither a beneficiary ID nor an inline beneficiary was given; exactly one is needed'],
			['neither beneficiary (ID expression resolving to nothing)', { beneficiaryMode: 'id', beneficiaryId: idLocator('={{ $json.missing }}') }, undefined, 'Invalid "Beneficiary": neither a beneficiary ID nor an inline beneficiary was given; exactly one is needed'],
			['both: an inline JSON destination carrying a beneficiaryId', inlineJson({ ...KENYA_MOBILE_MONEY, beneficiaryId: 'b6d8a0c2' }), undefined, 'Invalid "Beneficiary": the inline destination carries "beneficiaryId"; give either a beneficiary ID or an inline beneficiary, not both'],
			['both: an expression in the JSON path giving a saved beneficiary with its id', { ...inlineForm, destinationType: 'json', destinationJson: '={{ $json.saved }}' }, [{ saved: { id: 'b6d8a0c2', ...KENYA_MOBILE_MONEY } }], 'Invalid "Beneficiary": the inline destination carries "id"; give either a beneficiary ID or an inline beneficiary, not both'],
			['both: a whole beneficiary object as the ID', { beneficiaryMode: 'id', beneficiaryId: idLocator('={{ $json.saved }}') }, [{ saved: { id: 'b6d8a0c2', country: 'KE', destination: KENYA_MOBILE_MONEY } }], 'Invalid "Beneficiary ID": must be an ID (text), but the value is an object; give either a beneficiary ID or an inline beneficiary, not both'],
			['an amount with decimals', { ...byId, amount: 10.5 }, undefined, 'Invalid "Amount (Minor Units)": must be a whole number, not 10.5'],
			['a zero amount', { ...byId, amount: 0 }, undefined, 'Invalid "Amount (Minor Units)": must be greater than zero, not 0'],
			['a negative amount', { ...byId, amount: -100 }, undefined, 'Invalid "Amount (Minor Units)": must be greater than zero, not -100'],
			['an amount that is not a number', { ...byId, amount: '={{ "ten" }}' }, undefined, 'Invalid "Amount (Minor Units)": must be a number, but the value is the text "ten"'],
			['an amount as text JavaScript reads as another number (1e3)', { ...byId, amount: '={{ $json.amount }}' }, [{ amount: '1e3' }], 'Invalid "Amount (Minor Units)": must be written as plain digits with at most one decimal point, such as 1050 or 10.50, not "1e3"'],
			['an amount as hexadecimal text', { ...byId, amount: '={{ $json.amount }}' }, [{ amount: '0x400' }], 'Invalid "Amount (Minor Units)": must be written as plain digits with at most one decimal point, such as 1050 or 10.50, not "0x400"'],
			['a bad email', { ...byId, customerEmail: 'ann.example.com' }, undefined, 'Invalid "Customer Email": "ann.example.com" does not look like an email address (name@example.com)'],
			['a blank description', { ...byId, description: ' ' }, undefined, 'Invalid "Description": is required and cannot be blank'],
			['a blank source currency', { ...byId, sourceWalletCurrency: ' ' }, undefined, 'Invalid "Source Wallet Currency": is required and cannot be blank'],
			['a source currency that is not three letters', { ...byId, sourceWalletCurrency: 'US$' }, undefined, 'Invalid "Source Wallet Currency": "US$" is not a three-letter currency code'],
			['an inline country that is not two letters', { ...inlineForm, country: 'KEN' }, undefined, 'Invalid "Beneficiary Country": "KEN" is not a two-letter country code'],
			['an inline currency that is not three letters', { ...inlineForm, currency: 'KE' }, undefined, 'Invalid "Beneficiary Currency": "KE" is not a three-letter currency code'],
			['a blank destination field', { ...inlineForm, destinationFields: destinationForm({ network: 'MPESA', accountName: 'Ann Doe', accountNumber: ' ' }) }, undefined, 'Invalid "Account Number": is required and cannot be blank'],
			['a destination JSON that is not JSON', inlineJson('{ type: MOBILEMONEY'), undefined, 'Invalid "Destination (JSON)": is not valid JSON'],
			['a destination JSON without a type', inlineJson({ network: 'MPESA', accountName: 'Ann', accountNumber: '254712345678' }), undefined, 'Invalid "Destination (JSON) → type": is required and cannot be blank'],
			['a destination JSON missing a field its type needs', inlineJson({ type: 'MOBILEMONEY', network: 'MPESA', accountName: 'Ann' }), undefined, 'Invalid "Destination (JSON) → accountNumber": is required and cannot be blank'],
			['a destination JSON field that is not text', inlineJson({ ...KENYA_MOBILE_MONEY, accountName: { first: 'Ann' } }), undefined, 'Invalid "Destination (JSON) → accountName": must be text, but the value is an object'],
		];

		test.each(cases)('%s', async (_name, overrides, items, message) => {
			const result = await fixture.run(initiate(overrides), { items });
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toBe(`${message} (item 0)`);
			expect(result.items).toEqual([]);
			expect(fixture.apiRequests()).toHaveLength(0);
		});
	});

	test('the service’s refusal surfaces as a NodeApiError (unknown beneficiary)', async () => {
		const result = await fixture.run(initiate({ beneficiaryMode: 'id', beneficiaryId: idLocator('no-such-beneficiary') }));
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('404');
		expect(error.message).toBe('Beneficiary not found [HTTP 404]');
		expect(fixture.apiRequests()).toHaveLength(1);
	});

	test('a 500 on this money-moving call warns that the payout may have gone through', async () => {
		const beneficiary = await createBeneficiary(fixture);
		fixture.sandbox.injectFailure({ method: 'POST', path: '/api/v2/wallets/payout/initialize', status: 500 });
		const result = await fixture.run(initiate({ beneficiaryMode: 'id', beneficiaryId: idLocator(beneficiary.id as string) }));
		expect((result.error as NodeApiError).httpCode).toBe('500');
		expect(result.error?.description).toMatch(/may still have been carried out.*Transaction → Get/);
	});
});

describe('Include Input Fields (Initiate and Initiate (Legacy))', () => {
	const rows = [
		{ name: 'Ann', email: 'ann@example.com', period: '2026-11', amount: 'ignored', cents: 1050 },
		{ name: 'Ben', email: 'ben@example.com', period: '2026-11', amount: 'ignored', cents: 2000 },
	];

	test.each([
		['initiate', (id: string) => initiate({ amount: '={{ $json.cents }}', beneficiaryMode: 'id', beneficiaryId: idLocator(id) })],
		['initiateLegacy', (id: string) => initiateLegacy({ amount: '={{ $json.cents }}', beneficiaryId: idLocator(id), reference: '={{ "REF-" + $json.name }}' })],
	])('%s: on, each output item carries its row’s fields beside the payout’s (the payout’s win); off, none', async (_name, parameters) => {
		const beneficiary = await createBeneficiary(fixture);
		const on = await fixture.run({ ...parameters(beneficiary.id as string), includeInputFields: true }, { items: rows });
		expect(on.error).toBeUndefined();
		expect(on.items.map((item) => [item.json.name, item.json.email, item.json.period, item.json.cents])).toEqual(rows.map((row) => [row.name, row.email, row.period, row.cents]));
		expect(on.items.map((item) => item.json.amount)).toEqual([10.5, 20]);
		expect(on.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);

		const off = await fixture.run(parameters(beneficiary.id as string), { items: rows.map((row) => ({ ...row, name: `${row.name}2`, cents: row.cents + 1 })) });
		expect(off.error).toBeUndefined();
		expect(off.items.map((item) => item.json.alreadySubmitted ?? false)).toEqual([false, false]);
		expect(off.items.map((item) => [item.json.name, item.json.period])).toEqual([
			[undefined, undefined],
			[undefined, undefined],
		]);
	});
});

/**
 * Three rows for a run that goes on past failures: one paid, one refused before sending (its
 * amount), one the service turns down (a beneficiary it does not know); Include Input Fields on.
 */
async function threeRowsOneOfEach(ids: [string, string, string], names: [string, string, string], period: string) {
	const beneficiary = await createBeneficiary(fixture);
	const unknown = 'b6d8a0c2-1111-4222-8333-944455556666';
	const items = [
		{ employeeId: ids[0], name: names[0], cents: 1050, payee: beneficiary.id },
		{ employeeId: ids[1], name: names[1], cents: 'twenty', payee: beneficiary.id },
		{ employeeId: ids[2], name: names[2], cents: 3000, payee: unknown },
	];
	const parameters = {
		...initiate({ amount: '={{ $json.cents }}', beneficiaryMode: 'id', beneficiaryId: idLocator('={{ $json.payee }}') }),
		includeInputFields: true,
		duplicateProtection: { rowId: '={{ $json.employeeId }}', period },
	};
	return { items, parameters };
}

test('with Continue On Fail, an error item carries its row’s fields and, once it was made, the key to resend it with (issue #56: a reconciliation file with every row)', async () => {
	const { items, parameters } = await threeRowsOneOfEach(['EMP-1', 'EMP-2', 'EMP-3'], ['Ann', 'Ben', 'Cy'], '2026-11');
	const result = await fixture.run(parameters, { items, continueOnFail: true });
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.employeeId, item.json.name, item.json.error === undefined, item.json.idempotencyKey, item.json.result])).toEqual([
		// Sent: the key it was sent under, to resend it with should it fail at the service.
		['EMP-1', 'Ann', true, 'period:2026-11|row:EMP-1', 'sent'],
		// Refused before anything was made of it: no key yet.
		['EMP-2', 'Ben', false, undefined, 'refused'],
		// Sent, and turned down by the service: failed, with the key it was sent under.
		['EMP-3', 'Cy', false, 'period:2026-11|row:EMP-3', 'failed'],
	]);
	expect(result.items[2].json.reason).toBe(result.items[2].json.error);
	expect(result.items[1].json.error).toMatch(/Amount/);
	expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
});

test('On Error → Continue (using error output): the rows that failed go to the error output, with their own fields and what became of them; the others stay on the main output', async () => {
	const { items, parameters } = await threeRowsOneOfEach(['EMP-7', 'EMP-8', 'EMP-9'], ['Di', 'Ed', 'Flo'], '2026-12');
	const result = await fixture.run(parameters, { items, errorOutput: true });
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.employeeId, item.json.result])).toEqual([['EMP-7', 'sent']]);
	const details = (item: { json: IDataObject }) => item.json.details as IDataObject;
	expect(result.errorItems.map((item) => [item.json.employeeId, details(item).result, details(item).idempotencyKey, item.pairedItem])).toEqual([
		['EMP-8', 'refused', undefined, { item: 1 }],
		['EMP-9', 'failed', 'period:2026-12|row:EMP-9', { item: 2 }],
	]);
	expect(result.errorItems[1].json).toMatchObject({ error: 'Beneficiary not found [HTTP 404]', details: { httpCode: '404', reason: 'Beneficiary not found [HTTP 404]' } });
});

describe('Amount Unit (Initiate and Initiate (Legacy))', () => {
	const BENEFICIARY_ID = 'b6d8a0c2-1111-4222-8333-944455556666';
	const byId = { beneficiaryMode: 'id', beneficiaryId: idLocator(BENEFICIARY_ID) };

	test('the amount field states its unit: Minor Units by default, Major Units when chosen', async () => {
		const { WalletPayments } = await import('../../../../nodes/WalletPayments/WalletPayments.node');
		const properties = new WalletPayments().description.properties.filter(
			(property) => property.displayOptions?.show?.resource?.includes('payout') && property.displayOptions?.show?.operation?.includes('initiate'),
		);
		const unit = properties.find((property) => property.name === 'amountUnit');
		expect(unit?.default).toBe('minor');
		expect(unit?.options?.map((option) => (option as { value: string }).value).sort()).toEqual(['major', 'minor']);
		expect(
			properties.filter((property) => property.name === 'amount').map((property) => [property.displayName, property.displayOptions?.show?.amountUnit]),
		).toEqual([
			['Amount (Minor Units)', ['minor']],
			['Amount (Major Units)', ['major']],
		]);
	});

	// [major amount as typed, currency, minor units the API receives]
	const conversions: Array<[string | number, string, number]> = [
		[10.5, 'USD', 1050],
		['10.50', 'USD', 1050],
		[0.29, 'USD', 29],
		[0.07, 'USD', 7],
		[1.1, 'USD', 110],
		['19.99', 'usd', 1999],
		[1234567.89, 'USD', 123456789],
		['10.500', 'USD', 1050],
		[1500, 'JPY', 1500],
		['1500', 'JPY', 1500],
		['1.234', 'KWD', 1234],
		[0.5, 'KWD', 500],
		[12.3, 'KES', 1230],
	];

	test.each(conversions)('%p %s in major units is sent as %i minor units', async (major, currency, minor) => {
		const result = await fixture.run(initiate({ ...byId, amountUnit: 'major', amount: major, sourceWalletCurrency: currency }), {
			continueOnFail: true,
		});
		const requests = fixture.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v2/wallets/payout/initialize' });
		expect(requests[0].body).toEqual({
			amount: minor,
			sourceWalletCurrency: currency.toUpperCase(),
			customerEmail: 'ann@example.com',
			description: 'Invoice 42',
			beneficiaryId: BENEFICIARY_ID,
		});
		expect(result.items).toHaveLength(1);
	});

	test('the converted amount reaches the service and the output is the API’s own, with nothing added', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const result = await fixture.run(initiate({ beneficiaryMode: 'id', beneficiaryId: idLocator(beneficiary.id as string), amountUnit: 'major', amount: 0.29 }));

		expect(result.error).toBeUndefined();
		expect((fixture.apiRequests()[0].body as IDataObject).amount).toBe(29);
		expect(result.items.map((item) => item.json)).toEqual([
			payoutTransaction({
				centFees: 0,
				fees: 0,
				reference: expect.stringMatching(/^PAY-/),
				description: 'Invoice 42',
				action: 'usd_account_payout',
				amount: 0.29,
				centAmount: 29,
				spotPrice: 130,
			}),
		]);
	});

	test('a batch converts each item with its own currency', async () => {
		const result = await fixture.run(
			initiate({ ...byId, amountUnit: 'major', amount: '={{ $json.major }}', sourceWalletCurrency: '={{ $json.currency }}' }),
			{ items: [{ major: 12.34, currency: 'USD' }, { major: 5000, currency: 'JPY' }, { major: '0.125', currency: 'KWD' }], continueOnFail: true },
		);
		expect(fixture.apiRequests().map((request) => [(request.body as IDataObject).amount, (request.body as IDataObject).sourceWalletCurrency])).toEqual([
			[1234, 'USD'],
			[5000, 'JPY'],
			[125, 'KWD'],
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	const refusals: Array<[string, INodeParameters, string]> = [
		['USD with three decimals', { amount: 10.505 }, 'Invalid "Amount (Major Units)": 10.505 USD has 3 decimals, but USD has at most 2 decimals; the node does not round'],
		['USD with a sub-cent float', { amount: '={{ 0.1 + 0.2 }}' }, 'Invalid "Amount (Major Units)": 0.30000000000000004 USD has 17 decimals, but USD has at most 2 decimals; the node does not round'],
		['JPY with decimals', { amount: 1500.5, sourceWalletCurrency: 'JPY' }, 'Invalid "Amount (Major Units)": 1500.5 JPY has 1 decimal, but JPY has no decimals; the node does not round'],
		['KWD with four decimals', { amount: '1.2345', sourceWalletCurrency: 'KWD' }, 'Invalid "Amount (Major Units)": 1.2345 KWD has 4 decimals, but KWD has at most 3 decimals; the node does not round'],
		['NaN', { amount: '={{ NaN }}' }, 'Invalid "Amount (Major Units)": must be a finite number, not NaN'],
		['text that is not a number', { amount: '={{ "ten" }}' }, 'Invalid "Amount (Major Units)": must be a number, but the value is the text "ten"'],
		['a negative amount', { amount: -10 }, 'Invalid "Amount (Major Units)": must be a positive decimal number such as 10.50, not -10'],
		['a zero amount', { amount: 0 }, 'Invalid "Amount (Major Units)": must be greater than zero, not 0'],
		['a blank amount', { amount: '={{ "" }}' }, 'Invalid "Amount (Major Units)": is required and cannot be blank'],
		['an exponent', { amount: '1e3' }, 'Invalid "Amount (Major Units)": must be a positive decimal number such as 10.50, not 1e3'],
		['more than JavaScript can count exactly', { amount: '99999999999999.99' }, 'Invalid "Amount (Major Units)": 99999999999999.99 USD is 9999999999999999 minor units; the maximum is 9007199254740991 minor units'],
		['an unknown Amount Unit', { amountUnit: 'cents' }, 'Invalid "Amount Unit": "cents" is not Minor Units or Major Units'],
	];

	test.each(refusals)('refuses %s before sending anything', async (_name, overrides, message) => {
		const result = await fixture.run(initiate({ ...byId, amountUnit: 'major', ...overrides }));
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(`${message} (item 0)`);
		expect(fixture.apiRequests()).toHaveLength(0);
	});

	test('the error names the decimals the currency allows and how to fix it', async () => {
		const result = await fixture.run(initiate({ ...byId, amountUnit: 'major', amount: 10.505 }));
		expect(result.error?.description).toBe('USD has at most 2 decimals (1 USD = 100 minor units). Or set Amount Unit to Minor Units.');
	});

	test('Initiate (Legacy): major units are converted, and the int32 limit applies to the converted amount', async () => {
		const legacy = (amount: number | string) =>
			initiateLegacy({ beneficiaryId: byId.beneficiaryId, amountUnit: 'major', amount });

		await fixture.run(legacy('21474836.47'), { continueOnFail: true });
		expect(fixture.apiRequests().map((request) => (request.body as IDataObject).amount)).toEqual([2_147_483_647]);

		fixture.sandbox.clearRequests();
		const tooMuch = await fixture.run(legacy('21474836.48'));
		expect(tooMuch.error?.message).toBe(
			'Invalid "Amount (Major Units)": 21474836.48 USD is 2147483648 minor units; the maximum is 2147483647 minor units (item 0)',
		);
		expect(fixture.apiRequests()).toHaveLength(0);

		const bad = await fixture.run(legacy(10.555));
		expect(bad.error?.message).toBe('Invalid "Amount (Major Units)": 10.555 USD has 3 decimals, but USD has at most 2 decimals; the node does not round (item 0)');
		expect(fixture.apiRequests()).toHaveLength(0);
	});

	test('Initiate (Legacy) full request with a major amount', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const result = await fixture.run(initiateLegacy({ beneficiaryId: idLocator(beneficiary.id as string), amountUnit: 'major', amount: 10.5, reference: 'INV-9' }));
		expect(result.error).toBeUndefined();
		expect(fixture.apiRequests()[0].body).toEqual({
			amount: 1050,
			reference: 'INV-9',
			customerEmail: 'ann@example.com',
			description: 'Invoice 42',
			beneficiaryId: beneficiary.id,
			sourceWalletCurrency: 'USD',
			callbackUrl: CALLBACK_URL,
		});
		expect(result.items[0].json).toMatchObject({ amount: 10.5, centAmount: 1050 });
	});
});

describe('Payout → Initiate (Legacy) and Finalize (Legacy)', () => {
	test('initiates with a derived reference and the callback URL: exact request and output', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const result = await fixture.run(initiateLegacy({ beneficiaryId: idLocator(beneficiary.id as string) }));

		expect(result.error).toBeUndefined();
		const requests = fixture.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/wallets/payout/initialize' });
		expect(requests[0].body).toEqual({
			amount: 1050,
			reference: expect.stringMatching(/^n8n-[0-9a-f]{24}$/),
			customerEmail: 'ann@example.com',
			description: 'Invoice 42',
			beneficiaryId: beneficiary.id,
			sourceWalletCurrency: 'USD',
			callbackUrl: CALLBACK_URL,
		});
		const reference = (requests[0].body as IDataObject).reference;
		expect(result.items.map((item) => item.json)).toEqual([
			payoutTransaction({
				centFees: 11,
				fees: 0.11,
				reference,
				description: 'Invoice 42',
				action: 'usd_account_payout',
				amount: 10.5,
				centAmount: 1050,
				spotPrice: 130,
			}),
		]);
		// Nothing leaves the wallet before Finalize.
		expect(fixture.sandbox.state.wallets.USD).toBe(1_000_000_000);
	});

	test('sends the reference the user gave; each item of a batch gets its own derived one', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const given = await fixture.run(initiateLegacy({ beneficiaryId: idLocator(beneficiary.id as string), reference: ' INV-42 ' }));
		expect(given.error).toBeUndefined();
		expect((fixture.apiRequests()[0].body as IDataObject).reference).toBe('INV-42');
		expect(given.items[0].json.reference).toBe('INV-42');

		fixture.sandbox.clearRequests();
		const batch = await fixture.run(initiateLegacy({ beneficiaryId: idLocator(beneficiary.id as string) }), { items: [{}, {}] });
		expect(batch.error).toBeUndefined();
		const references = fixture.apiRequests().map((request) => (request.body as IDataObject).reference);
		expect(references).toHaveLength(2);
		expect(references[0]).not.toBe(references[1]);
		expect(batch.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('full flow: initiate → finalize → the payout is pending and debited', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const initiated = await fixture.run(initiateLegacy({ beneficiaryId: idLocator(beneficiary.id as string) }));
		const transactionId = initiated.items[0].json.id as string;
		fixture.sandbox.clearRequests();

		const finalized = await fixture.run(finalizeLegacy(transactionId));
		expect(finalized.error).toBeUndefined();
		const requests = fixture.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/wallets/payout/finalize', body: { transactionId } });
		expect(requests[0].body).toEqual({ transactionId });
		// The provider answers amount, fees and spotPrice as strings; the node passes them on as given.
		expect(finalized.items.map((item) => item.json)).toEqual([
			payoutTransaction({
				id: transactionId,
				status: 'pending',
				centFees: 11,
				fees: '0.11',
				reference: initiated.items[0].json.reference,
				description: 'Invoice 42',
				action: 'usd_account_payout',
				amount: '10.50',
				centAmount: 1050,
				spotPrice: '130',
			}),
		]);
		expect(fixture.sandbox.state.wallets.USD).toBe(1_000_000_000 - 1061);
	});

	test('finalizing twice: a re-run sends nothing; sent again on purpose, the service refuses it', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const initiated = await fixture.run(initiateLegacy({ beneficiaryId: idLocator(beneficiary.id as string) }));
		const transactionId = initiated.items[0].json.id as string;
		expect((await fixture.run(finalizeLegacy(transactionId))).error).toBeUndefined();
		fixture.sandbox.clearRequests();

		const rerun = await fixture.run(finalizeLegacy(transactionId));
		expect(rerun.error).toBeUndefined();
		expect(rerun.items.map((item) => item.json)).toEqual([
			expect.objectContaining({ alreadySubmitted: true, sent: false, outcome: 'accepted' }),
		]);
		expect(fixture.apiRequests()).toHaveLength(0);

		const again = await fixture.run({ ...finalizeLegacy(transactionId), duplicateProtection: { allowResend: true } });
		expect(fixture.apiRequests()).toHaveLength(1);
		const error = again.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('400');
		expect(error.message).toBe('Payout has already been finalized [HTTP 400]');
		expect(fixture.sandbox.state.wallets.USD).toBe(1_000_000_000 - 1061);
	});

	test('finalizing after the ~4 minute window fails with the service’s message', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const initiated = await fixture.run(initiateLegacy({ beneficiaryId: idLocator(beneficiary.id as string) }));
		clock.advanceSeconds(241);

		const late = await fixture.run(finalizeLegacy(initiated.items[0].json.id as string));
		expect((late.error as NodeApiError).httpCode).toBe('400');
		expect(late.error?.message).toBe('Payout has expired [HTTP 400]');
		expect(fixture.sandbox.state.wallets.USD).toBe(1_000_000_000);
	});

	test('finalizing an unknown transaction gives the 404 and the service’s message', async () => {
		const result = await fixture.run(finalizeLegacy('4b0c3c1e-0000-4000-8000-000000000000'));
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect(result.error?.message).toBe('Transaction not found [HTTP 404]');
	});

	test('a re-run sends nothing; sent again on purpose, the same derived reference is refused by the service; paid once', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const parameters = initiateLegacy({ beneficiaryId: idLocator(beneficiary.id as string) });
		const first = await fixture.run(parameters, { executionId: 'exec-77', nodeId: 'payout-node' });
		expect(first.error).toBeUndefined();
		const reference = first.items[0].json.reference as string;
		expect(reference).toMatch(/^n8n-[0-9a-f]{24}$/);

		// n8n runs the node again for the same item (Retry On Fail, Retry, the editor): nothing is sent.
		const retry = await fixture.run(parameters, { executionId: 'exec-77b', nodeId: 'payout-node' });
		expect(retry.error).toBeUndefined();
		expect(retry.items[0].json).toMatchObject({ alreadySubmitted: true, sent: false, outcome: 'accepted', reference });
		expect(fixture.apiRequests()).toHaveLength(1);

		// Allow Resend sends it; the service knows the reference and refuses it: an output, not a failure.
		const resent = await fixture.run({ ...parameters, duplicateProtection: { allowResend: true } }, { executionId: 'exec-77c', nodeId: 'payout-node' });
		expect(resent.error).toBeUndefined();
		const [, resendRequest] = fixture.apiRequests();
		expect((resendRequest.body as IDataObject).reference).toBe(reference);
		expect(resent.items[0].json).toMatchObject({ alreadySubmitted: true, sent: true, outcome: 'accepted', reference });
		expect(resent.items[0].json.message).toContain(`Reference '${reference}' has already been used [HTTP 409]`);
		expect(fixture.sandbox.state.transactions.filter((tx) => tx.kind === 'payout')).toHaveLength(1);

		// A new run (another event or schedule tick) is a new payout with a new reference.
		const next = await fixture.run(parameters, { trigger: { run: 2 }, nodeId: 'payout-node' });
		expect(next.error).toBeUndefined();
		expect(next.items[0].json.reference).not.toBe(reference);
		expect(fixture.sandbox.state.transactions.filter((tx) => tx.kind === 'payout')).toHaveLength(2);
	});

	describe('Initiate (Legacy) checks its input before sending anything', () => {
		const id = { beneficiaryId: idLocator('b6d8a0c2-1111-4222-8333-944455556666') };
		const cases: Array<[string, INodeParameters, string]> = [
			['an amount with decimals', { amount: 10.5 }, 'Invalid "Amount (Minor Units)": must be a whole number, not 10.5'],
			['a zero amount', { amount: 0 }, 'Invalid "Amount (Minor Units)": must be greater than zero, not 0'],
			['a negative amount', { amount: -1 }, 'Invalid "Amount (Minor Units)": must be greater than zero, not -1'],
			['an amount above int32', { amount: 2_147_483_648 }, 'Invalid "Amount (Minor Units)": must be at most 2147483647, not 2147483648'],
			['a bad email', { customerEmail: 'ann@' }, 'Invalid "Customer Email": "ann@" does not look like an email address (name@example.com)'],
			['a blank description', { description: ' ' }, 'Invalid "Description": is required and cannot be blank'],
			['a blank beneficiary ID', { beneficiaryId: idLocator(' ') }, 'Invalid "Beneficiary ID": is required and cannot be blank'],
			['a blank callback URL', { callbackUrl: '={{ $json.callback }}' }, 'Invalid "Callback URL": is required and cannot be blank'],
			['a callback URL that is not http(s)', { callbackUrl: 'ftp://example.com/hook' }, 'Invalid "Callback URL": "ftp://example.com/hook" is not an http:// or https:// address'],
			['a source currency that is not three letters', { sourceWalletCurrency: 'DOLLAR' }, 'Invalid "Source Wallet Currency": "DOLLAR" is not a three-letter currency code'],
			['a reference that is too long', { reference: 'R'.repeat(101) }, 'Invalid "Reference": is 101 characters long; the maximum is 100'],
		];

		test.each(cases)('%s', async (_name, overrides, message) => {
			const result = await fixture.run(initiateLegacy({ ...id, ...overrides }));
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toBe(`${message} (item 0)`);
			expect(fixture.apiRequests()).toHaveLength(0);
		});
	});

	test('Finalize (Legacy) refuses a blank transaction ID before sending anything', async () => {
		const result = await fixture.run(finalizeLegacy(' '));
		expect(result.error?.message).toBe('Invalid "Transaction ID": is required and cannot be blank (item 0)');
		expect(fixture.apiRequests()).toHaveLength(0);
	});
});

test('a required field left literally empty is stopped by n8n itself before the node runs', async () => {
	await expect(fixture.run(initiateLegacy({ beneficiaryId: idLocator('b6d8a0c2'), callbackUrl: '' }))).rejects.toThrow(
		requiredFieldError('Callback URL'),
	);
	expect(fixture.apiRequests()).toHaveLength(0);
});
