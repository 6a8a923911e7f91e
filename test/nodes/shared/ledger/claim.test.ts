/**
 * The claim's check (nodes/shared/ledger/claim.ts) in queue mode: of two processes reserving one key
 * at the same moment, exactly one gets it. Each process is its own instance of the ledger's modules
 * (its own queue of store calls, store.ts); the double interleaves their calls: a call reads the
 * row, and writes it back whole READ_TO_WRITE ms later, dropping what the other wrote meanwhile.
 */
import { CHECKS, CLAIM_ROUNDS } from '../../../../nodes/shared/ledger/claim';
import { aProcess, isToken, settled, StoreDouble } from '../../../helpers/n8n/storeDouble';

const WAIT = 100;
const READ_TO_WRITE = 10;
const none = new Set<string>();

let store: StoreDouble;

beforeEach(() => {
	jest.useFakeTimers({ now: 0 });
	store = new StoreDouble();
});
afterEach(() => jest.useRealTimers());

/** A run of the node in its own n8n process (queue mode). */
async function run(process: string) {
	const ledgers = await aProcess();
	return {
		ledgers,
		ledger: ledgers.openLedger(store.context({ process, queueMode: true, claimWaitMs: WAIT }), `n8n-run:${process}`),
	};
}
const after = async <T>(ms: number, task: () => Promise<T>) => {
	await new Promise((resolve) => setTimeout(resolve, ms));
	return await task();
};
/** The processes that marked k1 sending (the call with the run's mark first, then the sending markers). */
const sendingBy = () =>
	store.calls
		.filter((call) => call.values[0]?.startsWith('n8n-run:') && call.values[1] === 'k1#sending')
		.map((call) => call.process);

describe('two processes reserve the same key', () => {
	beforeEach(() => {
		store.readToWriteMs = () => READ_TO_WRITE;
	});

	test.each([
		// B starts before A's write lands: both read the row without the key; the write that lands last holds.
		{ offset: 0, a: 'concurrent', b: 'new' },
		{ offset: 4, a: 'concurrent', b: 'new' },
		{ offset: READ_TO_WRITE - 1, a: 'concurrent', b: 'new' },
		// B starts after A's write landed: B reads A's claim (and is told an earlier run has it).
		{ offset: READ_TO_WRITE + 1, a: 'new', b: 'unknown' },
		{ offset: 3 * WAIT, a: 'new', b: 'unknown' },
	])('B starts $offset ms after A: A $a, B $b; exactly one new, and only it is marked sending', async ({ offset, a, b }) => {
		const A = await run('A');
		const B = await run('B');
		const [va, vb] = await settled(
			Promise.all([A.ledger.reserve(['k1'], none), after(offset, async () => await B.ledger.reserve(['k1'], none))]),
		);
		expect({ a: va.get('k1'), b: vb.get('k1') }).toEqual({ a, b });
		expect(sendingBy()).toEqual([a === 'new' ? 'A' : 'B']);
	});

	test('three at once: exactly one new, two concurrent', async () => {
		const runs = await Promise.all(['A', 'B', 'C'].map(run));
		const verdicts = await settled(
			Promise.all(runs.map(async ({ ledger }, i) => await after(2 * i, async () => await ledger.reserve(['k1'], none)))),
		);
		expect(verdicts.map((verdict) => verdict.get('k1')).sort()).toEqual(['concurrent', 'concurrent', 'new']);
		expect(sendingBy()).toHaveLength(1);
	});

	test('A’s write held while B claims: A lands over B’s claim, B’s token is gone: A new, B concurrent', async () => {
		store.readToWriteMs = () => 0;
		const A = await run('A');
		const B = await run('B');
		const held = store.hold((call) => call.process === 'A' && call.values.includes('k1'));
		const a = A.ledger.reserve(['k1'], none);
		await held.reached; // A read the row: no k1
		const b = B.ledger.reserve(['k1'], none);
		await jest.advanceTimersByTimeAsync(WAIT / 2); // B wrote its claim and waits
		expect(store.row()).toContain('k1');
		held.land(); // A writes the row back as it read it, with its own claim
		const [va, vb] = await settled(Promise.all([a, b]));
		expect({ a: va.get('k1'), b: vb.get('k1') }).toEqual({ a: 'new', b: 'concurrent' });
		expect(sendingBy()).toEqual(['A']);
	});

	test('A’s write held past the claim wait: B’s claim held meanwhile; A’s late write fails closed (ClaimNotHeld)', async () => {
		store.readToWriteMs = () => 0;
		const A = await run('A');
		const B = await run('B');
		const held = store.hold((call) => call.process === 'A' && call.values.includes('k1'));
		const a = A.ledger.reserve(['k1'], none).catch((error: unknown) => error);
		await held.reached;
		const b = B.ledger.reserve(['k1'], none);
		await expect(settled(b)).resolves.toEqual(new Map([['k1', 'new']]));
		held.land(); // lands after B's claim held and B marked it sending: drops B's records
		const error = await settled(a);
		expect(error).toBeInstanceOf(A.ledgers.ClaimNotHeld);
		expect((error as Error).message).toMatch(/took \d+ ms, as long as the claim wait \(100 ms\) or longer/);
		expect(sendingBy()).toEqual(['B']);
		// A's late write dropped what B wrote: B's verify() writes it again.
		expect(store.row()).not.toContain('k1#sending');
		await settled(B.ledger.verify());
		expect(store.row()).toEqual(expect.arrayContaining(['n8n-run:B', 'k1', 'k1#claimed', 'k1#sending']));
	});
});

