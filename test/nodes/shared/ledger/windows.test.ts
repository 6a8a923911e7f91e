/**
 * Windows (nodes/shared/ledger/windows.ts): keys reserved a window at a time ahead of the senders,
 * over a real ledger and the store double. Store calls take the time the double says (fake timers):
 * a window's size is read from the store calls, as the keys each one records for the first time.
 */
import { spawnSync } from 'child_process';
import path from 'path';

import { CLAIM_CHUNK, MAX_WINDOW, RUN_SHARE, SENDING_WINDOW, SLOW_CALL_MS, SLOW_CALLS, STORE_MS_PER_ITEM } from '../../../../nodes/shared/ledger/windows';
import { freshEachTest, isPending, type Ledger, settled, StoreDouble } from '../../../helpers/n8n/storeDouble';

const WAIT = 100;

let store: StoreDouble;
let ledgers: Ledger;

freshEachTest((fresh, inProcess) => {
	store = fresh;
	ledgers = inProcess;
}, { markOnReserve: false });

const keyOf = (index: number) => `item-${index}`;
const itemsOf = (keys: string[], allowResend = false) => keys.map((key, itemIndex) => ({ itemIndex, key, allowResend }));
const numbered = (count: number) => itemsOf(Array.from({ length: count }, (_, i) => keyOf(i)));
function open(items: ReturnType<typeof itemsOf>, inFlight: number, queueMode = false) {
	const ledger = ledgers.openLedger(store.context(queueMode ? { queueMode, claimWaitMs: WAIT } : {}), 'n8n-run:first');
	return { ledger, ahead: ledgers.windows(ledger, items, inFlight) };
}
/** Sends the first `count` items one after another, as a router with nothing else in flight would. */
async function sendFirst(ahead: ReturnType<typeof open>['ahead'], count: number) {
	for (let i = 0; i < count; i++) {
		await settled(ahead.verdictFor(i));
		ahead.finished(i);
	}
}
/** The size of each window: the keys each store call recorded for the first time. */
function windowSizes(): number[] {
	const seen = new Set<string>();
	const sizes: number[] = [];
	for (const values of store.records()) {
		// Keys recorded before are checks of earlier writes (verify.ts), not this window's.
		const keys = values.filter((value) => /^item-\d+$/.test(value) && !seen.has(value));
		keys.forEach((key) => seen.add(key));
		if (keys.length > 0) sizes.push(keys.length);
	}
	return sizes;
}
const SLOW = 30;

