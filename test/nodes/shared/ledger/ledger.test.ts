/**
 * The ledger on its own (issue #30, point 3), over the store double (storeDouble.ts): no node, no
 * n8n-core, no sandbox server.
 * - the double itself: a row as n8n keeps it, losing updates only when told to;
 * - the states of a key (nodes/shared/ledger/states.ts), in one n8n process and in queue mode:
 *   what a reservation writes, and what a later run reads from it;
 * - the run mark (book.ts): once found, if it is gone, n8n dropped the row's oldest records (its
 *   `maxEntries`): the run writes what it made or found again, and a reservation with keys fails
 *   with RecordsLost; in queue mode not when a record made after the mark is gone too (another
 *   process's stale write-back took both);
 * - verify() in queue mode (verify.ts): a record another process's stale write-back dropped is
 *   found missing once VERIFY_AFTER_MS old, written again, and checked again.
 */
import { DAYS_LOOKED } from '../../../../nodes/shared/ledger/days';
import { VERIFY_AFTER_MS } from '../../../../nodes/shared/ledger/verify';
import { freshEachTest, isToken, type Ledger, settled, StoreDouble } from '../../../helpers/n8n/storeDouble';

const MARK = 'n8n-run:first';
const LATER = 'n8n-run:later';
const WAIT = 100;
const none = new Set<string>();
const withoutTokens = (values: string[]) => values.filter((value) => !isToken(value));
const recordsOf = (key: string) => [key, `${key}#accepted`, `${key}#claimed`, `${key}#sending`, `${key}#takeover`];

let store: StoreDouble;
let ledgers: Ledger;

freshEachTest((fresh, inProcess) => {
	store = fresh;
	ledgers = inProcess;
});

const oneProcess = (mark = MARK) => ledgers.openLedger(store.context(), mark);
const queueMode = (mark = MARK, mode = 'trigger') =>
	ledgers.openLedger(store.context({ queueMode: true, claimWaitMs: WAIT, mode }), mark);
const reserve = async (ledger: ReturnType<typeof oneProcess>, keys: string[], resend = none) =>
	Object.fromEntries(await settled(ledger.reserve(keys, resend)));
/** Every store call since `from`: its kind and values, tokens as 'TOKEN'. */
const callsSince = (from = 0) =>
	store.calls.slice(from).map((call) => [call.kind, ...call.values.map((value) => (isToken(value) ? 'TOKEN' : value))]);
/** The day (fake time starts at 0) an item accepted now is recorded on (days.ts), and its values. */
const DAY = '1970-01-01';
const dayOf = (key: string) => [`${key}@${DAY}`, `n8n-day:${DAY}`];
/**
 * The calls that find when an accepted key was sent (days.ts), as kind, count of values, first
 * value: the node's days asked, those not there removed, then the key's day values.
 */
const dayLookup = (key: string) => [
	['record', DAYS_LOOKED, `n8n-day:${DAY}`],
	['remove', DAYS_LOOKED - 1, 'n8n-day:1969-12-31'],
	['record', 1, `${key}@${DAY}`],
];
const inShort = (calls: unknown[][]) => calls.map(([kind, ...values]) => [kind, values.length, values[0]]);

/** n8n's store helpers as the double gives them to one process. */
const helpers = (process = 'A') =>
	store.context({ process }).helpers as unknown as {
		checkProcessedAndRecord(values: string[], scope: string, options: object): Promise<{ new: string[]; processed: string[] }>;
		removeProcessed(values: string[], scope: string, options: object): Promise<void>;
		getProcessedDataCount(scope: string, options: object): Promise<number>;
	};

