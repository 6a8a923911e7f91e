/**
 * Transaction → Wait for Final Status, and Payout → Initiate's "Wait for Final Status" option,
 * over real HTTP against the sandbox with payouts settling by themselves after a delay.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { maxInFlight } from '../../../helpers/sandbox/inFlight';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, initiatePayout } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

const FAST = { firstCheckSeconds: 0.1, longestIntervalSeconds: 0.4 };
const WAIT: INodeParameters = {
	resource: 'transaction',
	operation: 'waitForFinal',
	transactionId: '={{ $json.id }}',
	maxWaitSeconds: 5,
	waitOptions: FAST,
};

afterEach(() => fixture.sandbox.configure({ settlement: { delayMs: null } }));

/** Payout → Initiate to a saved beneficiary, the amount from the item, with Wait for Final Status. */
const payAndWait = (beneficiaryId: string, extra: INodeParameters): INodeParameters => ({
	resource: 'payout',
	operation: 'initiate',
	amount: '={{ $json.amount }}',
	sourceWalletCurrency: 'USD',
	customerEmail: 'ann@example.com',
	description: 'Payroll',
	beneficiaryMode: 'id',
	beneficiaryId: { __rl: true, mode: 'id', value: beneficiaryId },
	waitForFinalStatus: true,
	waitOptions: FAST,
	...extra,
});

test('waits until each payout settles; the output is the transaction with settled, finalStatus, time and checks, in input order', async () => {
	const ids: string[] = [];
	for (let i = 0; i < 5; i++) ids.push((await initiatePayout(fixture, { amount: 100 + i })).id as string);
	fixture.sandbox.clearRequests();
	// The service settles each payout right after its first check saw it in flight.
	const requests = fixture.sandbox.requests;
	const push = requests.push;
	requests.push = function (this: typeof requests, ...recorded: typeof requests) {
		for (const request of recorded) {
			const id = request.path.split('/').pop()!;
			if (ids.includes(id) && !requests.some((r) => r.path === request.path)) setImmediate(() => void fixture.sandbox.controls.settlePayout(id));
		}
		return push.apply(this, recorded);
	};

	const result = await fixture.run(WAIT, { items: ids.map((id) => ({ id })) }).finally(() => (requests.push = push));
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
	for (const [i, item] of result.items.entries()) {
		expect(item.json).toMatchObject({ id: ids[i], status: 'success', settled: true, finalStatus: 'success' });
		// The first check saw it in flight, the second settled: 0.1 s, then 0.2 s later.
		expect(item.json.checks).toBe(2);
		expect(item.json.waitedSeconds).toBeGreaterThanOrEqual(0.3);
	}
	// Every check is one read, nothing else.
	const checks = result.items.reduce((sum, item) => sum + (item.json.checks as number), 0);
	expect(fixture.apiRequests()).toHaveLength(checks);
	expect(fixture.apiRequests().every((r) => r.method === 'GET')).toBe(true);
});

test('a failed payout ends the wait with its reason; a reversal is waited for when success is not final', async () => {
	const failing = await createBeneficiary(fixture);
	const reversing = await createBeneficiary(fixture);
	fixture.sandbox.configure({
		settlement: {
			delayMs: 200,
			rules: [
				{ beneficiaryId: failing.id as string, outcome: 'failed', reason: 'Account closed' },
				{ beneficiaryId: reversing.id as string, outcome: 'reversed', reason: 'Returned' },
			],
		},
	});
	const pay = async (beneficiaryId: string) =>
		(await fixture.run({
			resource: 'payout',
			operation: 'initiate',
			amount: 100,
			sourceWalletCurrency: 'USD',
			customerEmail: 'ann@example.com',
			description: 'x',
			beneficiaryMode: 'id',
			beneficiaryId: { __rl: true, mode: 'id', value: beneficiaryId },
		}, { trigger: { beneficiaryId } })).items[0].json.id as string;
	const failedId = await pay(failing.id as string);
	const reversedId = await pay(reversing.id as string);

	const failed = await fixture.run(WAIT, { items: [{ id: failedId }] });
	expect(failed.items[0].json).toMatchObject({ settled: true, finalStatus: 'failed', failedReason: 'Account closed' });

	const reversed = await fixture.run({ ...WAIT, waitOptions: { ...FAST, finalStatuses: 'failed, Reversed' } }, { items: [{ id: reversedId }] });
	expect(reversed.items[0].json).toMatchObject({ settled: true, finalStatus: 'reversed', failedReason: 'Returned' });
});

test('a payout that does not settle in time is output with settled false after the last check', async () => {
	const { id } = await initiatePayout(fixture);
	fixture.sandbox.clearRequests();
	const result = await fixture.run({ ...WAIT, maxWaitSeconds: 1 }, { items: [{ id }] });
	expect(result.error).toBeUndefined();
	expect(result.items[0].json).toMatchObject({ id, status: 'initiated', settled: false, finalStatus: null });
	expect(result.items[0].json.waitedSeconds).toBeGreaterThanOrEqual(1);
	// 0.1 s, then 0.2, 0.4, 0.4 … capped, and one last check at the deadline: a handful, not a
	// flood (how many of the growing waits fit before the deadline depends on the machine's load).
	expect(result.items[0].json.checks).toBeGreaterThanOrEqual(2);
	expect(result.items[0].json.checks).toBeLessThanOrEqual(5);
});