describe('window sizes', () => {
	test('fast store calls: windows of Items per Batch', async () => {
		const { ahead } = open(numbered(12), 3);
		await sendFirst(ahead, 12);
		expect(windowSizes()).toEqual([3, 3, 3, 3]);
	});

	test(`after ${SLOW_CALLS} slow calls: as many items as keep the store below ${STORE_MS_PER_ITEM} ms each`, async () => {
		expect(SLOW).toBeGreaterThanOrEqual(SLOW_CALL_MS);
		store.latency = () => SLOW;
		const { ahead } = open(numbered(4000), 2); // a RUN_SHARE-th of the run: 200, more than 60
		await sendFirst(ahead, 2 + 2 + 2 + 60 + 60);
		// The fourth window was reserved ahead, while the third's call was out: still Items per Batch.
		expect(windowSizes()).toEqual([2, 2, 2, 2, SLOW / STORE_MS_PER_ITEM, SLOW / STORE_MS_PER_ITEM]);
	});

	test(`calls just under ${SLOW_CALL_MS} ms, or one fast call among ${SLOW_CALLS}, keep Items per Batch`, async () => {
		store.latency = () => SLOW_CALL_MS - 1;
		await sendFirst(open(numbered(4000), 2).ahead, 20);
		expect(windowSizes()).toEqual(Array(11).fill(2)); // the 11th reserved ahead of the 10th

		store = new StoreDouble();
		store.latency = (_call, index) => (index === 2 ? 5 : SLOW); // the third call is fast
		await sendFirst(open(numbered(4000), 2).ahead, 2 * 6 + 60);
		expect(windowSizes()).toEqual([2, 2, 2, 2, 2, 2, 2, 60]);
	});

	test(`capped by a ${RUN_SHARE}th of the run (never under Items per Batch)`, async () => {
		store.latency = () => SLOW;
		await sendFirst(open(numbered(400), 2).ahead, 2 * 3 + 20 * 2);
		expect(windowSizes()).toEqual([2, 2, 2, 2, 400 / RUN_SHARE, 400 / RUN_SHARE]);

		store = new StoreDouble();
		store.latency = () => SLOW;
		await sendFirst(open(numbered(40), 8).ahead, 40);
		expect(windowSizes()).toEqual([8, 8, 8, 8, 8]);
	});

	test(`capped by MAX_WINDOW (${MAX_WINDOW})`, async () => {
		store.latency = () => 600; // would ask for 1,200 items a window
		await sendFirst(open(numbered(40_000), 2).ahead, 2 * 3 + MAX_WINDOW + 1);
		expect(windowSizes()).toEqual([2, 2, 2, 2, MAX_WINDOW]);
	});

	test('the next window is reserved while the one before is in flight, not after it', async () => {
		store.latency = () => 50;
		const { ahead } = open(numbered(9), 3);
		// The first window's items ask at once, as the router starts Items per Batch of them.
		const first = [0, 1, 2].map((i) => ahead.verdictFor(i));
		await settled(Promise.all(first));
		// The first three are out; the second window's call was made with them, the third's not yet.
		await jest.advanceTimersByTimeAsync(60);
		expect(windowSizes()).toEqual([3, 3]);
		[0, 1, 2].forEach((i) => ahead.finished(i));
		// The second window's items find their verdicts without waiting for a store call.
		const second = [3, 4, 5].map((i) => ahead.verdictFor(i));
		await jest.advanceTimersByTimeAsync(0);
		expect(await Promise.all(second.map(isPending))).toEqual([false, false, false]);
	});

	/** The number of #sending markers each store call wrote. */
	const markedSending = () =>
		store
			.records()
			.map((values) => values.filter((value) => value.endsWith('#sending')).length)
			.filter((count) => count > 0);

	test('queue mode: keys claimed a chunk at a time, windows of the largest size marked sending one by one', async () => {
		const { ahead } = open(numbered(100), 2, true);
		await sendFirst(ahead, 12);
		expect(windowSizes()).toEqual([100]);
		expect(markedSending()).toEqual([100 / RUN_SHARE, 100 / RUN_SHARE, 100 / RUN_SHARE]);
	});

	test(`queue mode: a large run's windows are marked sending ${SENDING_WINDOW} at a time (what a dead worker leaves unknown), or Items per Batch when more`, async () => {
		const run = 2000; // a 20th of it is 100
		expect(run / RUN_SHARE).toBeGreaterThan(SENDING_WINDOW);
		const { ahead } = open(numbered(run), 10, true);
		await sendFirst(ahead, 2 * SENDING_WINDOW + 1);
		expect(markedSending()).toEqual([SENDING_WINDOW, SENDING_WINDOW, SENDING_WINDOW]);
	});

	test('queue mode: Items per Batch above the sending window marks that many at a time', async () => {
		const inFlight = SENDING_WINDOW + 10;
		const { ahead } = open(numbered(2000), inFlight, true);
		await sendFirst(ahead, inFlight + 1);
		expect(markedSending()).toEqual([inFlight, inFlight]);
	});

	test(`queue mode: chunks of ${CLAIM_CHUNK}, claimed two ahead of the item asking, their waits overlapping`, async () => {
		const { ahead } = open(numbered(2 * CLAIM_CHUNK + 500), 2, true);
		await sendFirst(ahead, 1);
		// Both chunks were claimed for the first item, the second's first write made before the first's
		// check: their claim waits overlap.
		expect(windowSizes()).toEqual([CLAIM_CHUNK, CLAIM_CHUNK]);
		const [first, second, check] = store.records();
		expect([first.includes(keyOf(0)), second.includes(keyOf(CLAIM_CHUNK)), check.length]).toEqual([true, true, 1]);
		await sendFirst(ahead, CLAIM_CHUNK + 1);
		expect(windowSizes()).toEqual([CLAIM_CHUNK, CLAIM_CHUNK, 500]);
	});
});

describe('a key repeated in one run', () => {
	test.each([
		{ first: 'accepted', then: (ledger: ReturnType<typeof open>['ledger']) => ledger.accepted('a'), repeat: 'accepted' },
		{ first: 'refused (released)', then: (ledger: ReturnType<typeof open>['ledger']) => ledger.release('a'), repeat: 'new' },
		{ first: 'without a clear answer', then: () => undefined, repeat: 'unknown' },
	])('waits for the first item; the first $first: the repeat is $repeat', async ({ then, repeat }) => {
		const { ledger, ahead } = open(itemsOf(['a', 'b', 'a', 'c']), 4);
		await expect(settled(ahead.verdictFor(0))).resolves.toBe('new');
		const repeated = ahead.verdictFor(2);
		await jest.advanceTimersByTimeAsync(10_000);
		expect(await isPending(repeated)).toBe(true);
		expect(store.records()).toEqual([['n8n-run:first', 'a', 'b', 'c']]); // reserved without the repeat
		then(ledger);
		ahead.finished(0);
		await expect(settled(repeated)).resolves.toBe(repeat);
		// Reserved on its own, after the first item was done (b and c may come along, checked: verify.ts).
		expect(store.records()[1].slice(0, 2)).toEqual(['n8n-run:first', 'a']);
	});
});