describe('the store double', () => {
	test('record answers what the row held as read, and appends the rest; remove and count', async () => {
		const n8n = helpers();
		await expect(n8n.checkProcessedAndRecord(['a', 'b'], 'node', {})).resolves.toEqual({ new: ['a', 'b'], processed: [] });
		await expect(n8n.checkProcessedAndRecord(['b', 'c'], 'node', {})).resolves.toEqual({ new: ['c'], processed: ['b'] });
		await n8n.removeProcessed(['a'], 'node', {});
		await expect(n8n.getProcessedDataCount('node', {})).resolves.toBe(2);
		expect(store.row()).toEqual(['b', 'c']);
		expect(store.calls.map((call) => call.kind)).toEqual(['record', 'record', 'remove', 'count']);
	});

	test('a call that read before another wrote writes the row back without the other’s values', async () => {
		const held = store.hold((call) => call.process === 'A');
		const a = helpers('A').checkProcessedAndRecord(['a'], 'node', {});
		await held.reached;
		await helpers('B').checkProcessedAndRecord(['b'], 'node', {});
		expect(store.row()).toEqual(['b']);
		held.land();
		await expect(a).resolves.toEqual({ new: ['a'], processed: [] });
		expect(store.row()).toEqual(['a']);
	});

	test('readToWriteMs: two calls at once both read the row as it was; the last write holds', async () => {
		store.readToWriteMs = (call) => (call.process === 'A' ? 20 : 10);
		const both = Promise.all([helpers('A').checkProcessedAndRecord(['a'], 'node', {}), helpers('B').checkProcessedAndRecord(['b'], 'node', {})]);
		await settled(both);
		expect(store.row()).toEqual(['a']);
	});

	test('writeOver drops exactly the matching call’s new values (the other process’s own values stay)', async () => {
		store.seed(['old']);
		store.writeOver((call) => call.values.includes('x'), { own: ['theirs'] });
		await expect(helpers().checkProcessedAndRecord(['old', 'x'], 'node', {})).resolves.toEqual({ new: ['x'], processed: ['old'] });
		expect(store.row()).toEqual(['old', 'theirs']);
		await helpers().checkProcessedAndRecord(['x'], 'node', {});
		expect(store.row()).toEqual(['old', 'theirs', 'x']); // once only
	});

	test('limit keeps the newest values, as maxEntries does; dropOldest drops at once; fail throws once', async () => {
		store.limit = 2;
		await helpers().checkProcessedAndRecord(['a', 'b', 'c'], 'node', {});
		expect(store.row()).toEqual(['b', 'c']);
		store.dropOldest(1);
		expect(store.row()).toEqual(['c']);
		store.fail(() => true, new Error('connection terminated'));
		await expect(helpers().checkProcessedAndRecord(['d'], 'node', {})).rejects.toThrow('connection terminated');
		await expect(helpers().checkProcessedAndRecord(['d'], 'node', {})).resolves.toEqual({ new: ['d'], processed: [] });
	});
});

