/**
 * nodes/shared/ledger/store.ts (with claim.ts and verify.ts) against n8n's store behaviour in queue mode: two workers that
 * record a node's first values at the same moment both insert its row, and one insert fails on
 * the unique key (measured: test/queue/throughput.queue.test.ts). That call is made again and
 * then updates the row; other errors are not retried. And a call of another worker that read the
 * row before this one wrote writes it back without this one's values: settle writes them again.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { openStore } from '../../../../nodes/shared/ledger/store';
import { POOL_PATIENCE_MS } from '../../../../nodes/shared/ledger/pool';
import { VERIFY_AFTER_MS } from '../../../../nodes/shared/ledger/verify';

const DUPLICATE_ROW = new Error('duplicate key value violates unique constraint "PK_ca04b9d8dc72de268fe07a65773"');

function context(record: jest.Mock, remove: jest.Mock = jest.fn(async () => undefined), workflowId = 'workflow-1') {
	return {
		helpers: { checkProcessedAndRecord: record, removeProcessed: remove },
		getNode: () => ({ id: 'node-1', name: 'Pay' }),
		getWorkflow: () => ({ id: workflowId }),
	} as unknown as IExecuteFunctions;
}

describe('the store when another worker inserted the row first', () => {
	test('record: the insert that lost is made again, as an update, and its answer is used', async () => {
		const record = jest
			.fn()
			.mockRejectedValueOnce(DUPLICATE_ROW)
			.mockResolvedValueOnce({ new: ['k1'], processed: [] });
		await expect(openStore(context(record), 100).record(['k1'])).resolves.toEqual([]);
		expect(record).toHaveBeenCalledTimes(2);
	});

	test('remove: made again after the same collision', async () => {
		const remove = jest.fn().mockRejectedValueOnce(DUPLICATE_ROW).mockResolvedValueOnce(undefined);
		await openStore(context(jest.fn(), remove), 100).remove(['k1']);
		expect(remove).toHaveBeenCalledTimes(2);
	});

	test('other errors are not retried; a collision that keeps happening gives up after 3 tries', async () => {
		const broken = jest.fn().mockRejectedValue(new Error('connection terminated'));
		await expect(openStore(context(broken), 100).record(['k1'])).rejects.toThrow('connection terminated');
		expect(broken).toHaveBeenCalledTimes(1);
		const colliding = jest.fn().mockRejectedValue(DUPLICATE_ROW);
		await expect(openStore(context(colliding), 100).record(['k1'])).rejects.toThrow('duplicate key');
		expect(colliding).toHaveBeenCalledTimes(3);
	});
});

describe("the store when n8n's database pool gives no connection in time", () => {
	const POOL_TIMEOUT = new Error('timeout exceeded when trying to connect');
	afterEach(() => jest.useRealTimers());

	test('the call, which never reached the database, is made again after a wait, and its answer used', async () => {
		const record = jest
			.fn()
			.mockRejectedValueOnce(POOL_TIMEOUT)
			.mockResolvedValueOnce({ new: [], processed: ['k1'] });
		await expect(openStore(context(record), 100).record(['k1'])).resolves.toEqual(['k1']);
		expect(record).toHaveBeenCalledTimes(2);
	});

	test('a pool that stays full: made again 1, 2, 3, 4, then every 5 s, until 5 minutes are up; then its error', async () => {
		jest.useFakeTimers();
		const record = jest.fn().mockRejectedValue(POOL_TIMEOUT);
		const started = Date.now();
		const result = openStore(context(record), 100).record(['k1']);
		let settledAt: number | undefined;
		const settled = result.catch((error: unknown) => {
			settledAt = Date.now();
			return error;
		});
		for (const ms of [1000, 2000, 3000, 4000, 5000, 5000]) {
			await jest.advanceTimersByTimeAsync(ms - 1);
			const before = record.mock.calls.length;
			await jest.advanceTimersByTimeAsync(1);
			expect(record.mock.calls.length).toBe(before + 1);
		}
		// More than 4 calls (the earlier limit, which gave up after 86 s of a full pool in queue mode).
		await jest.advanceTimersByTimeAsync(POOL_PATIENCE_MS);
		expect(((await settled) as Error).message).toBe('timeout exceeded when trying to connect');
		// The last call is the last one whose wait still fits in the patience: 1+2+3+4+5 s, then 5 s each.
		expect(record).toHaveBeenCalledTimes(6 + Math.floor((POOL_PATIENCE_MS - 15000) / 5000));
		expect(settledAt! - started).toBeGreaterThan(POOL_PATIENCE_MS - 5000);
		expect(settledAt! - started).toBeLessThanOrEqual(POOL_PATIENCE_MS);
	});
});

/**
 * n8n's store as two queue-mode workers see it: one row, read and written back whole. `staleWrite`
 * plays the other worker's call that read the row before this one wrote and writes it back
 * after: this store's values are gone from the row, though its call said they were recorded.
 */
