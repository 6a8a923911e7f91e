import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { WalletPayments } from '../../../../nodes/WalletPayments/WalletPayments.node';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { issueCard } from '../../../helpers/sandbox/operations';
import { callApi } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox({ seed: { customers: 3, beneficiaries: 3 } });

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);

/** Runs the same list twice, simplified (the default) and raw; both send the same requests. */
async function bothWays(parameters: INodeParameters): Promise<{ simple: IDataObject[]; raw: IDataObject[] }> {
	const simplified = await fixture.run(parameters);
	expect(simplified.error).toBeUndefined();
	const simpleRequests = fixture.apiRequests().map((request) => [request.method, request.path, request.query]);
	fixture.sandbox.clearRequests();
	const raw = await fixture.run({ ...parameters, simplify: false });
	expect(raw.error).toBeUndefined();
	expect(fixture.apiRequests().map((request) => [request.method, request.path, request.query])).toEqual(simpleRequests);
	for (const item of [...simplified.items, ...raw.items]) expect(item.pairedItem).toEqual({ item: 0 });
	return { simple: simplified.items.map((item) => item.json), raw: raw.items.map((item) => item.json) };
}

/** A simplified record holds only fields the raw record has, with the same values. */
function expectSubsetOfRaw(simple: IDataObject[], raw: IDataObject[]) {
	expect(simple).toHaveLength(raw.length);
	simple.forEach((record, index) => {
		for (const [key, value] of Object.entries(record)) expect(raw[index][key]).toEqual(value);
		expect(Object.keys(record).length).toBeLessThan(Object.keys(raw[index]).length);
	});
}

describe('Simplify', () => {
	test.each([
		['customer', 'getAll'],
		['beneficiary', 'getAll'],
		['card', 'getTransactions'],
		['transaction', 'get'],
	])('%s → %s has Simplify, on by default, with n8n’s wording', (resource, operation) => {
		const simplify = new WalletPayments().description.properties.find(
			(property) =>
				property.name === 'simplify' &&
				property.displayOptions?.show?.resource?.includes(resource) &&
				property.displayOptions?.show?.operation?.includes(operation),
		);
		expect(simplify).toMatchObject({
			displayName: 'Simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
		});
		expect(simplify?.hint).toMatch(/^Simplified output keeps only id, .*createdAt, updatedAt, with the API’s own names and values$/);
	});

	test('Customer → Get Many: id, email, names, phone, dial code and dates', async () => {
		const { simple, raw } = await bothWays({ resource: 'customer', operation: 'getAll', returnAll: true });
		const newest = fixture.sandbox.state.customers[2];
		expect(simple[0]).toEqual({
			id: newest.id,
			email: newest.email,
			firstName: newest.firstName,
			lastName: newest.lastName,
			phone: newest.phone,
			countryCode: '+234',
			createdAt: ISO,
			updatedAt: ISO,
		});
		expect(raw[0]).toMatchObject({ blacklisted: false, isDefault: false, companyId: expect.any(String) });
		expectSubsetOfRaw(simple, raw);
	});

	test('Beneficiary → Get Many: id, status, country, currency, destination, reference and dates', async () => {
		const { simple, raw } = await bothWays({ resource: 'beneficiary', operation: 'getAll', limit: 3 });
		const newest = fixture.sandbox.state.beneficiaries[2];
		expect(simple[0]).toEqual({
			id: newest.id,
			status: 'SUCCESS',
			country: 'GH',
			currency: 'GHS',
			destination: { type: 'MOBILEMONEY', network: 'MTN', accountName: 'Seed Payee 3', accountNumber: '0240000003' },
			reference: 'BEN-SEED-0003',
			createdAt: ISO,
			updatedAt: ISO,
		});
		expect(raw[0]).toHaveProperty('provider', 'sandbox');
		expectSubsetOfRaw(simple, raw);
	});

	test('Card → Get Many Transactions: centAmount (minor units) instead of the major amount, as the API sends it', async () => {
		const { cardId } = await issueCard(fixture, 50);
		await callApi(fixture, 'POST', '/api/v1/virtualcards/topup', { cardId, amount: 10.5, reference: 'TOPUP-1' });
		const { simple, raw } = await bothWays({ resource: 'card', operation: 'getTransactions', cardId, returnAll: true });

		const topUp = simple.find((record) => record.reference === 'TOPUP-1');
		expect(topUp).toEqual({
			id: expect.any(String),
			method: 'topup',
			status: expect.any(String),
			centAmount: '1050',
			currency: 'usd',
			reference: 'TOPUP-1',
			cardId,
			createdAt: ISO,
			updatedAt: ISO,
		});
		for (const record of simple) expect(record).not.toHaveProperty('amount');
		expect(raw.find((record) => record.reference === 'TOPUP-1')).toMatchObject({ amount: '10.50', centAmount: '1050', type: 'credit' });
		expectSubsetOfRaw(simple, raw);
	});
});