describe('one process whose claim is written over', () => {
	test('the token written over by a stale write-back: the claim is made again, and holds', async () => {
		store.writeOver((call) => call.values.includes('k1#claimed'), { own: ['other'] });
		const { ledger } = await run('A');
		await expect(settled(ledger.reserve(['k1'], none))).resolves.toEqual(new Map([['k1', 'new']]));
		const records = store.records().map((values) => values.map((value) => (isToken(value) ? 'TOKEN' : value)));
		expect(records).toEqual([
			['n8n-run:A', 'k1', 'k1#claimed', 'TOKEN'], // written over
			['TOKEN'], // not there: another attempt
			['k1', 'TOKEN'],
			['TOKEN'], // there
			['TOKEN'], // there again a claim wait later: held
			['n8n-run:A', 'k1#sending'],
		]);
		const tokens = store.records().map((values) => values.find(isToken));
		expect(tokens[0]).toBe(tokens[1]);
		expect(tokens[2]).toBe(tokens[3]);
		expect(tokens[2]).toBe(tokens[4]);
		expect(tokens[2]).not.toBe(tokens[0]);
	});

	test(`written over in every round: ClaimNotHeld after ${CLAIM_ROUNDS} attempts, nothing marked sending`, async () => {
		store.writeOver((call) => call.values.includes('k1'), { times: Infinity, own: ['other'] });
		const { ledger, ledgers } = await run('A');
		const error = await settled(ledger.reserve(['k1'], none).catch((caught: unknown) => caught));
		expect(error).toBeInstanceOf(ledgers.ClaimNotHeld);
		expect((error as Error).message).toMatch(new RegExp(`wrote over this claim ${CLAIM_ROUNDS} time`));
		expect(store.records().filter((values) => values.includes('k1'))).toHaveLength(CLAIM_ROUNDS);
		expect(sendingBy()).toEqual([]);
	});

	test.each([
		{ call: 'the first write', match: (values: string[]) => values.includes('k1') },
		{ call: 'the token’s check', match: (values: string[]) => values.length === 1 && isToken(values[0]) },
	])('$call taking as long as the claim wait fails closed; 1 ms less holds', async ({ match }) => {
		store.latency = (call) => (call.kind === 'record' && match(call.values) ? WAIT : 0);
		const slow = await run('A');
		const error = await settled(slow.ledger.reserve(['k1'], none).catch((caught: unknown) => caught));
		expect(error).toBeInstanceOf(slow.ledgers.ClaimNotHeld);
		expect((error as Error).message).toMatch(/took 100 ms, as long as the claim wait \(100 ms\) or longer/);
		expect(sendingBy()).toEqual([]);

		store = new StoreDouble();
		store.latency = (call) => (call.kind === 'record' && match(call.values) ? WAIT - 1 : 0);
		const fastEnough = await run('A');
		await expect(settled(fastEnough.ledger.reserve(['k1'], none))).resolves.toEqual(new Map([['k1', 'new']]));
	});

	test('the sending markers’ call as long as the claim wait: ClaimNotHeld, and the key and its markers go with the next call', async () => {
		store.latency = (call) => (call.values.includes('k1#sending') ? WAIT : 0);
		const { ledger, ledgers } = await run('A');
		await expect(settled(ledger.reserve(['k1'], none))).rejects.toThrow(ledgers.ClaimNotHeld);
		await settled(ledger.flush());
		expect(store.calls.at(-1)).toMatchObject({ kind: 'remove', values: ['k1', 'k1#accepted', 'k1#claimed', 'k1#sending', 'k1#takeover'] });
		expect(store.row().filter((value) => value.startsWith('k1'))).toEqual([]);
	});
});