function racyRow() {
	let row: string[] = [];
	const calls: string[][] = [];
	const record = jest.fn(async (values: string[]) => {
		calls.push([...values]);
		const processed = values.filter((value) => row.includes(value));
		row = [...row, ...values.filter((value) => !row.includes(value))];
		return { new: values.filter((value) => !processed.includes(value)), processed };
	});
	return {
		record,
		calls,
		row: () => row,
		/** The other worker's write of what it read earlier (`snapshot`) plus its own value. */
		staleWrite: (snapshot: string[], own: string) => {
			row = [...snapshot, own];
		},
	};
}

describe('store.verify: records another worker wrote over are written again', () => {
	afterEach(() => jest.useRealTimers());

	test('a value written over is found missing a second later, written again, and checked again', async () => {
		const store = racyRow();
		const keys = openStore(context(store.record), 100);
		await expect(keys.record(['k1', 'k2'])).resolves.toEqual([]);
		store.staleWrite([], 'other-worker-value');
		const started = Date.now();
		await keys.verify();
		// Check 1 (≥ 1 s after the write): both missing, both written again; check 2 (≥ 1 s later): held.
		expect(Date.now() - started).toBeGreaterThanOrEqual(2 * VERIFY_AFTER_MS - 20);
		expect(store.calls).toEqual([['k1', 'k2'], ['k1', 'k2'], ['k1', 'k2']]);
		expect(store.row()).toEqual(expect.arrayContaining(['k1', 'k2', 'other-worker-value']));
	});

	test('values that held are checked once; values already there before this store are not its to check', async () => {
		const store = racyRow();
		store.staleWrite([], 'earlier');
		const keys = openStore(context(store.record), 100);
		await expect(keys.record(['earlier', 'k1'])).resolves.toEqual(['earlier']);
		await keys.verify();
		expect(store.calls).toEqual([['earlier', 'k1'], ['k1']]);
	});

	test('a later call checks the values old enough on the way, so verify has less to wait for', async () => {
		jest.useFakeTimers({ now: 0 });
		const store = racyRow();
		const keys = openStore(context(store.record), 100);
		await keys.record(['k1']);
		jest.setSystemTime(VERIFY_AFTER_MS);
		await keys.record(['k2']);
		expect(store.calls).toEqual([['k1'], ['k2', 'k1']]);
		const settled = keys.verify();
		await jest.advanceTimersByTimeAsync(VERIFY_AFTER_MS);
		await settled;
		expect(store.calls).toEqual([['k1'], ['k2', 'k1'], ['k2']]);
	});

	test('removed values are not written again; nothing recorded, nothing waited for', async () => {
		const store = racyRow();
		const remove = jest.fn(async () => undefined);
		const keys = openStore(context(store.record, remove), 100);
		await keys.record(['k1']);
		await keys.remove(['k1']);
		const started = Date.now();
		await keys.verify();
		expect(Date.now() - started).toBeLessThan(VERIFY_AFTER_MS / 2);
		expect(store.calls).toEqual([['k1']]);
	});

	test('a value written over at every check: gives up after 20 checks with an error that says what it means', async () => {
		jest.useFakeTimers({ now: 0 });
		const store = racyRow();
		const keys = openStore(context(store.record), 100);
		await keys.record(['k1']);
		store.record.mockImplementation(async (values: string[]) => {
			store.calls.push([...values]);
			return { new: values, processed: [] }; // written, and written over again before the next check
		});
		const settled = keys.verify().catch((error: Error) => error);
		await jest.advanceTimersByTimeAsync(25 * VERIFY_AFTER_MS);
		const error = (await settled) as Error & { description?: string };
		expect(error.message).toBe("n8n's de-duplication store kept losing 1 of this node's records");
		expect(error.description).toContain('a re-run may not know it');
		expect(store.calls).toHaveLength(21);
	});
});

/**
 * The claim across processes (queue mode): record with a token, wait, check the token held.
 * `racyRow` plays n8n's row; the other process's calls are played between this store's calls.
 */