describe('one n8n process', () => {
	test('a fresh key is new: one store call writes exactly the run mark and the key', async () => {
		await expect(reserve(oneProcess(), ['k1'])).resolves.toEqual({ k1: 'new' });
		expect(callsSince()).toEqual([['record', MARK, 'k1']]);
		expect(store.row()).toEqual([MARK, 'k1']);
	});

	test('accepted: #accepted goes with flush(); a later run gets accepted and leaves only its mark', async () => {
		const ledger = oneProcess();
		await reserve(ledger, ['k1']);
		ledger.accepted('k1');
		expect(store.row()).not.toContain('k1#accepted'); // with the next store call, not at once
		await settled(ledger.flush());
		expect(callsSince()).toEqual([
			['record', MARK, 'k1'],
			['record', MARK, 'k1#accepted', ...dayOf('k1')],
		]);
		const before = store.calls.length;
		const later = oneProcess(LATER);
		await expect(reserve(later, ['k1'])).resolves.toEqual({ k1: 'accepted' });
		expect(callsSince(before).slice(0, 2)).toEqual([
			['record', LATER, 'k1'],
			['record', 'k1#accepted'],
		]);
		expect(inShort(callsSince(before).slice(2))).toEqual(dayLookup('k1'));
		expect(later.sentDay('k1')).toEqual({ on: DAY });
		expect(store.row()).toEqual([MARK, 'k1', 'k1#accepted', ...dayOf('k1'), LATER]);
	});

	test('a key recorded without #accepted is unknown, and the #accepted it asked for is removed again', async () => {
		store.seed(['k1']);
		await expect(reserve(oneProcess(), ['k1', 'k2'])).resolves.toEqual({ k1: 'unknown', k2: 'new' });
		expect(callsSince()).toEqual([
			['record', MARK, 'k1', 'k2'],
			['record', 'k1#accepted'],
			['remove', 'k1#accepted'],
		]);
		expect(store.row()).toEqual(['k1', MARK, 'k2']);
	});

	test('release(key) removes the key and all its markers, with the next store call', async () => {
		const ledger = oneProcess();
		await reserve(ledger, ['k1']);
		ledger.release('k1');
		await reserve(ledger, ['k2']);
		expect(callsSince()).toEqual([
			['record', MARK, 'k1'],
			['remove', ...recordsOf('k1')],
			['record', MARK, 'k2'],
		]);
		expect(store.row()).toEqual([MARK, 'k2']);
	});

	test('release(key) of a key with every marker: flush() leaves only the other records', async () => {
		store.seed([...recordsOf('k1'), 'k2']);
		const ledger = oneProcess();
		ledger.accepted('k1');
		ledger.release('k1'); // released after an answer: its #accepted is not written either
		await settled(ledger.flush());
		expect(callsSince()).toEqual([['remove', ...recordsOf('k1')]]);
		expect(store.row()).toEqual(['k2']);
	});

	test('Allow Resend: keys accepted or unknown before are given a send again (unknown), and forget their #accepted', async () => {
		store.seed(['k1', 'k1#accepted', 'k2']);
		const resend = new Set(['k1', 'k2']);
		await expect(reserve(oneProcess(), ['k1', 'k2'], resend)).resolves.toEqual({ k1: 'unknown', k2: 'unknown' });
		expect(callsSince()).toEqual([
			['record', MARK, 'k1', 'k2'],
			['remove', 'k1#accepted', 'k2#accepted'],
		]);
		expect(store.row()).toEqual(['k1', 'k2', MARK]);
		// A later run without Allow Resend no longer reads "accepted" for k1.
		await expect(reserve(oneProcess(LATER), ['k1'])).resolves.toEqual({ k1: 'unknown' });
	});

	test('verify() makes no store call in one process (nothing else writes the row)', async () => {
		const ledger = oneProcess();
		await reserve(ledger, ['k1']);
		await settled(ledger.verify());
		expect(store.calls).toHaveLength(1);
	});
});

describe('queue mode (the credential says several n8n processes share the store)', () => {
	test('a fresh key: a warm-up read, [mark, key, key#claimed, token], the token checked twice a claim wait apart, then key#sending', async () => {
		await expect(reserve(queueMode(), ['k1'])).resolves.toEqual({ k1: 'new' });
		expect(callsSince()).toEqual([
			['count'],
			['record', MARK, 'k1', 'k1#claimed', 'TOKEN'],
			['record', 'TOKEN'],
			['record', 'TOKEN'],
			['record', MARK, 'k1#sending'],
		]);
		const [, write, check, again] = store.calls;
		expect(check.values).toEqual([write.values[3]]);
		expect(again.values).toEqual([write.values[3]]);
		expect(check.at - write.at).toBeGreaterThanOrEqual(WAIT);
		expect(again.at - check.at).toBeGreaterThanOrEqual(WAIT);
		expect(store.row().filter((value) => !isToken(value))).toEqual([MARK, 'k1', 'k1#claimed', 'k1#sending']);
	});

	test('accepted: a later run gets accepted from the first call and the marker check (which asks for the sending marker too), and marks nothing sending', async () => {
		const ledger = queueMode();
		await reserve(ledger, ['k1']);
		ledger.accepted('k1');
		await settled(ledger.flush());
		expect(store.row()).toContain('k1#accepted');
		const before = store.calls.length;
		await expect(reserve(queueMode(LATER), ['k1'])).resolves.toEqual({ k1: 'accepted' });
		expect(callsSince(before).slice(0, 2)).toEqual([
			['record', LATER, 'k1', 'k1#claimed', 'TOKEN'],
			['record', 'k1#accepted', 'k1#sending'],
		]);
		expect(inShort(callsSince(before).slice(2))).toEqual(dayLookup('k1'));
	});

	test('a key recorded by one process (no #claimed) gets #claimed and #sending at once, so no Retry takes it over', async () => {
		store.seed(['k1']);
		await expect(reserve(queueMode(), ['k1'])).resolves.toEqual({ k1: 'unknown' });
		expect(callsSince()).toEqual([
			['count'],
			['record', MARK, 'k1', 'k1#claimed', 'TOKEN'],
			['record', 'k1#accepted', 'k1#sending'],
			['remove', 'k1#accepted'],
		]);
		expect(store.row()).toEqual(expect.arrayContaining(['k1', 'k1#claimed', 'k1#sending']));
		expect(store.row()).not.toContain('k1#accepted');
		// A Retry finds it sending: unknown at once, no takeover wait, no #takeover.
		const start = Date.now();
		await expect(reserve(queueMode(LATER, 'retry'), ['k1'])).resolves.toEqual({ k1: 'unknown' });
		expect(Date.now() - start).toBeLessThan(WAIT);
		expect(store.calls.flatMap((call) => call.values)).not.toContain('k1#takeover');
	});

	test('Allow Resend: the key forgets #accepted and is marked sending again, like a new one', async () => {
		store.seed(['k1', 'k1#claimed', 'k1#sending', 'k1#accepted']);
		await expect(reserve(queueMode(), ['k1'], new Set(['k1']))).resolves.toEqual({ k1: 'unknown' });
		expect(callsSince()).toEqual([
			['count'],
			['record', MARK, 'k1', 'k1#claimed', 'TOKEN'],
			['remove', 'k1#accepted'],
			['record', MARK, 'k1#sending'],
		]);
		expect(store.row()).not.toContain('k1#accepted');
	});
});

