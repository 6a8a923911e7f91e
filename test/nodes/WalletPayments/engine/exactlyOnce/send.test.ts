/**
 * Operations that move money send several items at once (the Batching option, 10 in flight by
 * default), each still at most once: over real HTTP against the sandbox, with a round trip on
 * every answer. Order and pairing of the outputs, Continue On Fail, a refused item and a timeout
 * in the middle of a batch, and a Retry (the same trigger item: a re-run) after each, counting
 * what the sandbox really paid per payee.
 */
import type { IDataObject, INodeParameters, NodeApiError } from 'n8n-workflow';

import { maxInFlight } from '../../../../helpers/sandbox/inFlight';
import type { RunResult } from '../../../../helpers/n8n/runNode';
import { CLAIM_ROUNDS, MAX_QUEUE_RUN_ITEMS, MAX_RUN_ITEMS, takeoverWaitMs } from '../../../../../nodes/shared/ledger';
import { afterRecordCall, dropOldest, processedValues, recordCalls, rewriteRow, slowRecordCalls } from '../../../../helpers/n8n/deduplication';
import { useSandbox } from '../../../../helpers/sandbox/sandbox';
import { createBeneficiary, hintsOf } from '../../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();
const PAYOUT_PATH = '/api/v2/wallets/payout/initialize';
const UNKNOWN_BENEFICIARY = '0e0e0e0e-0000-4000-8000-000000000000';
const PAYEES = 25;

const PAYOUT: INodeParameters = {
	resource: 'payout',
	operation: 'initiate',
	amount: '={{ $json.amount }}',
	sourceWalletCurrency: 'USD',
	customerEmail: 'ann@example.com',
	description: '={{ "payee " + $json.payee }}',
	beneficiaryMode: 'id',
	beneficiaryId: { __rl: true, mode: 'id', value: '={{ $json.beneficiaryId }}' },
};

let beneficiaryId: string;
beforeEach(async () => {
	fixture.sandbox.configure({ latency: { fixedMs: 30, jitterMs: 20 }, references: 'lenient' });
	beneficiaryId = (await createBeneficiary(fixture)).id as string;
	fixture.sandbox.clearRequests();
});
afterAll(() => fixture.sandbox.configure({ latency: { fixedMs: 0 } }));

/** One row per payee; `refused` payees have a beneficiary the service does not know. */
const payees = (refused: number[] = []) =>
	Array.from({ length: PAYEES }, (_, payee) => ({ payee, amount: 1000 + payee, beneficiaryId: refused.includes(payee) ? UNKNOWN_BENEFICIARY : beneficiaryId }));

/** How many payouts the service made to each payee (by the payout's description). */
function paidPerPayee(): number[] {
	const paid = new Array<number>(PAYEES).fill(0);
	for (const tx of fixture.sandbox.state.transactions) {
		const match = tx.kind === 'payout' ? /^payee (\d+)$/.exec(String(tx.description)) : null;
		if (match) paid[Number(match[1])]++;
	}
	return paid;
}

const outputs = (result: RunResult) => result.items.map((item) => item.json as IDataObject);
const TRIGGER = { body: 'payroll 2026-11' };

test('25 payouts: 10 in flight, the outputs in input order and paired, each payee paid once; a Retry sends nothing', async () => {
	const rows = payees();
	const result = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER });
	expect(result.error).toBeUndefined();
	expect(maxInFlight(fixture.apiRequests())).toBe(10);
	expect(outputs(result).map((json) => json.description)).toEqual(rows.map((row) => `payee ${row.payee}`));
	expect(result.items.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
	expect(paidPerPayee()).toEqual(rows.map(() => 1));

	fixture.sandbox.clearRequests();
	const retry = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER });
	expect(fixture.apiRequests()).toHaveLength(0);
	expect(outputs(retry).map((json) => [json.alreadySubmitted, json.outcome])).toEqual(rows.map(() => [true, 'accepted']));
	expect(paidPerPayee()).toEqual(rows.map(() => 1));
});

