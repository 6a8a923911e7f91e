import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { derivedReference, issueCard } from '../../../helpers/sandbox/operations';

const SEEDED = 260;
const fixture = useSandbox({ seed: { customers: SEEDED, beneficiaries: SEEDED } });

const LIMITS = [1, 50, 100, 101, 250];

/** Page sizes the node should ask for to collect `wanted` records, 100 at most per request. */
function expectedPageSizes(wanted: number): string[] {
	const sizes: string[] = [];
	for (let left = wanted; left > 0; left -= 100) sizes.push(String(Math.min(100, left)));
	return sizes;
}

function ids(items: Array<{ json: IDataObject }>): string[] {
	return items.map((item) => item.json.id as string);
}

function expectNoDuplicates(values: string[]) {
	expect(new Set(values).size).toBe(values.length);
}

describe.each([
	['customer', '/api/v2/customers', () => fixture.sandbox.state.customers],
	['beneficiary', '/api/v2/beneficiaries', () => fixture.sandbox.state.beneficiaries],
] as const)('%s → Get Many over cursor pages', (resource, path, records) => {
	/** The service's order: newest first. */
	const serviceOrder = () => [...records()].reverse().map((record) => record.id);

	test(`the seed holds ${SEEDED} records`, () => {
		expect(records()).toHaveLength(SEEDED);
	});

	test('Return All yields every record exactly once, in the service’s order, 100 per request', async () => {
		const result = await fixture.run({ resource, operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();

		const got = ids(result.items);
		expectNoDuplicates(got);
		expect(new Set(got)).toEqual(new Set(records().map((record) => record.id)));
		expect(got).toEqual(serviceOrder());
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);

		const requests = fixture.apiRequests();
		expect(requests.map((r) => [r.method, r.path])).toEqual(Array(3).fill(['GET', path]));
		expect(requests.map((r) => r.query.limit)).toEqual(['100', '100', '100']);
		// The first page has no cursor; each later one uses the cursor the previous page gave.
		expect(requests[0].query.nextCursor).toBeUndefined();
		expect(requests[1].query.nextCursor).toEqual(expect.any(String));
		expect(requests[2].query.nextCursor).toEqual(expect.any(String));
		expect(requests[1].query.nextCursor).not.toBe(requests[2].query.nextCursor);
		for (const request of requests) {
			expect(request.headers.authorization).toBe(`Bearer ${fixture.sandbox.apiKey}`);
		}
	});

	test.each(LIMITS)('Limit %i yields exactly that many, no duplicates, in the service’s order', async (limit) => {
		const result = await fixture.run({ resource, operation: 'getAll', limit });
		expect(result.error).toBeUndefined();

		const got = ids(result.items);
		expect(got).toHaveLength(limit);
		expectNoDuplicates(got);
		expect(got).toEqual(serviceOrder().slice(0, limit));

		const sizes = fixture.apiRequests().map((r) => r.query.limit);
		expect(sizes).toEqual(expectedPageSizes(limit));
		expect(sizes.every((size) => Number(size) <= 100)).toBe(true);
	});

	test('a filter is sent on every page', async () => {
		// Filters that match more than one page: every seeded phone starts 80; 7 in 10 seeded beneficiaries are SUCCESS.
		const filters = resource === 'customer' ? { phone: '80' } : { status: 'SUCCESS' };
		const result = await fixture.run({ resource, operation: 'getAll', returnAll: true, filters });
		expect(result.error).toBeUndefined();
		const requests = fixture.apiRequests();
		expect(requests.length).toBeGreaterThanOrEqual(2);
		for (const request of requests) expect(request.query).toMatchObject({ ...filters, limit: '100' });
		const expected = [...records()]
			.reverse()
			.filter((record) =>
				resource === 'customer'
					? ((record as { phone: string | null }).phone ?? '').includes('80')
					: (record as { status: string }).status === 'SUCCESS',
			)
			.map((record) => record.id);
		expect(expected.length).toBeGreaterThan(100);
		expect(ids(result.items)).toEqual(expected);
	});
});

describe('Card → Get Many Transactions over numbered pages', () => {
	const TRANSACTIONS = 260;
	let cardId: string;
	let path: string;

	beforeEach(async () => {
		({ cardId } = await issueCard(fixture));
		path = `/api/v1/virtualcards/cards/${cardId}/transactions`;
		// 260 top-ups through the node in one run: one request, and one derived reference, per item.
		const items = Array.from({ length: TRANSACTIONS }, (_, i) => ({ amount: 3 + (i % 50) }));
		const result = await fixture.run(
			{ resource: 'card', operation: 'topUp', cardId, amount: '={{ $json.amount }}' },
			{ items, executionId: 'many-top-ups' },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(TRANSACTIONS);
		expect(fixture.sandbox.state.cardTransactions.map((t) => t.reference)).toEqual(
			items.map((item, i) => derivedReference({ cardId, amount: item.amount }, { itemIndex: i })),
		);
		fixture.sandbox.clearRequests();
	});

	const stateIds = () => fixture.sandbox.state.cardTransactions.map((t) => t.id);

	test('Return All yields every transaction exactly once, oldest first, page by page with take 100', async () => {
		const result = await fixture.run({ resource: 'card', operation: 'getTransactions', cardId, returnAll: true });
		expect(result.error).toBeUndefined();
		const got = ids(result.items);
		expectNoDuplicates(got);
		expect(got).toEqual(stateIds());
		expect(fixture.apiRequests().map((r) => [r.path, r.query])).toEqual([
			[path, { order: 'ASC', page: '1', take: '100' }],
			[path, { order: 'ASC', page: '2', take: '100' }],
			[path, { order: 'ASC', page: '3', take: '100' }],
		]);
	});

	test.each(LIMITS)('Limit %i yields exactly that many, no duplicates, in the service’s order', async (limit) => {
		const result = await fixture.run({ resource: 'card', operation: 'getTransactions', cardId, limit });
		expect(result.error).toBeUndefined();
		const got = ids(result.items);
		expect(got).toHaveLength(limit);
		expectNoDuplicates(got);
		expect(got).toEqual(stateIds().slice(0, limit));

		const requests = fixture.apiRequests();
		const take = String(Math.min(100, limit));
		expect(requests.map((r) => r.query)).toEqual(
			Array.from({ length: Math.ceil(limit / 100) }, (_, i) => ({ order: 'ASC', page: String(i + 1), take })),
		);
		expect(requests.every((r) => Number(r.query.take) <= 100)).toBe(true);
	});

	test('Limit 101, newest first, follows the service’s DESC order across pages', async () => {
		const result = await fixture.run({
			resource: 'card',
			operation: 'getTransactions',
			cardId,
			limit: 101,
			options: { order: 'DESC' },
		});
		const got = ids(result.items);
		expect(got).toEqual([...stateIds()].reverse().slice(0, 101));
		expect(fixture.apiRequests().map((r) => r.query)).toEqual([
			{ order: 'DESC', page: '1', take: '100' },
			{ order: 'DESC', page: '2', take: '100' },
		]);
	});
});
