/**
 * The takeover (nodes/shared/ledger/takeover.ts, queue mode): a Retry finds keys claimed and never
 * sent (`#claimed`, neither `#sending` nor `#accepted`); after takeoverWaitMs it claims `#takeover`
 * and sends them; so does any other run (a new run, where n8n offers no Retry). Keys sending or
 * accepted are not taken over.
 */
import { FRESH_CLAIM_WAITS, TAKEOVER_LOOK_WAITS, takeoverWaitMs } from '../../../../nodes/shared/ledger/takeover';
import { aProcess, freshEachTest, isToken, type Ledger, settled, StoreDouble } from '../../../helpers/n8n/storeDouble';

const WAIT = 100;
const TAKEOVER = takeoverWaitMs(WAIT);
const RETRY = 'n8n-run:crashed-run';
const none = new Set<string>();

let store: StoreDouble;
let ledgers: Ledger;

freshEachTest((fresh, inProcess) => {
	store = fresh;
	ledgers = inProcess;
});

const open = (mode: string, modules = ledgers, process = 'A') =>
	modules.openLedger(store.context({ process, queueMode: true, claimWaitMs: WAIT, mode }), RETRY);
const reserve = async (mode: string, keys = ['k1']) => {
	const start = Date.now();
	const verdicts = await settled(open(mode).reserve(keys, none));
	return { verdicts: Object.fromEntries(verdicts), ms: Date.now() - start };
};
const tookOver = () => store.calls.some((call) => call.values.includes('k1#takeover'));

test('claimed, never sent: after the takeover wait the Retry claims key#takeover and sends it (new)', async () => {
	store.seed([RETRY, 'k1', 'k1#claimed', 'n8n-claim:crashed']);
	const { verdicts, ms } = await reserve('retry');
	expect(verdicts).toEqual({ k1: 'new' });
	expect(ms).toBeGreaterThanOrEqual(TAKEOVER);
	const calls = store.calls.map((call) => [call.kind, ...call.values.map((value) => (isToken(value) ? 'TOKEN' : value))]);
	expect(calls.slice(0, 4)).toEqual([
		['count'],
		['record', RETRY, 'k1', 'k1#claimed', 'TOKEN'],
		['record', 'k1#accepted', 'k1#sending'], // asked: neither there
		['remove', 'k1#accepted', 'k1#sending'],
	]);
	// Asked again every TAKEOVER_LOOK_WAITS claim waits until the takeover wait is over: still neither.
	// (The first write's token goes with one of them, checked on the way by verify.ts: no key of that
	// write was new, so its claim was never made, nor disowned.)
	const looks = Math.ceil(TAKEOVER / (TAKEOVER_LOOK_WAITS * WAIT));
	const asked = calls.slice(4, 4 + 2 * looks);
	expect(asked.map((call) => call.filter((value) => value !== 'TOKEN'))).toEqual(
		Array.from({ length: 2 * looks }, (_, i) => [i % 2 === 0 ? 'record' : 'remove', 'k1#accepted', 'k1#sending']),
	);
	expect(calls.slice(4 + 2 * looks)).toEqual([
		['record', 'k1#takeover', 'TOKEN'],
		['record', 'TOKEN'],
		['record', 'TOKEN'],
		['record', RETRY, 'k1#sending'],
	]);
	expect(store.calls[4 + 2 * (looks - 1)].at - store.calls[3].at).toBeGreaterThanOrEqual(TAKEOVER);
	expect(store.calls[4].at - store.calls[3].at).toBe(TAKEOVER_LOOK_WAITS * WAIT);
	expect(store.row()).toEqual(expect.arrayContaining(['k1#takeover', 'k1#sending']));
	expect(store.row()).not.toContain('k1#accepted');
});

test('claimed and sending: unknown at once, not taken over', async () => {
	store.seed(['k1', 'k1#claimed', 'k1#sending']);
	const { verdicts, ms } = await reserve('retry');
	expect(verdicts).toEqual({ k1: 'unknown' });
	expect(ms).toBeLessThan(WAIT);
	expect(tookOver()).toBe(false);
});

test('claimed and accepted: accepted at once, not taken over', async () => {
	store.seed(['k1', 'k1#claimed', 'k1#accepted']);
	const { verdicts, ms } = await reserve('retry');
	expect(verdicts).toEqual({ k1: 'accepted' });
	expect(ms).toBeLessThan(WAIT);
	expect(tookOver()).toBe(false);
});

test.each(['trigger', 'manual', 'webhook', 'internal'])('claimed, never sent, met by a %s run (a new run, where n8n offers no Retry): taken over and sent after the takeover wait', async (mode) => {
	store.seed(['k1', 'k1#claimed']);
	const { verdicts, ms } = await reserve(mode);
	expect(verdicts).toEqual({ k1: 'new' });
	expect(ms).toBeGreaterThanOrEqual(TAKEOVER);
	expect(tookOver()).toBe(true);
	expect(store.row()).toEqual(expect.arrayContaining(['k1#takeover', 'k1#sending']));
});