describe('the run mark', () => {
	test('the mark held: every reservation goes on', async () => {
		const ledger = oneProcess();
		for (const key of ['k1', 'k2', 'k3']) await settled(ledger.reserve([key], none));
		expect(store.row()).toEqual([MARK, 'k1', 'k2', 'k3']);
	});

	test('the oldest records dropped with the mark: RecordsLost on the next reserve, and the kept records written again', async () => {
		const ledger = oneProcess();
		await settled(ledger.reserve(['k1'], none));
		await settled(ledger.reserve(['k2'], none)); // finds the mark: from now on it must stay
		store.dropOldest(2); // the mark and k1
		expect(store.row()).toEqual(['k2']);
		await expect(settled(ledger.reserve(['k3'], none))).rejects.toThrow(ledgers.RecordsLost);
		expect(store.records()).toEqual([
			[MARK, 'k1'],
			[MARK, 'k2'],
			[MARK, 'k3'],
			['k1', 'k2', 'k3'],
		]);
		expect(store.row()).toEqual(expect.arrayContaining([MARK, 'k1', 'k2', 'k3']));
	});

	test('n8n’s own limit (maxEntries): the call whose write drops the mark still read it; the next one fails', async () => {
		store.limit = 3;
		const ledger = oneProcess();
		await settled(ledger.reserve(['k1'], none));
		await settled(ledger.reserve(['k2'], none));
		await settled(ledger.reserve(['k3'], none)); // read [mark, k1, k2], wrote it with k3: trimmed to 3
		expect(store.row()).toEqual(['k1', 'k2', 'k3']);
		await expect(settled(ledger.reserve(['k4'], none))).rejects.toThrow(
			'n8n’s de-duplication store dropped this node’s oldest records while this run was being sent',
		);
		expect(store.records().at(-1)).toEqual(['k1', 'k2', 'k3', 'k4']);
	});

	test('a store call without keys (flush) writes the records again and does not fail', async () => {
		const ledger = oneProcess();
		await settled(ledger.reserve(['k1'], none));
		await settled(ledger.reserve(['k2'], none));
		ledger.accepted('k1');
		store.dropOldest(3);
		await settled(ledger.flush());
		expect(store.records().slice(2)).toEqual([
			[MARK, 'k1#accepted', ...dayOf('k1')],
			['k1', 'k2', 'k1#accepted', ...dayOf('k1')],
		]);
		expect(store.row()).toEqual(expect.arrayContaining([MARK, 'k1', 'k2', 'k1#accepted']));
	});

	test('a Retry (same mark) finds the run’s mark in its first call: a drop right after fails its next reserve', async () => {
		await settled(oneProcess().reserve(['k1'], none));
		const retry = oneProcess();
		await settled(retry.reserve(['k1'], none));
		store.dropOldest(1);
		await expect(settled(retry.reserve(['k2'], none))).rejects.toThrow(ledgers.RecordsLost);
	});

	test('queue mode: a stale write-back took the mark and every later record (the witness too): written again, and the run goes on', async () => {
		store.seed(['other']);
		const ledger = queueMode();
		await expect(reserve(ledger, ['k1'])).resolves.toEqual({ k1: 'new' });
		await expect(reserve(ledger, ['k2'])).resolves.toEqual({ k2: 'new' }); // finds the mark
		// Another process's call read the row before this run's first write and writes it back now.
		store.rows.set('wf-1|node-1', ['other', 'other-process-value']);
		await expect(reserve(ledger, ['k3'])).resolves.toEqual({ k3: 'new' });
		expect(store.row()).toEqual(expect.arrayContaining([MARK, 'k1', 'k1#claimed', 'k2', 'k2#claimed', 'k3', 'k3#claimed', 'other-process-value']));
	});

	test('queue mode: the mark gone but a later record (the witness) still there: n8n’s limit dropped it, RecordsLost', async () => {
		const ledger = queueMode();
		await settled(ledger.reserve(['k1'], none));
		await settled(ledger.reserve(['k2'], none)); // finds the mark; k2 and k2#claimed come after it
		const row = store.row();
		store.dropOldest(row.indexOf('k2')); // the oldest values, as the limit drops them: up to k2
		expect(store.row()).not.toContain(MARK);
		expect(store.row()).toContain('k2#claimed');
		await expect(settled(ledger.reserve(['k3'], none))).rejects.toThrow(ledgers.RecordsLost);
		expect(store.row()).toEqual(expect.arrayContaining([MARK, 'k1', 'k1#claimed', 'k2', 'k2#claimed']));
	});

	test('a run without a mark (no origin) cannot tell, and goes on', async () => {
		const ledger = ledgers.openLedger(store.context());
		await settled(ledger.reserve(['k1'], none));
		store.dropOldest(1);
		await expect(settled(ledger.reserve(['k2'], none))).resolves.toEqual(new Map([['k2', 'new']]));
	});
});