test('Continue On Fail: an unknown transaction is an error item in its place', async () => {
	const id = (await initiatePayout(fixture)).id as string;
	setTimeout(() => void fixture.sandbox.controls.settlePayout(id), 100);
	const result = await fixture.run(WAIT, {
		items: [{ id: '0e0e0e0e-0000-4000-8000-000000000000' }, { id }],
		continueOnFail: true,
	});
	expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	expect(result.items[0].json).toMatchObject({ error: 'Transaction not found [HTTP 404]', httpCode: '404' });
	expect(result.items[1].json).toMatchObject({ settled: true, finalStatus: 'success' });
});

test('Final Statuses and the times are checked before anything is read', async () => {
	const result = await fixture.run({ ...WAIT, waitOptions: { finalStatuses: ' , ' } }, { items: [{ id: 'x' }] });
	expect(result.error?.message).toBe('Invalid "Final Statuses": names no status; give at least one, e.g. success, failed (item 0)');
	expect(fixture.apiRequests()).toHaveLength(0);
});

test('Payout → Initiate with Wait for Final Status: all sent first, then waited together; one node for the whole run', async () => {
	const beneficiaries: IDataObject[] = [];
	for (let i = 0; i < 4; i++) beneficiaries.push(await createBeneficiary(fixture, { customerEmail: `p${i}@example.com` }));
	fixture.sandbox.configure({
		settlement: { delayMs: 250, rules: [{ beneficiaryId: beneficiaries[2].id as string, outcome: 'failed', reason: 'Account closed' }] },
	});
	fixture.sandbox.clearRequests();
	const result = await fixture.run(
		payAndWait('={{ $json.id }}', { maxWaitSeconds: 5 }),
		{ items: beneficiaries.map((b, i) => ({ id: b.id, amount: 100 + i })) },
	);
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.centAmount, item.json.settled, item.json.finalStatus])).toEqual([
		[100, true, 'success'],
		[101, true, 'success'],
		[102, true, 'failed'],
		[103, true, 'success'],
	]);
	expect(result.items[2].json.failedReason).toBe('Account closed');
	const requests = fixture.apiRequests();
	// All four payouts were sent before the first check.
	expect(requests.slice(0, 4).map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'POST']);
	expect(requests.slice(4).every((r) => r.method === 'GET')).toBe(true);
});

test('Payout → Initiate, 40 payouts waiting at once: their status checks stay within Items per Batch in flight', async () => {
	const beneficiary = await createBeneficiary(fixture);
	fixture.sandbox.configure({ settlement: { delayMs: 300 }, latency: { fixedMs: 20, jitterMs: 0 } });
	fixture.sandbox.clearRequests();
	const result = await fixture.run(
		payAndWait(beneficiary.id as string, { maxWaitSeconds: 10, batching: { itemsPerBatch: 4 } }),
		{ items: Array.from({ length: 40 }, (_, i) => ({ amount: 100 + i })) },
	);
	fixture.sandbox.configure({ latency: { fixedMs: 0 } });
	expect(result.error).toBeUndefined();
	expect(result.items.every((item) => item.json.settled === true)).toBe(true);
	const checks = fixture.apiRequests().filter((r) => r.method === 'GET');
	expect(maxInFlight(checks)).toBe(4);
	expect(maxInFlight(fixture.apiRequests().filter((r) => r.method === 'POST'))).toBe(4);
	// All 40 wait at once: far less than 40 one-by-one waits of at least 0.3 s each.
	expect(checks.length / 40).toBeLessThan(4);
});

test('Add Run Summary: one item after the rows with the count per outcome, totals sent and paid per currency, and the rows that need attention', async () => {
	const good = await createBeneficiary(fixture);
	const closed = await createBeneficiary(fixture);
	fixture.sandbox.configure({ settlement: { delayMs: 100, rules: [{ beneficiaryId: closed.id as string, outcome: 'failed', reason: 'Account closed' }] } });
	const parameters: INodeParameters = {
		...payAndWait(good.id as string, {}),
		beneficiaryId: { __rl: true, mode: 'id', value: '={{ $json.beneficiaryId }}' },
		duplicateProtection: { idempotencyKey: '={{ $json.key }}' },
		payeeName: '={{ $json.name }}',
		runSummary: true,
	};
	const items = [
		{ key: 'r-1', name: 'Ann', amount: 1500, beneficiaryId: good.id },
		{ key: 'r-2', name: 'Bo', amount: 980, beneficiaryId: closed.id },
		{ key: 'r-3', name: 'Cy', amount: 250, beneficiaryId: good.id },
	];
	const first = await fixture.run(parameters, { items });
	expect(first.error).toBeUndefined();
	expect(first.items).toHaveLength(4);
	expect(first.items.at(-1)!.pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	const summary = first.items.at(-1)!.json;
	const payoutOf = first.items[1].json;
	expect(summary).toEqual({
		summary: true,
		rows: 3,
		byOutcome: { success: 2, failed: 1 },
		sent: { USD: { minor: 2730, major: '27.30 USD' } },
		paid: { USD: { minor: 1750, major: '17.50 USD' } },
		attention: [{ itemIndex: 1, payee: 'Bo', amount: '9.80 USD', outcome: 'failed', reason: 'Account closed', transactionId: payoutOf.id }],
		text: ['Payout run: 3 rows. success: 2, failed: 1.', 'Sent: 27.30 USD. Paid (final status success): 17.50 USD.', 'Needs attention: Bo (9.80 USD): failed, Account closed'].join('\n'),
	});
	// Run again: every row already submitted, nothing sent, nothing needs attention.
	const again = (await fixture.run(parameters, { items })).items.at(-1)!.json;
	expect([again.byOutcome, again.sent, again.attention]).toEqual([{ 'already submitted': 3 }, {}, []]);
	// Without the option: the rows only.
	expect((await fixture.run({ ...parameters, runSummary: false }, { items })).items).toHaveLength(3);
});