describe('a new run of the rows a dead run left (another execution, any mode)', () => {
	const run = async (executionId: string, mode = 'webhook') => {
		const start = Date.now();
		const context = store.context({ queueMode: true, claimWaitMs: WAIT, mode, executionId });
		const hints: Array<{ message: string }> = [];
		Object.assign(context, { addExecutionHints: (...added: Array<{ message: string }>) => hints.push(...added) });
		const ledger = ledgers.openLedger(context, RETRY);
		const verdicts = await settled(ledger.reserve(['k1', 'k2'], none));
		await settled(ledger.verify());
		return { verdicts: Object.fromEntries(verdicts), ms: Date.now() - start, hints };
	};

	test('the row it was sending is unknown, the row it claimed ahead and never sent is sent, and the run says both', async () => {
		// The first run: k1 sent (sending), k2 claimed ahead and never sent; then its worker died.
		store.seed([RETRY, 'k1', 'k1#claimed', 'k1#sending', 'k2', 'k2#claimed']);
		const { verdicts, ms, hints } = await run('42');
		expect(verdicts).toEqual({ k1: 'unknown', k2: 'new' });
		expect(ms).toBeGreaterThanOrEqual(TAKEOVER);
		expect(store.row()).toEqual(expect.arrayContaining(['k2#takeover', 'k2#sending']));
		expect(store.row()).not.toContain('k1#takeover');
		expect(hints.map((hint) => hint.message)).toEqual([
			`1 row had been reserved by an earlier run that never sent them (its worker may have died): this run sent them, after waiting ${TAKEOVER / 1000} s in case that run was still alive.`,
			expect.stringContaining('1 row came out "already submitted" with outcome "unknown"'),
		]);
	});

	test('nothing left by another run: no word of one', async () => {
		const { verdicts, hints } = await run('43');
		expect(verdicts).toEqual({ k1: 'new', k2: 'new' });
		expect(hints).toEqual([]);
	});
});

test.each([
	{ marker: 'k1#sending', verdict: 'unknown' },
	{ marker: 'k1#accepted', verdict: 'accepted' },
])('$marker written during the takeover wait: $verdict, not taken over', async ({ marker, verdict }) => {
	store.seed(['k1', 'k1#claimed']);
	setTimeout(() => store.seed([marker]), TAKEOVER - 1);
	const { verdicts, ms } = await reserve('retry');
	expect(verdicts).toEqual({ k1: verdict });
	expect(ms).toBeGreaterThanOrEqual(TAKEOVER);
	expect(tookOver()).toBe(false);
});

test('the original run alive in its claim (another process): it marks the key sending, the Retry does not take it over and stops waiting once it is', async () => {
	const original = open('trigger', await aProcess(), 'original');
	const running = original.reserve(['k1'], none);
	// The Retry starts after the original's first write, before its claim is checked.
	const retry = new Promise((resolve) => setTimeout(resolve, WAIT / 2)).then(async () => await open('retry').reserve(['k1'], none));
	const [first, second] = await settled(Promise.all([running, retry]));
	expect([first.get('k1'), second.get('k1')]).toEqual(['new', 'unknown']);
	expect(tookOver()).toBe(false);
	// The Retry did wait: it found #claimed without #sending when it looked first; it looked again
	// TAKEOVER_LOOK_WAITS claim waits later, found it sending, and waited no longer.
	expect(Date.now()).toBeGreaterThanOrEqual(WAIT / 2 + TAKEOVER_LOOK_WAITS * WAIT);
	expect(Date.now()).toBeLessThan(TAKEOVER);
});

test('two Retries at once (two processes): one takes the key over, the other is told concurrent', async () => {
	store.seed(['k1', 'k1#claimed']);
	store.readToWriteMs = () => 10;
	const other = await aProcess();
	const [a, b] = await settled(
		Promise.all([open('retry').reserve(['k1'], none), open('retry', other, 'B').reserve(['k1'], none)]),
	);
	expect([a.get('k1'), b.get('k1')].sort()).toEqual(['concurrent', 'new']);
	// The sending markers' call (the run's mark first) is made by the one that took it over only.
	expect(store.calls.filter((call) => call.values[0] === RETRY && call.values[1] === 'k1#sending')).toHaveLength(1);
});

describe('the original run alive, its window reached long after its claim (keys claimed ahead)', () => {
	/** The original claims k1, then reaches its window `late` ms after; a Retry starts meanwhile. */
	async function race(late: number) {
		const originals = await aProcess({ markOnReserve: false });
		const original = originals.openLedger(store.context({ process: 'original', queueMode: true, claimWaitMs: WAIT, mode: 'trigger' }), RETRY);
		const claimed = await settled(original.reserve(['k1'], none));
		const retrying = open('retry').reserve(['k1'], none);
		const marking = new Promise((resolve) => setTimeout(resolve, late)).then(async () => await original.markSending(['k1']));
		const [retried, takenOver] = await settled(Promise.all([retrying, marking]));
		const originalSends = claimed.get('k1') === 'new' && !takenOver.has('k1');
		return { originalSends, retrySends: retried.get('k1') === 'new' };
	}

	test(`reached after ${FRESH_CLAIM_WAITS} claim waits, before the Retry looks again: it claims k1#takeover first and sends; the Retry does not`, async () => {
		expect(await race(FRESH_CLAIM_WAITS * WAIT + WAIT)).toEqual({ originalSends: true, retrySends: false });
		expect(store.row()).toEqual(expect.arrayContaining(['k1#takeover', 'k1#sending']));
	});

	test('reached after the Retry took it over: the original does not send it (concurrent), the Retry does', async () => {
		expect(await race(TAKEOVER + 5 * WAIT)).toEqual({ originalSends: false, retrySends: true });
	});

	test(`reached within ${FRESH_CLAIM_WAITS} claim waits: marked sending at once, and the Retry leaves it alone`, async () => {
		expect(await race(WAIT)).toEqual({ originalSends: true, retrySends: false });
		expect(store.row()).not.toContain('k1#takeover');
	});
});