test('Continue On Fail, a refused payee in the middle: its error item in its place, the others paid; a Retry sends only it again', async () => {
	const rows = payees([12]);
	const result = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER, continueOnFail: true });
	expect(result.error).toBeUndefined();
	expect(outputs(result).map((json) => (json.error === undefined ? json.description : `error ${String(json.httpCode)}`))).toEqual(
		rows.map((row) => (row.payee === 12 ? 'error 404' : `payee ${row.payee}`)),
	);
	expect(result.items.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));

	fixture.sandbox.clearRequests();
	const retry = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER, continueOnFail: true });
	// Only the refused payee is asked again (its record was freed), and refused again.
	expect(fixture.apiRequests().map((r) => (r.body as IDataObject).amount)).toEqual([1012]);
	expect(outputs(retry).map((json) => json.alreadySubmitted ?? json.httpCode)).toEqual(rows.map((row) => (row.payee === 12 ? '404' : true)));
	expect(paidPerPayee()).toEqual(rows.map((row) => (row.payee === 12 ? 0 : 1)));
});

test('without Continue On Fail, a refused payee stops the run: what was in flight finishes, nothing new starts, and a Retry pays the rest once', async () => {
	// Every answer takes 100 ms: payee 1's refusal is known long before a third round of sends
	// (payees 20 and later) could start.
	fixture.sandbox.configure({ latency: { fixedMs: 100, jitterMs: 0 } });
	const rows = payees([1]);
	const result = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER });
	expect((result.error as NodeApiError).httpCode).toBe('404');
	const firstRun = paidPerPayee();
	expect(firstRun.slice(0, 2)).toEqual([1, 0]);
	expect(firstRun.slice(20)).toEqual([0, 0, 0, 0, 0]);

	// The user fixes payee 1 and retries until the run passes: payees claimed ahead but never
	// sent were freed (sent now, not "unknown"), and nobody is paid twice.
	const fixed = payees();
	for (let attempt = 0; attempt < 3; attempt++) {
		const retry = await fixture.run(PAYOUT, { items: fixed.map((row) => ({ ...row })), trigger: TRIGGER });
		if (retry.error === undefined) {
			const marked = outputs(retry).map((json) => (json.alreadySubmitted ? json.outcome : 'sent'));
			expect(marked).toEqual(firstRun.map((paid) => (paid === 0 ? 'sent' : 'accepted')));
			break;
		}
	}
	expect(paidPerPayee()).toEqual(rows.map(() => 1));
});

test('a timeout in the middle of a batch: that payee is kept as unknown and never resent; the rest are paid once', async () => {
	fixture.sandbox.injectFailure({ method: 'POST', path: PAYOUT_PATH, status: 0, action: 'hang', skip: 4 });
	const rows = payees();
	const result = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER, continueOnFail: true, credentials: { timeout: 1 } });
	expect(result.error).toBeUndefined();
	const failed = outputs(result).flatMap((json, payee) => (json.error === undefined ? [] : [payee]));
	expect(failed).toHaveLength(1);
	expect(outputs(result)[failed[0]].description).toMatch(/will not be sent again by a re-run of this node/);
	expect(result.items.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));

	fixture.sandbox.clearRequests();
	const retry = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER, continueOnFail: true, credentials: { timeout: 1 } });
	expect(fixture.apiRequests()).toHaveLength(0);
	expect(outputs(retry).map((json) => json.outcome)).toEqual(rows.map((_, payee) => (payee === failed[0] ? 'unknown' : 'accepted')));
	// The hung request never reached the service's books: that payee is the one to check.
	expect(paidPerPayee()).toEqual(rows.map((_, payee) => (payee === failed[0] ? 0 : 1)));
});