describe('a chain of lost updates: three other calls, each writing back a row it read before', () => {
	/** A store call of a third process (any other node run sharing the row), held between its read and its write. */
	function bystander(value: string) {
		const held = store.hold((call) => call.process === 'P' && call.values.includes(value));
		const context = store.context({ process: 'P' });
		const call = context.helpers.checkProcessedAndRecord([value], 'node', { mode: 'entries' });
		return { ...held, call };
	}

	test('A’s claim restored after B’s write, then B’s after A’s first check: the second check finds it, and exactly one gets the key', async () => {
		const A = await run('A');
		const B = await run('B');
		const p1 = bystander('p1'); // reads the empty row
		await p1.reached;
		const a = A.ledger.reserve(['k1'], none);
		await jest.advanceTimersByTimeAsync(1); // A wrote k1 with its token, and waits
		expect(store.row()).toContain('k1');
		const p2 = bystander('p2'); // reads the row with A's claim
		await p2.reached;
		p1.land(); // writes back the empty row: A's claim is gone
		await p1.call;
		expect(store.row()).not.toContain('k1');
		await jest.advanceTimersByTimeAsync(20);
		const b = B.ledger.reserve(['k1'], none);
		await jest.advanceTimersByTimeAsync(1); // B found k1 new, wrote its claim, and waits
		const p3 = bystander('p3'); // reads the row with B's claim
		await p3.reached;
		p2.land(); // writes back A's claim: B's is gone
		await p2.call;
		await jest.advanceTimersByTimeAsync(WAIT + 5 - Date.now()); // A's first check: its token is there
		expect(store.calls.filter((call) => call.process === 'A').length).toBeGreaterThanOrEqual(3);
		p3.land(); // writes back B's claim: A's is gone; B's first check will find its token
		await p3.call;
		const [va, vb] = await settled(Promise.all([a, b]));
		// With one check each, both tokens were there: both 'new', both marked sending. The second check
		// (CHECKS) finds A's gone; A's next attempt finds k1 recorded.
		expect(CHECKS).toBe(2);
		expect([va.get('k1'), vb.get('k1')]).toEqual(['concurrent', 'new']);
		expect(sendingBy()).toEqual(['B']);
	});
});

/**
 * The timing assumption (docs/ledger.md): one store call of another process that read the row
 * before a claim's first write, and writes it back later, drops the claim. Landing before the
 * claim's second check (two claim waits after its write) it is seen there: the claim is made
 * again. Landing after it, it is not, and a later run finds the key new: so no call may take two
 * claim waits between its read and its write. The queue suite measures the slowest call against
 * half of that (test/queue/throughput.queue.test.ts).
 */
describe('one slow call of another process, read before A’s claim and written back later', () => {
	test.each([
		// Seen by A's second check: A claims again, and holds.
		{ landsAt: 2 * WAIT - 5, attempts: 2, b: 'unknown', sending: ['A'] },
		// After both checks: the key is gone once A holds it, and B is paid too.
		{ landsAt: 2 * WAIT + 5, attempts: 1, b: 'new', sending: ['A', 'B'] },
	])('written back $landsAt ms after A’s claim (wait 100 ms): A new in $attempts attempt(s), a later B $b', async ({ landsAt, attempts, b, sending }) => {
		const A = await run('A');
		const B = await run('B');
		const slow = store.hold((call) => call.process === 'P' && call.values.includes('p1'));
		const call = store.context({ process: 'P' }).helpers.checkProcessedAndRecord(['p1'], 'node', { mode: 'entries' });
		await slow.reached; // P read the empty row
		const a = A.ledger.reserve(['k1'], none);
		await jest.advanceTimersByTimeAsync(1); // A wrote k1 with its token, and waits
		expect(store.row()).toContain('k1');
		await jest.advanceTimersByTimeAsync(landsAt - Date.now());
		const checksByA = store.calls.filter((c) => c.process === 'A' && c.values.length === 1 && isToken(c.values[0])).length;
		expect(checksByA).toBe(landsAt < 2 * WAIT ? 1 : CHECKS);
		slow.land(); // writes back the row as P read it: A's claim is gone
		await call;
		expect(store.row()).not.toContain('k1#claimed');
		expect((await settled(a)).get('k1')).toBe('new');
		expect(store.calls.filter((c) => c.process === 'A' && c.kind === 'record' && c.values.includes('k1'))).toHaveLength(attempts);
		expect((await settled(B.ledger.reserve(['k1'], none))).get('k1')).toBe(b);
		expect(sendingBy()).toEqual(sending);
	});
});
