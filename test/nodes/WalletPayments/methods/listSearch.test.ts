import type { IDataObject, INodeParameterResourceLocator, INodeProperties, NodeApiError } from 'n8n-workflow';

import { WalletPayments } from '../../../../nodes/WalletPayments/WalletPayments.node';
import { listSearch } from '../../../helpers/n8n/loadOptions';
import { requiredFieldError } from '../../../helpers/n8n/n8nLine';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { idLocator } from '../../../helpers/sandbox/walletOperations';

const SEEDED = 260;
const fixture = useSandbox({ seed: { customers: SEEDED, beneficiaries: SEEDED } });

const search = (method: string, options: { filter?: string; paginationToken?: string; apiKey?: string } = {}) =>
	listSearch(method, {
		parameters: {},
		credentials: { ...fixture.credentials, ...(options.apiKey ? { apiKey: options.apiKey } : {}) },
		filter: options.filter,
		paginationToken: options.paginationToken,
	});

/** Each request the sandbox received: method, path, query, and whether it carried the key. */
function received() {
	return fixture.apiRequests().map((request) => ({
		method: request.method,
		path: request.path,
		query: request.query,
		authorization: request.headers.authorization,
	}));
}

const description = new WalletPayments().description;

function pickers(resource: string, operation: string): INodeProperties[] {
	return description.properties.filter(
		(property) =>
			property.type === 'resourceLocator' &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes(operation),
	);
}

describe('picker fields', () => {
	test.each([
		['customer', 'update', 'customerId', 'searchCustomers'],
		['payout', 'initiate', 'beneficiaryId', 'searchBeneficiaries'],
		['payout', 'initiateLegacy', 'beneficiaryId', 'searchBeneficiaries'],
	])('%s → %s: %s is a required picker with a searchable list (%s) and an ID mode', (resource, operation, name, method) => {
		const [picker, ...others] = pickers(resource, operation);
		expect(others).toEqual([]);
		expect(picker).toMatchObject({ name, type: 'resourceLocator', required: true, default: { mode: 'list', value: '' } });
		expect(picker.modes?.map((mode) => [mode.name, mode.type])).toEqual([
			['list', 'list'],
			['id', 'string'],
		]);
		expect(picker.modes?.[0].typeOptions).toEqual({ searchListMethod: method, searchable: true });
		expect(typeof new WalletPayments().methods.listSearch[method as 'searchCustomers']).toBe('function');
		expect(picker.modes?.[1].hint).toMatch(/"id" in the output of .* → Create or Get Many/);
	});

	test('Payout → Initiate shows the beneficiary picker only for a beneficiary given by ID', () => {
		expect(pickers('payout', 'initiate')[0].displayOptions?.show?.beneficiaryMode).toEqual(['id']);
	});
});