test('releaseUnsent releases the keys reserved new and never started, only those', async () => {
	store.seed(['item-2']); // reserved by an earlier run
	const { ledger, ahead } = open(numbered(6), 3);
	await settled(ahead.verdictFor(0));
	ahead.finished(0); // item 1 (new) and item 2 (unknown) never start: the run stopped
	await settled(ahead.releaseUnsent());
	await settled(ledger.flush());
	// Items 3 to 5, the window reserved ahead, never started either.
	const released = (keys: string[]) => keys.flatMap((key) => [key, `${key}#accepted`, `${key}#claimed`, `${key}#sending`, `${key}#takeover`]);
	expect(store.calls.filter((call) => call.kind === 'remove').map((call) => call.values)).toEqual([
		['item-2#accepted'], // item 2 was asked whether it was accepted when reserved (states.test.ts)
		released(['item-1', 'item-3', 'item-4', 'item-5']),
	]);
	expect(store.row()).toEqual(expect.arrayContaining(['item-0', 'item-2']));
	expect(store.row()).not.toContain('item-1');
});

test('a store failure fails that window and every later verdictFor, with no other store call', async () => {
	const broken = new Error('connection terminated');
	store.fail(() => true, broken);
	const { ahead } = open(itemsOf(['a', 'b', 'c', 'd', 'a']), 2);
	// Two in flight at a time, as the router keeps Items per Batch: every position of a failed window
	// is asked for (one nobody has asked for yet rejects with no handler: windows.ts).
	const inFlight = async (...indexes: number[]) =>
		await settled(Promise.allSettled(indexes.map(async (index) => await ahead.verdictFor(index))));
	expect(await inFlight(0, 1)).toEqual([
		{ status: 'rejected', reason: broken },
		{ status: 'rejected', reason: broken },
	]);
	expect(await inFlight(2, 3)).toEqual([
		{ status: 'rejected', reason: broken },
		{ status: 'rejected', reason: broken },
	]);
	ahead.finished(0);
	await expect(settled(ahead.verdictFor(4))).rejects.toBe(broken); // the repeat of 'a'
	expect(store.calls).toHaveLength(1);
	await expect(settled(ahead.releaseUnsent())).resolves.toBeUndefined();
});

test('a failed window whose items nobody asks for leaves no unhandled rejection (the run stopped first)', () => {
	// Jest keeps unhandled rejections to itself: a plain Node process, which exits 1 on one, runs it.
	const script = `
		const { StoreDouble } = require('./test/helpers/n8n/storeDouble');
		const ledgers = require('./nodes/shared/ledger');
		(async () => {
			const store = new StoreDouble();
			store.fail(() => true, new Error('connection terminated'));
			const ledger = ledgers.openLedger(store.context({ queueMode: true, claimWaitMs: 100 }), 'n8n-run:first');
			// Queue mode: windows of 3 (a 20th of the run); only the first item is asked for.
			const ahead = ledgers.windows(ledger, Array.from({ length: 60 }, (_, itemIndex) => ({ itemIndex, key: 'item-' + itemIndex, allowResend: false })), 2);
			await ahead.verdictFor(0).catch(() => undefined);
			// The router ends the run a moment later (other I/O first).
			await new Promise((resolve) => setTimeout(resolve, 20));
			await ahead.releaseUnsent();
			await new Promise((resolve) => setTimeout(resolve, 50));
			console.log('done');
		})();
	`;
	const run = spawnSync(process.execPath, ['--unhandled-rejections=strict', '-r', 'ts-node/register/transpile-only', '-e', script], {
		cwd: path.resolve(__dirname, '../../../..'),
		encoding: 'utf8',
	});
	expect({ status: run.status, stderr: run.stderr.split('\n')[0] }).toEqual({ status: 0, stderr: '' });
	expect(run.stdout).toContain('done');
});

test('queue mode: a window is marked sending only once every item of the window before it is done', async () => {
	const { ahead } = open(numbered(40), 2, true); // windows of 2 (Items per Batch; a 20th of 40)
	await settled(ahead.verdictFor(0));
	await settled(ahead.verdictFor(1));
	ahead.finished(0); // item 1 is still in flight
	const next = ahead.verdictFor(2);
	await jest.advanceTimersByTimeAsync(10 * WAIT);
	expect(await isPending(next)).toBe(true);
	expect(store.calls.some((call) => call.values.includes('item-2#sending'))).toBe(false);
	ahead.finished(1);
	await expect(settled(next)).resolves.toBe('new');
	expect(store.calls.some((call) => call.values.includes('item-2#sending'))).toBe(true);
});
