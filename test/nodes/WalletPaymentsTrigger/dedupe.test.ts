/**
 * The trigger's first layer (nodes/WalletPaymentsTrigger/dedupe.ts), issue #62 point 2: a 2xx comes
 * right after the event's first record, so an answered delivery is not proof that the event was
 * passed on. Copies of one burst are duplicates; a later copy is one only once a step in this
 * process passed the event; otherwise it starts a run and the second layer decides (a queue-mode
 * worker that died after the answer would otherwise swallow the event here).
 */
import { admitEvent, BURST_MS, eventsSettled } from '../../../nodes/WalletPaymentsTrigger/dedupe';

const KEY = JSON.stringify(['payout.transfer.success', 'tx_1', 'success']);
let scope = '';
let now = 0;

beforeEach(() => {
	scope = `wf-${Math.random()}:node:webhook`;
	now = 1_000_000;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
});

afterEach(() => jest.restoreAllMocks());

/** A delivery admitted and answered 2xx (its run started). */
async function answered(): Promise<void> {
	const report = await admitEvent(scope, KEY, 1000);
	if (report === false) throw new Error('not admitted');
	report(true);
}

test('a copy within the burst of an answered delivery is a duplicate', async () => {
	await answered();
	now += BURST_MS - 1;
	expect(await admitEvent(scope, KEY, 1000)).toBe(false);
});

test('a later copy of an event no step here passed starts a run (its run may have died on a worker)', async () => {
	await answered();
	now += BURST_MS;
	const again = await admitEvent(scope, KEY, 1000);
	expect(again).toEqual(expect.any(Function));
	// That copy's own delivery answered 2xx: its burst holds copies again.
	(again as (startedRun: boolean) => void)(true);
	expect(await admitEvent(scope, KEY, 1000)).toBe(false);
});

test('passed on by a step in this process: every later copy is a duplicate', async () => {
	await answered();
	eventsSettled(scope, [KEY], true);
	now += 24 * 60 * 60 * 1000;
	expect(await admitEvent(scope, KEY, 1000)).toBe(false);
});

test('the step in this process failed after the answer: the next copy starts a run at once', async () => {
	await answered();
	eventsSettled(scope, [KEY], false);
	expect(await admitEvent(scope, KEY, 1000)).toEqual(expect.any(Function));
});

test('a copy waiting for a delivery in flight is a duplicate once that one is answered 2xx', async () => {
	const first = await admitEvent(scope, KEY, 1000);
	if (first === false) throw new Error('not admitted');
	const copy = admitEvent(scope, KEY, 1000);
	first(true);
	expect(await copy).toBe(false);
});

test('keys another process admitted are left alone by a step here', async () => {
	eventsSettled(scope, [KEY], true);
	expect(await admitEvent(scope, KEY, 1000)).toEqual(expect.any(Function));
});
