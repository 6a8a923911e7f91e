/**
 * nodes/shared/ledger/serial.ts: this process's store calls one at a time, and the writes of one
 * row that wait together made as one call (issue #29, point 2: a burst of trigger events at n8n's
 * default pool of 2 connections). Each caller must get what it would have found had the calls run
 * one after another: two claims of one event in one merged write must not both find it new.
 */
import { mergedWrite, oneAtATime, type Written } from '../../../../nodes/shared/ledger/serial';
import { freshEachTest, isToken, type Ledger, settled, StoreDouble } from '../../../helpers/n8n/storeDouble';

const WAIT = 100;

describe('mergedWrite', () => {
	/** A row and the calls made to it; `gate` holds the first call until the test opens it. */
	function aRow(seeded: string[] = []) {
		const row = new Set(seeded);
		const calls: string[][] = [];
		let open!: () => void;
		const gate = new Promise<void>((resolve) => (open = resolve));
		const write = async (values: string[]): Promise<Written> => {
			calls.push(values);
			if (calls.length === 1) await gate;
			const found = new Set(values.filter((value) => row.has(value)));
			for (const value of values) row.add(value);
			return { found, ms: 7 };
		};
		return { calls, open, write };
	}

	test('writes asked while a call runs wait together, and are made as one call', async () => {
		const { calls, open, write } = aRow(['old']);
		const first = mergedWrite('r1', ['a'], write);
		await Promise.resolve();
		const later = ['b', 'old', 'c'].map(async (value) => await mergedWrite('r1', [value], write));
		open();
		await expect(first).resolves.toEqual({ found: new Set(), ms: 7 });
		expect((await Promise.all(later)).map(({ found }) => [...found])).toEqual([[], ['old'], []]);
		expect(calls).toEqual([['a'], ['b', 'old', 'c']]);
	});

	test('the same value asked twice in one call: the first finds it new, the second finds it recorded', async () => {
		const { calls, open, write } = aRow();
		const first = mergedWrite('r1', ['x'], write);
		await Promise.resolve();
		const copies = [mergedWrite('r1', ['e1', 't1'], write), mergedWrite('r1', ['e1', 't2'], write)];
		open();
		await first;
		expect((await Promise.all(copies)).map(({ found }) => [...found])).toEqual([[], ['e1']]);
		expect(calls[1]).toEqual(['e1', 't1', 't2']);
	});

	test('other rows are other calls; a call that fails fails every write in it, and the next call is made', async () => {
		const calls: string[][] = [];
		const failing = async (values: string[]): Promise<Written> => {
			calls.push(values);
			await Promise.resolve();
			throw new Error('connection terminated');
		};
		const blocker = oneAtATime(async () => await new Promise((resolve) => setImmediate(resolve)));
		const a = mergedWrite('r1', ['a'], failing);
		const b = mergedWrite('r1', ['b'], failing);
		const other = mergedWrite('r2', ['c'], async (values) => ({ found: new Set(values.slice(0, 0)), ms: 1 }));
		await blocker;
		await expect(a).rejects.toThrow('connection terminated');
		await expect(b).rejects.toThrow('connection terminated');
		await expect(other).resolves.toEqual({ found: new Set(), ms: 1 });
		expect(calls).toEqual([['a', 'b']]);
		await expect(mergedWrite('r1', ['d'], failing)).rejects.toThrow('connection terminated');
		expect(calls).toEqual([['a', 'b'], ['d']]);
	});
});

describe('a burst of trigger events on one worker (queue mode, the store double)', () => {
	let store: StoreDouble;
	let ledgers: Ledger;

	freshEachTest((fresh, inProcess) => {
		store = fresh;
		ledgers = inProcess;
	});

	const byKind = () => {
		const counts: Record<string, number> = {};
		for (const call of store.calls) counts[call.kind] = (counts[call.kind] ?? 0) + 1;
		return counts;
	};
	const runs = (events: string[]) =>
		events.map(async (event, i) => {
			const context = store.context({ queueMode: true, claimWaitMs: WAIT, executionId: `e${i}` });
			return await ledgers.recordEvents(context, [event], 1000);
		});

	test('20 events at once: one warm-up, and a few store calls instead of seven per event', async () => {
		store.latency = () => 5; // a database round trip: what arrives meanwhile waits for the next call
		const found = await settled(Promise.all(runs(Array.from({ length: 20 }, (_, i) => `event-${i}`))));
		expect(found.map((theirs) => theirs.size)).toEqual(Array(20).fill(0));
		// The pass records' checks and the removal come after the runs went on.
		await settled(ledgers.passRecordsSettled());
		const counts = byKind();
		process.stdout.write(`store-calls[trigger, queue mode, 20 events at once]: ${JSON.stringify(counts)}\n`);
		expect(counts.count).toBe(1);
		// Issue #54: six steps per event (first record, two checks, the pass call and its two checks),
		// each merged, and one removal of the claims' values once passed on, merged too.
		expect(counts.record).toBeLessThanOrEqual(12);
		expect(counts.remove).toBeLessThanOrEqual(2);
		expect(store.row().filter((value) => value.startsWith('event-'))).toHaveLength(20);
	});

	test('three copies of one event at once on one worker: exactly one run goes past the trigger', async () => {
		store.latency = () => 5;
		const found = await settled(Promise.all(runs(['event-1', 'event-1', 'event-1'])));
		expect(found.map((theirs) => theirs.has('event-1')).sort()).toEqual([false, true, true]);
		// The three claims were written in one call (after the one warm-up they all waited for).
		expect(store.records()[0].filter(isToken)).toHaveLength(3);
		// The event's first record is its claim marker (issue #54: `E` is written when it is passed on).
		expect(store.records()[0].filter((value) => value === 'event-1#claimed')).toHaveLength(1);
	});
});
