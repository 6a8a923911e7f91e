/**
 * When an earlier run sent a key (issue #31, point 6; nodes/shared/ledger/days.ts): the day the
 * service accepted it is recorded with its accepted marker, and a later run that finds the key
 * accepted says on which day (UTC), or before which day, or nothing when no day was recorded.
 * Looking records nothing.
 */
import { DAYS_ASKED } from '../../../../nodes/shared/ledger/days';
import { freshEachTest, type Ledger, settled, StoreDouble } from '../../../helpers/n8n/storeDouble';

const none = new Set<string>();
const DAY_MS = 24 * 60 * 60 * 1000;
const START = Date.parse('2026-10-26T09:00:00Z');

let store: StoreDouble;
let ledgers: Ledger;
let runs = 0;

freshEachTest((fresh, inProcess) => {
	store = fresh;
	ledgers = inProcess;
}, { now: START });

/** A run of the node (a mark of its own, as a new trigger output gives) that sends `keys`; `accept` those the service accepted. */
async function sendRun(keys: string[], accepted: string[] = keys, resend: string[] = []) {
	const ledger = ledgers.openLedger(store.context(), `n8n-run:${++runs}`);
	const verdicts = await settled(ledger.reserve(keys, new Set(resend)));
	for (const key of accepted) ledger.accepted(key);
	await settled(ledger.flush());
	return { ledger, verdicts };
}
const onDay = (iso: string) => jest.setSystemTime(Date.parse(`${iso}T12:00:00Z`));

test('a key accepted on 2026-10-26 is reported sent on that day a month later; one never accepted has no day', async () => {
	await sendRun(['k1', 'k2'], ['k1']);
	onDay('2026-11-26');
	const rowBefore = store.row();
	const { ledger, verdicts } = await sendRun(['k1', 'k2'], []);
	expect(Object.fromEntries(verdicts)).toEqual({ k1: 'accepted', k2: 'unknown' });
	expect(ledger.sentDay('k1')).toEqual({ on: '2026-10-26' });
	expect(ledger.sentDay('k2')).toBeUndefined();
	// Looking recorded nothing: the row gained only the later run's own mark.
	expect(store.row()).toEqual([...rowBefore, 'n8n-run:2']);
});

test('sent again with Allow Resend on a later day: the later day', async () => {
	await sendRun(['k1']);
	onDay('2026-11-02');
	await sendRun(['k1'], ['k1'], ['k1']);
	onDay('2026-11-26');
	const { ledger } = await sendRun(['k1'], []);
	expect(ledger.sentDay('k1')).toEqual({ on: '2026-11-02' });
});

test(`accepted before the node's latest ${DAYS_ASKED} days: before the oldest of them`, async () => {
	await sendRun(['old']);
	for (let day = 1; day <= DAYS_ASKED; day++) {
		jest.setSystemTime(START + day * DAY_MS);
		await sendRun([`daily-${day}`]);
	}
	jest.setSystemTime(START + (DAYS_ASKED + 1) * DAY_MS);
	const { ledger } = await sendRun(['old', `daily-${DAYS_ASKED}`], []);
	expect(ledger.sentDay('old')).toEqual({ before: '2026-10-27' });
	expect(ledger.sentDay(`daily-${DAYS_ASKED}`)).toEqual({ on: '2026-11-26' });
});

test('rows written before days were recorded (0.1.0), or a key refused as done before: accepted, no day', async () => {
	store.seed(['k1', 'k1#accepted']);
	const first = await sendRun(['k1', 'k2'], []);
	expect(first.ledger.sentDay('k1')).toEqual({});
	// The service refused k3 as already done: accepted, but the day it was done is not known.
	const ledger = ledgers.openLedger(store.context(), 'n8n-run:refused');
	await settled(ledger.reserve(['k3'], none));
	ledger.accepted('k3', 'earlier');
	await settled(ledger.flush());
	expect(store.row().filter((value) => value.includes('@') || value.startsWith('n8n-day:'))).toEqual([]);
});