describe('searchCustomers (n8n-core LoadOptionsContext over real HTTP)', () => {
	/** The service's order: newest first. */
	const serviceOrder = () => [...fixture.sandbox.state.customers].reverse();

	test('pages through every customer with the API’s cursor as the pagination token', async () => {
		const first = await search('searchCustomers');
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toEqual(expect.any(String));
		const second = await search('searchCustomers', { paginationToken: first.paginationToken });
		expect(second.results).toHaveLength(100);
		const third = await search('searchCustomers', { paginationToken: second.paginationToken });
		expect(third.results).toHaveLength(SEEDED - 200);
		expect(third.paginationToken).toBeUndefined();

		const all = [...first.results, ...second.results, ...third.results];
		expect(all.map((result) => result.value)).toEqual(serviceOrder().map((customer) => customer.id));
		const newest = serviceOrder()[0];
		expect(first.results[0]).toEqual({
			name: `${newest.firstName} ${newest.lastName} (${newest.email})`,
			value: newest.id,
		});

		expect(received()).toEqual([
			{ method: 'GET', path: '/api/v2/customers', query: { limit: '100' }, authorization: 'Bearer sk_test_sandbox' },
			{ method: 'GET', path: '/api/v2/customers', query: { limit: '100', nextCursor: first.paginationToken }, authorization: 'Bearer sk_test_sandbox' },
			{ method: 'GET', path: '/api/v2/customers', query: { limit: '100', nextCursor: second.paginationToken }, authorization: 'Bearer sk_test_sandbox' },
		]);
	});

	test('text with an "@" searches by email', async () => {
		const result = await search('searchCustomers', { filter: ' customer0042@ ' });
		expect(received().map((request) => request.query)).toEqual([{ email: 'customer0042@', limit: '100' }]);
		const customer = fixture.sandbox.state.customers[41];
		expect(result).toEqual({ results: [{ name: `${customer.firstName} ${customer.lastName} (customer0042@example.com)`, value: customer.id }] });
	});

	test('one word searches first names and last names (merged, no repeats); two words by first and last name', async () => {
		const byWord = await search('searchCustomers', { filter: 'Kwame' });
		const byLastName = await search('searchCustomers', { filter: 'Mensah' });
		const byBoth = await search('searchCustomers', { filter: 'Kwame  Mensah' });
		expect(received().map((request) => request.query)).toEqual([
			{ firstName: 'Kwame', limit: '100' },
			{ lastName: 'Kwame', limit: '100' },
			{ firstName: 'Mensah', limit: '100' },
			{ lastName: 'Mensah', limit: '100' },
			{ firstName: 'Kwame', lastName: 'Mensah', limit: '100' },
		]);
		const matches = (word: string) => [
			...serviceOrder().filter((customer) => (customer.firstName ?? '').includes(word)),
			...serviceOrder().filter((customer) => (customer.lastName ?? '').includes(word) && !(customer.firstName ?? '').includes(word)),
		];
		expect(byWord.results.map((result) => result.value)).toEqual(matches('Kwame').map((customer) => customer.id));
		// A last name typed on its own finds its customers.
		const mensahs = serviceOrder().filter((customer) => customer.lastName === 'Mensah');
		expect(mensahs.length).toBeGreaterThan(0);
		expect(byLastName.results.map((result) => result.value)).toEqual(matches('Mensah').map((customer) => customer.id));
		expect(byBoth.results.map((result) => result.value)).toEqual(
			serviceOrder()
				.filter((customer) => customer.firstName === 'Kwame' && customer.lastName === 'Mensah')
				.map((customer) => customer.id),
		);
		expect(byBoth.results.length).toBeGreaterThan(0);
		expect(new Set(byWord.results.map((result) => result.value)).size).toBe(byWord.results.length);
	});

	test('one word matching many: both lists page on together through one token, every match once', async () => {
		const seen: string[] = [];
		let token: string | undefined;
		let pages = 0;
		do {
			const page = await search('searchCustomers', { filter: 'a', paginationToken: token });
			seen.push(...page.results.map((result) => String(result.value)));
			token = page.paginationToken as string | undefined;
			pages++;
		} while (token && pages < 20);
		const expected = serviceOrder().filter((customer) => (customer.firstName ?? '').toLowerCase().includes('a') || (customer.lastName ?? '').toLowerCase().includes('a'));
		expect(pages).toBeGreaterThan(1);
		expect(new Set(seen).size).toBe(seen.length);
		expect(new Set(seen)).toEqual(new Set(expected.map((customer) => customer.id)));
	});

	test('no match: an empty list and no token', async () => {
		expect(await search('searchCustomers', { filter: 'nobody@nowhere.test' })).toEqual({ results: [] });
	});

	test('a wrong API key is the service’s 401 as a NodeApiError, not an empty list', async () => {
		const error = (await search('searchCustomers', { apiKey: 'sk_wrong' }).catch((caught: unknown) => caught)) as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('401');
		expect(error.description).toMatch(/Check the API Key/);
	});
});

