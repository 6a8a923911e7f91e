/**
 * nodes/shared/ledger/eventClaims.ts (issue #54): the trigger answers a delivery once the event's
 * first record is written, then settles which run passes the event on. One test per race, with
 * two n8n processes (aProcess) over one store double and jest's fake timers.
 */
import { aProcess, freshEachTest, isPending, type Ledger, settled, StoreDouble, type StoreCall } from '../../../helpers/n8n/storeDouble';

const WAIT = 100;
const E = JSON.stringify(['payout.transfer.success', 'tx_1', 'success']);

let store: StoreDouble;
let processA: Ledger;

freshEachTest((fresh, inProcess) => {
	store = fresh;
	processA = inProcess;
});

/** One run of the trigger's step: when it was answered, and whether it passed the event on. */
function runOf(ledger: Ledger, process: string, options: { mode?: string; queueMode?: boolean; lostAnswer?: (values: string[]) => boolean; log?: string[] } = {}) {
	const run = { answeredAt: undefined as number | undefined, startedAt: Date.now(), wentOnAt: undefined as number | undefined };
	const context = store.context({ process, queueMode: options.queueMode ?? true, claimWaitMs: WAIT, mode: options.mode, executionId: `${process}-${run.startedAt}` });
	if (options.log) {
		const { log } = options;
		Object.assign(context, { logger: { debug: () => undefined, warn: (message: string) => log.push(message) } });
	}
	if (options.lostAnswer) {
		// The call is made (the row written), then its answer is lost (a connection dropped after the commit).
		const { lostAnswer } = options;
		const record = context.helpers.checkProcessedAndRecord.bind(context.helpers);
		context.helpers.checkProcessedAndRecord = (async (...args: Parameters<typeof record>) => {
			const answer = await record(...args);
			if (lostAnswer(args[0].map(String))) throw new Error('Connection terminated unexpectedly');
			return answer;
		}) as typeof record;
	}
	const passed = ledger.recordEvents(context, [E], 1000, () => (run.answeredAt = Date.now())).then((others) => {
		run.wentOnAt = Date.now();
		return !others.has(E);
	});
	return { ...run, passed, run };
}

/** A's record calls after its first one. */
const afterFirst = (process: string) => {
	let seen = 0;
	return (call: StoreCall) => call.process === process && call.kind === 'record' && ++seen > 1;
};

const T = 18 * WAIT;

/** Waits until the passes of these processes made sure of their records (after their runs went on). */
const recordsHeld = async (...ledgers: Ledger[]) => await settled(Promise.all(ledgers.map(async (ledger) => await ledger.passRecordsSettled())));

test('the takeover wait is the fresh window, the pass window\'s seven claim waits and one more', async () => {
	expect([processA.freshMs(WAIT), processA.triggerTakeoverWaitMs(WAIT)]).toEqual([10 * WAIT, T]);
});

test('two copies at once in two processes: both answered before one claim wait, exactly one passes', async () => {
	const processB = await aProcess();
	const a = runOf(processA, 'A');
	const b = runOf(processB, 'B');
	const passed = await settled(Promise.all([a.passed, b.passed]));
	expect(passed.filter(Boolean)).toHaveLength(1);
	expect(a.run.answeredAt).toBeLessThan(WAIT);
	expect(b.run.answeredAt).toBeLessThan(WAIT);
	// Once its record held, the row keeps the event alone: its claim's values are removed.
	await recordsHeld(processA, processB);
	expect(store.row()).toEqual([E]);
});