describe('store.claim: of two processes claiming a value at the same moment, exactly one gets it', () => {
	const WAIT = 100;
	/** Plays `then` right after this store's `call`-th call (1-based). */
	function afterCall(store: ReturnType<typeof racyRow>, call: number, then: () => void) {
		const inner = store.record.getMockImplementation()!;
		store.record.mockImplementation(async (values: string[]) => {
			const answer = await inner(values);
			if (store.calls.length === call) then();
			return answer;
		});
	}
	const tokenOf = (values: string[]) => values.find((value) => value.startsWith('n8n-claim:'))!;
	/** A store on a row of its own: its first call is the warm-up (once per row and process). */
	let rows = 0;
	const claimStore = (store: ReturnType<typeof racyRow>) => openStore(context(store.record, undefined, `claim-workflow-${++rows}`), 100);

	test('nobody else: recorded with a token, checked after the wait: ours', async () => {
		const store = racyRow();
		const keys = claimStore(store);
		const started = Date.now();
		await expect(keys.claim(['k1', 'k2'], WAIT)).resolves.toEqual({ ours: ['k1', 'k2'], theirs: [], unresolved: [] });
		expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT - 5);
		// Checked twice, a claim wait apart (claim.ts CHECKS).
		expect(store.calls).toEqual([['k1', 'k2', tokenOf(store.calls[0])], [tokenOf(store.calls[0])], [tokenOf(store.calls[0])]]);
	});

	test('the first claim on a row in this process reads the row first (a warm-up that writes nothing), once', async () => {
		const store = racyRow();
		const count = jest.fn(async () => 0);
		const ctx = context(store.record, undefined, 'claim-workflow-warm');
		(ctx.helpers as unknown as { getProcessedDataCount: jest.Mock }).getProcessedDataCount = count;
		await openStore(ctx, 100).claim(['k1'], WAIT);
		await openStore(ctx, 100).claim(['k2'], WAIT);
		expect(count).toHaveBeenCalledTimes(1);
		expect(store.calls.map((values) => values.filter((value) => !value.startsWith('n8n-claim:')))).toEqual([['k1'], [], [], ['k2'], [], []]);
	});

	test('already recorded (an earlier run): theirs, and nothing is waited for', async () => {
		const store = racyRow();
		store.staleWrite([], 'k1');
		const keys = claimStore(store);
		const started = Date.now();
		await expect(keys.claim(['k1'], WAIT)).resolves.toEqual({ ours: [], theirs: ['k1'], unresolved: [] });
		expect(Date.now() - started).toBeLessThan(WAIT);
	});

	test('the other process claimed it at the same moment and its write dropped this one: theirs', async () => {
		const store = racyRow();
		// The other process read the row before this claim wrote, and writes its own claim after it.
		afterCall(store, 1, () => store.staleWrite([], 'k1'));
		const keys = claimStore(store);
		const claim = await keys.claim(['k1'], WAIT);
		expect(claim).toMatchObject({ ours: [], theirs: ['k1'], unresolved: [] });
		// Attempt 1 written, its token found gone after the wait, attempt 2 finds the other's record.
		expect(store.calls).toHaveLength(3);
	});

	test('an unrelated call wrote over this claim: the value is nobody’s, claimed again, and ours then', async () => {
		const store = racyRow();
		afterCall(store, 1, () => store.staleWrite([], 'other-node-value'));
		const keys = claimStore(store);
		const claim = await keys.claim(['k1'], WAIT);
		expect(claim).toMatchObject({ ours: ['k1'], theirs: [], unresolved: [] });
		expect(claim.why).toMatch(/wrote over this claim 1 time/);
		// Attempt 1 and its check; attempt 2 and its two checks (CHECKS).
		expect(store.calls).toHaveLength(5);
		expect(store.row()).toContain('k1');
	});

	test('written over at every attempt: unresolved after CLAIM_ROUNDS (6), and verify does not write it back', async () => {
		const store = racyRow();
		const inner = store.record.getMockImplementation()!;
		store.record.mockImplementation(async (values: string[]) => {
			const answer = await inner(values);
			if (values.includes('k1')) store.staleWrite([], 'other'); // every attempt's write is lost
			return answer;
		});
		const keys = claimStore(store);
		const claim = await keys.claim(['k1'], WAIT);
		expect(claim).toMatchObject({ ours: [], theirs: [], unresolved: ['k1'] });
		expect(claim.why).toMatch(/wrote over this claim 6 time/);
		const calls = store.calls.length;
		await keys.verify();
		expect(store.calls).toHaveLength(calls);
	});

	test('a store call taking more than half the wait (a cold or busy worker) does not stop the claim', async () => {
		const store = racyRow();
		const inner = store.record.getMockImplementation()!;
		store.record.mockImplementation(async (values: string[]) => {
			await new Promise((resolve) => setTimeout(resolve, WAIT * 0.7));
			return await inner(values);
		});
		await expect(claimStore(store).claim(['k1'], WAIT)).resolves.toEqual({ ours: ['k1'], theirs: [], unresolved: [] });
	});

	test('a store call taking the whole wait or more may have written over a claim that held: unresolved, nothing claimed', async () => {
		const store = racyRow();
		const inner = store.record.getMockImplementation()!;
		store.record.mockImplementation(async (values: string[]) => {
			await new Promise((resolve) => setTimeout(resolve, WAIT + 10));
			return await inner(values);
		});
		const keys = claimStore(store);
		const claim = await keys.claim(['k1'], WAIT);
		expect(claim).toMatchObject({ ours: [], theirs: [], unresolved: ['k1'] });
		expect(claim.why).toMatch(/took \d+ ms, as long as the claim wait \(100 ms\) or longer/);
	});
});