test('the store drops its oldest records while a run sends: the run writes its own again and sends nothing more; the items left say which were sent', async () => {
	fixture.sandbox.configure({ latency: { fixedMs: 0 } });
	const rows = payees();
	// After the run's second store call (its second window of 10), the store loses its 5 oldest
	// records (the run's mark and 4 keys), as n8n's limit would once other runs filled it.
	afterRecordCall(2, () => dropOldest('test-workflow', 'wallet-node', 5));
	const result = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER, continueOnFail: true });
	expect(result.error).toBeUndefined();
	const out = outputs(result);
	// A window is Items per Batch (10), more only when a store call is slow: the loss is seen by
	// the third window's call (its items are not sent), or, if the second window took every item
	// left, by the last call, when nothing more was to be sent.
	const sent = out.findIndex((json) => json.error !== undefined);
	const sentCount = sent === -1 ? PAYEES : sent;
	expect(sentCount).toBeGreaterThanOrEqual(20);
	expect(paidPerPayee()).toEqual(rows.map((_, payee) => (payee < sentCount ? 1 : 0)));
	for (const json of out.slice(sentCount)) {
		expect(json.error).toMatch(/^Not sent: n8n could not record this item before sending it/);
		expect(json.description).toBe(
			`Nothing more was sent by this run. Items sent by this run: 0–${sentCount - 1} (${sentCount}). The run it repeats may have sent items this run found new: check the items after those before running them again.`,
		);
	}

	// Every record of what was sent was written again: a Retry sends none of it again.
	fixture.sandbox.clearRequests();
	const retry = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER, continueOnFail: true });
	expect(fixture.apiRequests()).toHaveLength(0);
	expect(outputs(retry).map((json) => json.outcome)).toEqual(rows.map((_, payee) => (payee < sentCount ? 'accepted' : 'unknown')));
	expect(paidPerPayee()).toEqual(rows.map((_, payee) => (payee < sentCount ? 1 : 0)));
});

test('slow store calls make windows larger only in a large run: a crash in a 100-item run leaves at most two windows of Items per Batch unanswered', async () => {
	fixture.sandbox.configure({ latency: { fixedMs: 0 } });
	// Every store call takes 30 ms more (a large row, or a busy database in queue mode).
	slowRecordCalls(30);
	const rows = (count: number, run: string) => Array.from({ length: count }, (_, payee) => ({ payee, amount: 1000 + payee, beneficiaryId, run }));
	const payouts = () => fixture.apiRequests().filter((request) => request.path === PAYOUT_PATH).length;

	// A window is the item keys a call records for the first time (a call also carries the answers
	// since the call before, each with its day, the node's day and the run's mark). One window is
	// reserved ahead of the one being sent, so a crash leaves at most two windows unanswered.
	const seen = new Set<string>();
	const windowsOf = (calls: string[][]) =>
		calls.map((values) => values.filter((value) => /^n8n:[0-9a-f]{64}$/.test(value) && !seen.has(value) && seen.add(value)).length).filter((keys) => keys > 0);
	const small = await fixture.run(PAYOUT, { items: rows(100, 'small'), trigger: { body: 'small run' } });
	expect(small.error).toBeUndefined();
	expect(payouts()).toBe(100);
	expect(windowsOf(recordCalls())).toEqual(Array(10).fill(10));

	// A run of 1,000: windows grow once three calls in a row were slow, to a 20th of the run.
	const before = recordCalls().length;
	fixture.sandbox.clearRequests();
	const large = await fixture.run(PAYOUT, { items: rows(1000, 'large'), trigger: { body: 'large run' } });
	expect(large.error).toBeUndefined();
	expect(payouts()).toBe(1000);
	const sizes = windowsOf(recordCalls().slice(before));
	expect(sizes.slice(0, 3)).toEqual([10, 10, 10]);
	expect(Math.max(...sizes)).toBeGreaterThan(40);
});