describe('the run goes on at its pass call; its record is made sure of after (a worker slot held two claim waits, as before the early answer)', () => {
	/** A's record calls that write the event, after the first (its pass call): the pass record's checks. */
	const passChecks = (call: StoreCall) => call.process === 'A' && call.values.includes(E) && store.records('A').filter((values) => values.includes(E)).length > 1;

	test('queue mode: the event goes on about two claim waits after the first record, the checks come after', async () => {
		const a = runOf(processA, 'A');
		expect(await settled(a.passed)).toBe(true);
		// The claim's two checks, then the pass call; before, the pass record's two checks came first too (four waits).
		expect(a.run.wentOnAt).toBeLessThan(3 * WAIT);
		expect(store.row()).toContain(`${E}#claimed`);
		await recordsHeld(processA);
		expect(store.records('A').filter((values) => values.includes(E))).toHaveLength(3);
		expect(store.row()).toEqual([E]);
	});

	test('the process killed after the pass call, before its checks: a later copy finds the event passed and passes nothing', async () => {
		const killed = store.hold(passChecks); // never lands
		const a = runOf(processA, 'A');
		expect(await settled(a.passed)).toBe(true);
		await settled(killed.reached);
		const b = runOf(await aProcess(), 'B');
		expect(await settled(b.passed)).toBe(false);
		// A's `E#claimed` stayed: B waited the takeover wait, then its pass call found A's `E`.
		expect(Date.now()).toBeGreaterThanOrEqual(T);
	});

	test('the store fails at every check after the pass call: the event went on, n8n\'s log says its record is unsure, and the claim stays', async () => {
		store.fail(passChecks, new Error('Connection terminated unexpectedly'), 1_000_000);
		const log: string[] = [];
		const a = runOf(processA, 'A', { log });
		expect(await settled(a.passed)).toBe(true);
		await recordsHeld(processA);
		expect(log).toEqual([
			"wallet-payments trigger: payout.transfer.success tx_1 (success) was passed on, but its record could not be made sure of (n8n's store: no check of its record held within 300 s); a later copy may pass it again",
		]);
		expect(store.row()).toContain(`${E}#claimed`);
	});

	test('the documented limit: the pass record dropped by a write-back and the process killed before its check: a later copy passes the event again', async () => {
		store.writeOver((call) => call.process === 'A' && call.values.includes(E));
		const killed = store.hold(passChecks);
		const a = runOf(processA, 'A');
		expect(await settled(a.passed)).toBe(true);
		await settled(killed.reached);
		const b = runOf(await aProcess(), 'B');
		// docs/trigger.md says so: the node after the trigger still pays once (the event's key is in its key).
		expect(await settled(b.passed)).toBe(true);
	});
});

test('the window holds events, not store values: 1,000 events passed in queue mode, then the first again stops at the trigger', async () => {
	const key = (n: number) => JSON.stringify(['payout.transfer.success', `tx_${n}`, 'success']);
	const context = (id: string) => store.context({ process: 'A', queueMode: true, claimWaitMs: WAIT, executionId: id });
	for (let n = 0; n < 1000; n++) await settled(processA.recordEvents(context(`run-${n}`), [key(n)], 1000));
	await recordsHeld(processA);
	// One value per event passed: the claims' tokens, marks and `#claimed` values are gone.
	expect(store.row()).toHaveLength(1000);
	const again = await settled(processA.recordEvents(context('again'), [key(0)], 1000));
	expect(again.has(key(0))).toBe(true);
});

describe('a copy during the takeover wait', () => {
	test('the owner’s claim lands in time: the copy passes nothing, and ends long before the takeover wait', async () => {
		const processB = await aProcess();
		const check = store.hold(afterFirst('A'));
		const a = runOf(processA, 'A');
		await settled(check.reached);
		expect(a.run.answeredAt).toBeDefined();
		const b = runOf(processB, 'B');
		await jest.advanceTimersByTimeAsync(WAIT / 2);
		expect(b.run.answeredAt).toBeDefined();
		check.land();
		const [aPassed, bPassed] = await settled(Promise.all([a.passed, b.passed]));
		expect([aPassed, bPassed]).toEqual([true, false]);
		expect(Date.now()).toBeLessThan(T);
	});

	test('the owner’s check lands only after the fresh window: exactly one of the two passes', async () => {
		const processB = await aProcess();
		const check = store.hold(afterFirst('A'));
		const a = runOf(processA, 'A');
		await settled(check.reached);
		const b = runOf(processB, 'B');
		await jest.advanceTimersByTimeAsync(processA.freshMs(WAIT) + WAIT / 2);
		expect(await isPending(a.passed)).toBe(true);
		check.land();
		const passed = await settled(Promise.all([a.passed, b.passed]));
		expect(passed.filter(Boolean)).toHaveLength(1);
		expect([a.run.answeredAt, b.run.answeredAt].every((at) => at !== undefined && at < 2 * WAIT)).toBe(true);
	});
});