describe('verify() in queue mode', () => {
	test('key#sending dropped by a stale write-back: verify() writes it again, then sees it held', async () => {
		store.writeOver((call) => call.values.includes('k1#sending'), { own: ['other-process-value'] });
		const ledger = queueMode();
		await settled(ledger.reserve(['k1'], none));
		expect(store.row()).not.toContain('k1#sending');
		const before = store.records().length;
		const started = Date.now();
		await settled(ledger.verify());
		expect(store.records().slice(before).map(withoutTokens)).toEqual([
			[MARK, 'k1', 'k1#claimed', 'k1#sending'], // the check: k1#sending missing, written again
			['k1#sending'], // checked again: held
		]);
		expect(Date.now() - started).toBeGreaterThanOrEqual(VERIFY_AFTER_MS);
		expect(store.row()).toEqual(expect.arrayContaining([MARK, 'k1', 'k1#claimed', 'k1#sending', 'other-process-value']));
	});

	test('a claim’s first write dropped: the claim is made again with the key alone, and verify() writes key#claimed back', async () => {
		store.writeOver((call) => call.values.includes('k1#claimed'));
		const ledger = queueMode();
		await expect(settled(ledger.reserve(['k1'], none))).resolves.toEqual(new Map([['k1', 'new']]));
		expect(store.row()).not.toContain('k1#claimed');
		await settled(ledger.verify());
		expect(withoutTokens(store.row())).toEqual(expect.arrayContaining([MARK, 'k1', 'k1#claimed', 'k1#sending']));
	});

	test('nothing dropped: verify() checks each record once and writes nothing new', async () => {
		const ledger = queueMode();
		await settled(ledger.reserve(['k1'], none));
		const row = store.row();
		const before = store.records().length;
		await settled(ledger.verify());
		expect(store.records().slice(before).map(withoutTokens)).toEqual([[MARK, 'k1', 'k1#claimed', 'k1#sending']]);
		expect(store.row()).toEqual(row);
	});
});
