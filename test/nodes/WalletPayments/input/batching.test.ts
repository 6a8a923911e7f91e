/**
 * Batching of read operations (router.ts, the Batching option), over real HTTP against the
 * sandbox with a round trip added to every answer: several reads in flight, the output in input
 * order and paired, Continue On Fail item by item, the first failing item thrown without it,
 * rate-limited reads asked again, and operations that create something sent several at once too.
 */
import type { IDataObject, INodeParameters, NodeApiError } from 'n8n-workflow';

import { maxInFlight } from '../../../helpers/sandbox/inFlight';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, initiatePayout } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

async function transactions(count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) ids.push((await initiatePayout(fixture, { amount: 100 + i })).id as string);
	fixture.sandbox.clearRequests();
	return ids;
}

const GET: INodeParameters = { resource: 'transaction', operation: 'get', transactionId: '={{ $json.id }}', simplify: false };
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeEach(() => fixture.sandbox.configure({ latency: { fixedMs: 20, jitterMs: 30 } }));
afterAll(() => fixture.sandbox.configure({ latency: { fixedMs: 0 } }));

test('by default 10 reads are in flight at once; the output keeps the input order, each item paired', async () => {
	const ids = await transactions(40);
	const result = await fixture.run(GET, { items: ids.map((id) => ({ id })) });
	await settle();
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.id)).toEqual(ids);
	expect(result.items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
	const sent = fixture.apiRequests();
	expect(sent).toHaveLength(40);
	expect(maxInFlight(sent)).toBe(10);
});

test('Items per Batch 1 reads one item after another; 4 keeps 4 in flight', async () => {
	const ids = await transactions(12);
	const one = await fixture.run({ ...GET, batching: { itemsPerBatch: 1 } }, { items: ids.map((id) => ({ id })) });
	await settle();
	expect(one.items.map((item) => item.json.id)).toEqual(ids);
	expect(maxInFlight(fixture.apiRequests())).toBe(1);

	fixture.sandbox.clearRequests();
	const four = await fixture.run({ ...GET, batching: { itemsPerBatch: 4 } }, { items: ids.map((id) => ({ id })) });
	await settle();
	expect(four.items.map((item) => item.json.id)).toEqual(ids);
	expect(maxInFlight(fixture.apiRequests())).toBe(4);
});

test('a Batch Interval sends batch after batch: each starts after the previous one ended, plus the wait', async () => {
	const ids = await transactions(9);
	const result = await fixture.run({ ...GET, batching: { itemsPerBatch: 3, batchInterval: 100 } }, { items: ids.map((id) => ({ id })) });
	await settle();
	expect(result.items.map((item) => item.json.id)).toEqual(ids);
	const sent = fixture.apiRequests();
	const batches = [sent.slice(0, 3), sent.slice(3, 6), sent.slice(6, 9)];
	for (let b = 1; b < batches.length; b++) {
		const previousEnd = Math.max(...batches[b - 1].map((r) => r.finishedMs!));
		const start = Math.min(...batches[b].map((r) => r.startedMs!));
		expect(start - previousEnd).toBeGreaterThanOrEqual(95);
	}
});

test('Continue On Fail with reads in flight: one output per item, in order, the failures where they were', async () => {
	const ids = await transactions(30);
	const items = ids.map((id, i) => ({ id: i % 3 === 2 ? `0e0e0e0e-0000-4000-8000-${String(i).padStart(12, '0')}` : id }));
	const result = await fixture.run(GET, { items, continueOnFail: true });
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	result.items.forEach((item, i) => {
		if (i % 3 === 2) expect(item.json).toEqual({ error: 'Transaction not found [HTTP 404]', description: expect.stringMatching(/ID does not exist/), httpCode: '404' });
		else expect(item.json.id).toBe(ids[i]);
	});
});

test('without Continue On Fail the first failing item (in input order) fails the node, as one at a time would', async () => {
	const ids = await transactions(20);
	const items = ids.map((id, i) => ({ id: i === 7 || i === 4 ? `0e0e0e0e-0000-4000-8000-00000000000${i}` : id }));
	const result = await fixture.run(GET, { items });
	const error = result.error as NodeApiError;
	expect(error.message).toBe('Transaction not found [HTTP 404]');
	expect(error.context.itemIndex).toBe(4);
	expect(result.items).toEqual([]);
	// Nothing new started after the failure: at most the items already in flight were read.
	expect(fixture.apiRequests().length).toBeLessThan(20);
});