test('an owner whose claim held only after the fresh window: it wins takeover generation 1 before its pass call', async () => {
	// Each of A's calls takes most of a claim wait, and its first four claim rounds are written over:
	// its claim holds long after its first write.
	store.latency = (call) => (call.process === 'A' && call.kind === 'record' ? 0.9 * WAIT : 0);
	store.writeOver((call) => call.process === 'A' && call.values.includes(`${E}#claimed`), { times: 4 });
	const a = runOf(processA, 'A');
	expect(await settled(a.passed)).toBe(true);
	await recordsHeld(processA);
	const calls = store.records('A');
	const takeover = calls.findIndex((values) => values.includes(`${E}#takeover:1`));
	const pass = calls.findIndex((values) => values.includes(E));
	expect(takeover).toBeGreaterThan(-1);
	expect(takeover).toBeLessThan(pass);
	expect(store.row()).toEqual([E]);
});

test('first record written, then the process killed: a later copy passes it once after the takeover wait, and a Retry does not again', async () => {
	const processB = await aProcess();
	const killed = store.hold(afterFirst('A')); // never lands: A's next call never writes
	const a = runOf(processA, 'A');
	await settled(killed.reached);
	expect(a.run.answeredAt).toBe(0);
	const b = runOf(processB, 'B');
	expect(await settled(b.passed)).toBe(true);
	expect(Date.now()).toBeGreaterThanOrEqual(T);
	const retry = runOf(await aProcess(), 'C', { mode: 'retry' });
	expect(await settled(retry.passed)).toBe(false);
	expect(await isPending(a.passed)).toBe(true);
});

test('first record written, then the process killed: a Retry of its execution passes it after the takeover wait', async () => {
	const killed = store.hold(afterFirst('A'));
	const a = runOf(processA, 'A');
	await settled(killed.reached);
	const retry = runOf(await aProcess(), 'C', { mode: 'retry' });
	expect(await settled(retry.passed)).toBe(true);
	expect(Date.now()).toBeGreaterThanOrEqual(T);
	expect(await isPending(a.passed)).toBe(true);
});

describe('the pass record written over by another process’s write-back of the row', () => {
	test('the check finds it gone and writes it again: a copy after the run passes nothing', async () => {
		const passCall = (call: StoreCall) => call.process === 'A' && call.values.includes(E);
		store.writeOver(passCall);
		const a = runOf(processA, 'A');
		expect(await settled(a.passed)).toBe(true);
		await recordsHeld(processA);
		expect(store.records('A').filter((values) => values.includes(E)).length).toBeGreaterThanOrEqual(4);
		expect(store.row()).toEqual([E]);
		const b = runOf(await aProcess(), 'B');
		expect(await settled(b.passed)).toBe(false);
	});

	test('lost at every check until the pass window ends: the run takes over a generation, and still exactly one run passes', async () => {
		const processB = await aProcess();
		store.writeOver((call) => call.process === 'A' && call.values.includes(E), { times: 6 });
		const a = runOf(processA, 'A');
		await jest.advanceTimersByTimeAsync(2 * WAIT);
		const b = runOf(processB, 'B');
		const passed = await settled(Promise.all([a.passed, b.passed]));
		expect(passed.filter(Boolean)).toHaveLength(1);
		expect(store.row()).toEqual([E]);
	});
});