describe('queue mode (the credential says several n8n processes share the store): each window is a claim', () => {
	const QUEUE = { queueMode: true, claimWaitMs: 200 };

	test('nobody else: every item sent once, each window waited for the claim wait first', async () => {
		fixture.sandbox.configure({ latency: { fixedMs: 0 } });
		const rows = payees();
		const started = Date.now();
		const result = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER, credentials: QUEUE });
		expect(result.error).toBeUndefined();
		expect(paidPerPayee()).toEqual(rows.map(() => 1));
		// 25 rows: windows of Items per Batch (10), three of them, each waiting 200 ms.
		expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 200);
	});

	/** A run of one row first: this process's first store call on the node's row is a warm-up. */
	const warmUp = async () => {
		await fixture.run(PAYOUT, { items: payees().slice(24), trigger: { body: 'warm-up' }, credentials: QUEUE });
		fixture.sandbox.clearRequests();
		fixture.sandbox.state.transactions.length = 0;
	};

	test('another process claimed the same rows at the same moment and its write dropped this run’s: none is sent, each is already submitted', async () => {
		fixture.sandbox.configure({ latency: { fixedMs: 0 } });
		await warmUp();
		const rows = payees();
		// The other process read the row before this run's first claim wrote, and wrote back its own
		// claim of the same keys: this run's token is gone, the keys are there (the other's).
		afterRecordCall(1, () => rewriteRow('test-workflow', 'wallet-node', (row) => row.filter((value) => !value.startsWith('n8n-claim:'))));
		const result = await fixture.run(PAYOUT, { items: rows.slice(0, 10), trigger: TRIGGER, credentials: QUEUE, continueOnFail: true });
		expect(result.error).toBeUndefined();
		const out = outputs(result);
		expect(out.map((json) => [json.alreadySubmitted, json.sent, json.outcome])).toEqual(out.map(() => [true, false, 'unknown']));
		expect(String(out[0].message)).toMatch(/^Not sent: another run of this node \(in another n8n process\) recorded this item at the same moment/);
		expect(fixture.apiRequests().filter((request) => request.path === PAYOUT_PATH)).toHaveLength(0);
	});

	test('every attempt of a claim written over: nothing is sent, every item says why, and a Retry sends them', async () => {
		fixture.sandbox.configure({ latency: { fixedMs: 0 } });
		await warmUp();
		const rows = payees().slice(0, 10);
		// The writes of the claim's attempts and their checks (two store calls each) are each lost
		// right after they are made (another process writes back the row it read before them).
		let lost = 0;
		const loseTheWrite = (): void => {
			rewriteRow('test-workflow', 'wallet-node', () => []);
			if (++lost < 2 * CLAIM_ROUNDS) afterRecordCall(1, loseTheWrite);
		};
		afterRecordCall(1, loseTheWrite);
		const result = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER, credentials: QUEUE, continueOnFail: true });
		expect(result.error).toBeUndefined();
		const out = outputs(result);
		for (const json of out) expect(json.error).toMatch(/^Not sent: n8n could not record this item before sending it \(n8n could not make sure that no other run records these items at the same moment: another n8n process's store call wrote over this claim 6 time\(s\)\)/);
		expect(paidPerPayee().slice(0, 10)).toEqual(rows.map(() => 0));
		const retry = await fixture.run(PAYOUT, { items: rows, trigger: TRIGGER, credentials: QUEUE });
		expect(retry.error).toBeUndefined();
		expect(paidPerPayee().slice(0, 10)).toEqual(rows.map(() => 1));
	});

	test('a run larger than a queue-mode run may be (five records per item) is refused before anything is sent; in one process (three) the limit is higher', async () => {
		const FIXED: INodeParameters = { ...PAYOUT, amount: 1000, description: 'payroll', beneficiaryId: { __rl: true, mode: 'id', value: beneficiaryId }, duplicateProtection: { idempotencyKey: '={{ "row-" + $itemIndex }}' } };
		const result = await fixture.run(FIXED, { items: Array.from({ length: MAX_QUEUE_RUN_ITEMS + 1 }, () => ({})), trigger: TRIGGER, credentials: QUEUE });
		expect(result.error?.message).toBe(`Nothing was sent: ${MAX_QUEUE_RUN_ITEMS + 1} items are more than one run of this node may send while its records are claims across n8n processes (${MAX_QUEUE_RUN_ITEMS})`);
		// Half of what the store remembers: 620,000 records, 3 per item in one process, 5 with claims.
		expect([MAX_RUN_ITEMS, MAX_QUEUE_RUN_ITEMS]).toEqual([103_333, 62_000]);
		const oneProcess = await fixture.run(FIXED, { items: Array.from({ length: MAX_RUN_ITEMS + 1 }, () => ({})), trigger: TRIGGER });
		expect(oneProcess.error?.message).toBe(`Nothing was sent: ${MAX_RUN_ITEMS + 1} items are more than one run of this node may send (${MAX_RUN_ITEMS})`);
		expect(fixture.apiRequests()).toHaveLength(0);
	});

	test('derived keys keep two records more per item (their places): 5 in one process, 7 with claims', async () => {
		const DERIVED: INodeParameters = { ...PAYOUT, amount: 1000, description: 'payroll', beneficiaryId: { __rl: true, mode: 'id', value: beneficiaryId } };
		const [oneProcessMost, queueMost] = [Math.floor(620_000 / 10), Math.floor(620_000 / 14)];
		const queue = await fixture.run(DERIVED, { items: Array.from({ length: queueMost + 1 }, () => ({})), trigger: TRIGGER, credentials: QUEUE });
		expect(queue.error?.message).toBe(`Nothing was sent: ${queueMost + 1} items are more than one run of this node may send while its records are claims across n8n processes (${queueMost})`);
		const oneProcess = await fixture.run(DERIVED, { items: Array.from({ length: oneProcessMost + 1 }, () => ({})), trigger: TRIGGER });
		expect(oneProcess.error?.message).toBe(`Nothing was sent: ${oneProcessMost + 1} items are more than one run of this node may send (${oneProcessMost})`);
		expect(fixture.apiRequests()).toHaveLength(0);
	});

	describe('a Retry after the worker died: rows claimed and never sent are sent, once', () => {
		const KEYED: INodeParameters = { ...PAYOUT, duplicateProtection: { idempotencyKey: '={{ "inv-" + $json.payee }}' } };
		/**
		 * What a worker that died mid-run leaves in the node's row (queue mode): payees 0–3 sent and
		 * answered, 4–5 sent with no answer recorded, 6–8 claimed (key and claimed marker, the claim's
		 * first write) while it waited for the claim to hold, so never sent; payee 9 recorded by one
		 * n8n process (no markers), its outcome unknown.
		 */
		const deadRun = () =>
			rewriteRow('test-workflow', 'wallet-node', () => [
				...[0, 1, 2, 3].flatMap((p) => [`inv-${p}`, `inv-${p}#claimed`, `inv-${p}#sending`, `inv-${p}#accepted`]),
				...[4, 5].flatMap((p) => [`inv-${p}`, `inv-${p}#claimed`, `inv-${p}#sending`]),
				...[6, 7, 8].flatMap((p) => [`inv-${p}`, `inv-${p}#claimed`]),
				'inv-9',
			]);
		const sentTo = () =>
			fixture
				.apiRequests()
				.filter((request) => request.path === PAYOUT_PATH)
				.map((request) => Number(/^payee (\d+)$/.exec(String((request.body as IDataObject).description))![1]))
				.sort((a, b) => a - b);
		const shown = (result: RunResult) => outputs(result).map((json) => (json.alreadySubmitted ? String(json.outcome) : 'sent'));

		beforeEach(async () => {
			fixture.sandbox.configure({ latency: { fixedMs: 0 } });
			await warmUp();
		});

		test('Retry: the claimed rows are sent after the takeover wait, the others are not; a second Retry sends nothing', async () => {
			deadRun();
			const rows = payees().slice(0, 10);
			const started = Date.now();
			const retry = await fixture.run(KEYED, { items: rows, trigger: TRIGGER, credentials: QUEUE, mode: 'retry' });
			expect(retry.error).toBeUndefined();
			expect(Date.now() - started).toBeGreaterThanOrEqual(takeoverWaitMs(QUEUE.claimWaitMs));
			expect(sentTo()).toEqual([6, 7, 8]);
			expect(shown(retry)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'unknown', 'unknown', 'sent', 'sent', 'sent', 'unknown']);
			// The one-process record got its sending marker: no later Retry takes it for claimed and unsent.
			expect(processedValues('test-workflow', 'wallet-node')).toEqual(expect.arrayContaining(['inv-9#sending', 'inv-6#sending', 'inv-6#accepted']));

			fixture.sandbox.clearRequests();
			const again = await fixture.run(KEYED, { items: rows, trigger: TRIGGER, credentials: QUEUE, mode: 'retry' });
			expect(again.error).toBeUndefined();
			expect(sentTo()).toEqual([]);
			expect(shown(again)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'unknown', 'unknown', 'accepted', 'accepted', 'accepted', 'unknown']);
		});

		test('a claim that failed closed (a store call as long as the claim wait): nothing sent; a Retry of that execution sends every row once', async () => {
			const rows = payees().slice(0, 10);
			slowRecordCalls(QUEUE.claimWaitMs + 50);
			const failed = await fixture.run(KEYED, { items: rows, trigger: TRIGGER, credentials: QUEUE });
			expect(String(failed.error?.message)).toMatch(/^Not sent: n8n could not record this item before sending it \(.*took \d+ ms, as long as the claim wait \(200 ms\) or longer\)/);
			expect(sentTo()).toEqual([]);
			slowRecordCalls(0);
			const retry = await fixture.run(KEYED, { items: rows, trigger: TRIGGER, credentials: QUEUE, mode: 'retry' });
			expect(retry.error).toBeUndefined();
			expect(sentTo()).toEqual(rows.map((row) => row.payee));
			expect(paidPerPayee().slice(0, 10)).toEqual(rows.map(() => 1));
		});

		test('a new run of the same rows (where n8n offers no Retry): the claimed rows are sent after the takeover wait, as a Retry sends them, and the run says so', async () => {
			deadRun();
			const started = Date.now();
			const result = await fixture.run(KEYED, { items: payees().slice(0, 10), trigger: TRIGGER, credentials: QUEUE });
			expect(result.error).toBeUndefined();
			expect(Date.now() - started).toBeGreaterThanOrEqual(takeoverWaitMs(QUEUE.claimWaitMs));
			expect(sentTo()).toEqual([6, 7, 8]);
			expect(shown(result)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'unknown', 'unknown', 'sent', 'sent', 'sent', 'unknown']);
			expect(hintsOf(result.run).map((hint) => hint.message)).toEqual(
				expect.arrayContaining([expect.stringMatching(/^3 rows had been reserved by an earlier run that never sent them/), expect.stringMatching(/^3 rows came out "already submitted" with outcome "unknown"/)]),
			);
		});

		test('a run still alive marks a claimed row sending during the Retry’s wait: the Retry does not send it', async () => {
			deadRun();
			// The Retry's first call records the window, its second asks for the markers; then another
			// run, alive in its claim of payee 7, marks it sending.
			afterRecordCall(2, () => rewriteRow('test-workflow', 'wallet-node', (row) => [...row, 'inv-7#sending']));
			const retry = await fixture.run(KEYED, { items: payees().slice(0, 10), trigger: TRIGGER, credentials: QUEUE, mode: 'retry' });
			expect(retry.error).toBeUndefined();
			expect(sentTo()).toEqual([6, 8]);
			expect(shown(retry)[7]).toBe('unknown');
		});
	});
});