describe('searchBeneficiaries (n8n-core LoadOptionsContext over real HTTP)', () => {
	const serviceOrder = () => [...fixture.sandbox.state.beneficiaries].reverse();

	test('pages through every beneficiary with the cursor as the pagination token', async () => {
		const pages = [];
		let token: string | undefined;
		do {
			const page = await search('searchBeneficiaries', { paginationToken: token });
			pages.push(page);
			token = page.paginationToken;
		} while (token);

		expect(pages.map((page) => page.results.length)).toEqual([100, 100, 60]);
		expect(pages.flatMap((page) => page.results.map((result) => result.value))).toEqual(serviceOrder().map((b) => b.id));
		expect(received().map((request) => request.query)).toEqual([
			{ limit: '100' },
			{ limit: '100', nextCursor: pages[0].paginationToken },
			{ limit: '100', nextCursor: pages[1].paginationToken },
		]);
	});

	test('searches by reference (the list’s q filter) and names each beneficiary by payee, account end, country and reference', async () => {
		const result = await search('searchBeneficiaries', { filter: 'SEED-000' });
		expect(received().map((request) => [request.path, request.query])).toEqual([['/api/v2/beneficiaries', { q: 'SEED-000', limit: '100' }]]);
		const byReference = Object.fromEntries(result.results.map((item) => [item.name.split(' · ')[3], item]));
		expect(result.results).toHaveLength(9);
		expect(byReference['BEN-SEED-0007']).toEqual({
			name: 'Seed Payee 7 · MOBILEMONEY ···0007 · GH/GHS · BEN-SEED-0007',
			value: fixture.sandbox.state.beneficiaries[6].id,
		});
		// A beneficiary that is not SUCCESS says so.
		expect(byReference['BEN-SEED-0008'].name).toBe('Seed Payee 8 · BANK ···0008 · ZA/ZAR · BEN-SEED-0008 · PROCESSING');
		expect(byReference['BEN-SEED-0001'].name).toBe('Seed Payee 1 · MOBILEMONEY ···0001 · KE/KES · BEN-SEED-0001');
	});
});

describe('picker values in both modes reach the right request', () => {
	test('Customer → Update: a customer picked from the list, and the same by ID', async () => {
		const [picked] = (await search('searchCustomers', { filter: 'customer0007@' })).results;
		fixture.sandbox.clearRequests();
		const update = (customerId: INodeParameterResourceLocator) => ({ resource: 'customer', operation: 'update', customerId, email: 'seven@example.com' });

		const fromList = await fixture.run(update(idLocator(picked.value as string, 'list')));
		expect(fromList.error).toBeUndefined();
		const byId = await fixture.run(update(idLocator(picked.value as string, 'id')));
		expect(byId.error).toBeUndefined();

		expect(received().map((request) => [request.method, request.path])).toEqual([
			['PUT', `/api/v2/customers/${picked.value as string}`],
			['PUT', `/api/v2/customers/${picked.value as string}`],
		]);
		expect(fromList.items[0].json).toMatchObject({ id: picked.value, email: 'seven@example.com' });
	});

	test('Customer → Update by ID from an expression', async () => {
		const id = fixture.sandbox.state.customers[3].id;
		const result = await fixture.run(
			{ resource: 'customer', operation: 'update', customerId: idLocator('={{ $json.customer.id }}'), email: 'four@example.com' },
			{ items: [{ customer: { id } }] },
		);
		expect(result.error).toBeUndefined();
		expect(received().map((request) => request.path)).toEqual([`/api/v2/customers/${id}`]);
	});

	test('Payout → Initiate and Initiate (Legacy): a beneficiary picked from the list is sent as beneficiaryId', async () => {
		const [picked] = (await search('searchBeneficiaries', { filter: 'BEN-SEED-0001' })).results;
		fixture.sandbox.clearRequests();
		const common = { resource: 'payout', amount: 1050, sourceWalletCurrency: 'USD', customerEmail: 'ann@example.com', description: 'Invoice 42' };

		const v2 = await fixture.run({ ...common, operation: 'initiate', beneficiaryMode: 'id', beneficiaryId: idLocator(picked.value as string, 'list') });
		expect(v2.error).toBeUndefined();
		const legacy = await fixture.run({
			...common,
			operation: 'initiateLegacy',
			beneficiaryId: idLocator(picked.value as string, 'list'),
			reference: 'PICKED-1',
			callbackUrl: 'https://n8n.example.com/webhook/wallet-events',
		});
		expect(legacy.error).toBeUndefined();

		const bodies = fixture.apiRequests().map((request) => [request.path, (request.body as IDataObject).beneficiaryId]);
		expect(bodies).toEqual([
			['/api/v2/wallets/payout/initialize', picked.value],
			['/api/v1/wallets/payout/initialize', picked.value],
		]);
	});

	test('a picker left empty is stopped by n8n before the node runs', async () => {
		await expect(
			fixture.run({ resource: 'customer', operation: 'update', customerId: idLocator('', 'list'), email: 'a@example.com' }),
		).rejects.toThrow(requiredFieldError('Customer'));
		expect(fixture.apiRequests()).toHaveLength(0);
	});
});