describe('a store error between the first record and the last check (a database restart)', () => {
	test('the store keeps failing past the patience: the run fails naming the event; a later copy passes it once', async () => {
		store.fail(afterFirst('A'), new Error('Connection terminated unexpectedly'), 1_000_000);
		const a = runOf(processA, 'A');
		await expect(settled(a.passed)).rejects.toThrow(
			"Answered 200, not passed on: payout.transfer.success tx_1 (success) (n8n's store: Connection terminated unexpectedly)",
		);
		expect(a.run.answeredAt).toBe(0);
		const b = runOf(await aProcess(), 'B');
		expect(await settled(b.passed)).toBe(true);
		const c = runOf(await aProcess(), 'C');
		expect(await settled(c.passed)).toBe(false);
	});

	test('one error, then the store is back: the run itself passes the event, after the takeover wait', async () => {
		store.fail(afterFirst('A'), new Error('Connection terminated unexpectedly'));
		const a = runOf(processA, 'A');
		expect(await settled(a.passed)).toBe(true);
		expect(Date.now()).toBeGreaterThanOrEqual(T);
		await recordsHeld(processA);
		expect(store.row()).toEqual([E]);
	});
});

describe.each([true, false])('a row written by 0.1.0 (the event alone), queue mode %s', (queueMode) => {
	test('the event is not passed again, and the row keeps the event alone', async () => {
		store.seed([E]);
		const a = runOf(processA, 'A', { queueMode });
		expect(await settled(a.passed)).toBe(false);
		expect(a.run.answeredAt).toBe(0);
		expect(store.row()).toEqual([E]);
	});
});

describe('One Process Only: the same values, no waits', () => {
	test('copies at once in one process: all answered at once, exactly one passes, nothing waits', async () => {
		const runs = [runOf(processA, 'A', { queueMode: false }), runOf(processA, 'A', { queueMode: false }), runOf(processA, 'A', { queueMode: false })];
		const passed = await settled(Promise.all(runs.map(async (run) => await run.passed)));
		expect(passed.filter(Boolean)).toHaveLength(1);
		expect(runs.map((run) => run.run.answeredAt)).toEqual([0, 0, 0]);
		expect(Date.now()).toBe(0);
		expect(store.row()).toEqual([E]);
	});

	test('a key found claimed with no run in this process (a restart): taken over at once', async () => {
		store.seed([`${E}#claimed`]);
		const a = runOf(processA, 'A', { queueMode: false });
		expect(await settled(a.passed)).toBe(true);
		expect(Date.now()).toBe(0);
		expect(store.row()).toEqual([E]);
	});

	test('the pass call fails past the patience: the run fails naming the event; a Retry passes it once', async () => {
		store.fail(afterFirst('A'), new Error('Connection terminated unexpectedly'), 1_000_000);
		const a = runOf(processA, 'A', { queueMode: false });
		await expect(settled(a.passed)).rejects.toThrow('Answered 200, not passed on: payout.transfer.success tx_1 (success)');
		const retry = runOf(processA, 'R', { queueMode: false, mode: 'retry' });
		expect(await settled(retry.passed)).toBe(true);
		expect(await settled(runOf(processA, 'R', { queueMode: false }).passed)).toBe(false);
	});
});

describe.each([true, false])('a pass call written, then its answer lost (queue mode %s)', (queueMode) => {
	test('tried again, it finds the event with its own mark: the event is passed on, once', async () => {
		let lost = 0;
		const a = runOf(processA, 'A', { queueMode, lostAnswer: (values) => values.includes(E) && lost++ === 0 });
		expect(await settled(a.passed)).toBe(true);
		await recordsHeld(processA);
		// The lost call, its retry, then (queue mode) two checks a claim wait apart.
		const calls = queueMode ? 4 : 2;
		expect(lost).toBe(calls);
		expect(store.records('A').filter((values) => values.includes(E))).toHaveLength(calls);
		expect(store.row()).toEqual([E]);
	});
});