describe('rate limits', () => {
	beforeEach(() => fixture.sandbox.configure({ latency: { fixedMs: 0 } }));

	test('a rate-limited read is asked again after the Retry-After the service names, and answered', async () => {
		const [id] = await transactions(1);
		fixture.sandbox.injectFailure({ method: 'GET', path: `/api/v2/transactions/${id}`, status: 429, headers: { 'retry-after': '1' } });
		const result = await fixture.run(GET, { items: [{ id }] });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.id).toBe(id);
		const [first, second] = fixture.apiRequests();
		expect(second.startedMs! - first.finishedMs!).toBeGreaterThanOrEqual(950);
	});

	test('it gives up after 3 more tries and says how long it waited', async () => {
		const [id] = await transactions(1);
		fixture.sandbox.injectFailure({ method: 'GET', path: `/api/v2/transactions/${id}`, status: 429, headers: { 'retry-after': '0' }, times: Infinity });
		const result = await fixture.run(GET, { items: [{ id }] });
		const error = result.error as NodeApiError;
		expect(error.httpCode).toBe('429');
		expect(error.description).toMatch(/Asked 4 times; waited 0 s, 0 s, 0 s as the service asked\.$/);
		expect(fixture.apiRequests()).toHaveLength(4);
	});

	test('a wait longer than 60 seconds is not waited for: the error names it', async () => {
		const [id] = await transactions(1);
		fixture.sandbox.injectFailure({ method: 'GET', path: `/api/v2/transactions/${id}`, status: 429, headers: { 'retry-after': '300' } });
		const result = await fixture.run(GET, { items: [{ id }] });
		expect((result.error as NodeApiError).description).toMatch(/Try again after 300 seconds/);
		expect(fixture.apiRequests()).toHaveLength(1);
	});

	test('a rate-limited payout is never sent again', async () => {
		const beneficiary = await createBeneficiary(fixture);
		fixture.sandbox.clearRequests();
		fixture.sandbox.injectFailure({ method: 'POST', path: '/api/v2/wallets/payout/initialize', status: 429, headers: { 'retry-after': '0' } });
		const result = await fixture.run({
			resource: 'payout',
			operation: 'initiate',
			amount: 100,
			sourceWalletCurrency: 'USD',
			customerEmail: 'ann@example.com',
			description: 'x',
			beneficiaryMode: 'id',
			beneficiaryId: { __rl: true, mode: 'id', value: beneficiary.id as string },
		});
		expect((result.error as NodeApiError).httpCode).toBe('429');
		expect(fixture.apiRequests()).toHaveLength(1);
	});
});

test('operations that create something send up to Items per Batch at once, the output in input order', async () => {
	const beneficiaries: IDataObject[] = [];
	for (let i = 0; i < 6; i++) beneficiaries.push(await createBeneficiary(fixture, { customerEmail: `p${i}@example.com` }));
	fixture.sandbox.clearRequests();
	const payout = (batching: INodeParameters): INodeParameters => ({
		resource: 'payout',
		operation: 'initiate',
		amount: '={{ $json.amount }}',
		sourceWalletCurrency: 'USD',
		customerEmail: 'ann@example.com',
		description: 'x',
		beneficiaryMode: 'id',
		beneficiaryId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		batching,
	});
	const items = (from: number) => beneficiaries.map((b, i) => ({ id: b.id, amount: from + i }));
	const result = await fixture.run(payout({ itemsPerBatch: 3 }), { items: items(100) });
	await settle();
	expect(result.error).toBeUndefined();
	expect(maxInFlight(fixture.apiRequests())).toBe(3);
	// The output states amounts in major units (USD 1.00 for 100 cents).
	expect(result.items.map((item) => [(item.json as IDataObject).amount, item.pairedItem])).toEqual(
		[1, 1.01, 1.02, 1.03, 1.04, 1.05].map((amount, i) => [amount, { item: i }]),
	);

	fixture.sandbox.clearRequests();
	const oneByOne = await fixture.run(payout({ itemsPerBatch: 1 }), { items: items(200) });
	expect(oneByOne.error).toBeUndefined();
	const sent = fixture.apiRequests();
	expect(maxInFlight(sent)).toBe(1);
	expect(sent.map((r) => (r.body as IDataObject).amount)).toEqual([200, 201, 202, 203, 204, 205]);
});
