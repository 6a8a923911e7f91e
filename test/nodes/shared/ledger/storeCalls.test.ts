/**
 * How many store calls the ledger makes per trigger event and per payout window, in one n8n
 * process and in queue mode (each call is a read and a write of the node's whole row, and takes
 * one of n8n's pool connections twice). Printed as `store-calls[<case>]: …` lines; the counts
 * are asserted, so a change that adds calls shows here.
 */
import { SENDING_WINDOW } from '../../../../nodes/shared/ledger/windows';
import { freshEachTest, type Ledger, settled, StoreDouble } from '../../../helpers/n8n/storeDouble';

const WAIT = 100;

let store: StoreDouble;
let ledgers: Ledger;

freshEachTest((fresh, inProcess) => {
	store = fresh;
	ledgers = inProcess;
}, { markOnReserve: false });

const credential = (queueMode: boolean) => (queueMode ? { queueMode, claimWaitMs: WAIT } : {});
const byKind = () => {
	const counts: Record<string, number> = {};
	for (const call of store.calls) counts[call.kind] = (counts[call.kind] ?? 0) + 1;
	return counts;
};

describe.each([false, true])('queue mode %s', (queueMode) => {
	const config = queueMode ? 'queue mode' : 'one process';

	test('trigger events: per event', async () => {
		const context = store.context(credential(queueMode));
		for (let event = 0; event < 10; event++) await settled(ledgers.recordEvents(context, [`event-${event}`], 1000));
		// In queue mode the pass record's checks and the removal come after the run goes on.
		await settled(ledgers.passRecordsSettled());
		const counts = byKind();
		process.stdout.write(`store-calls[trigger, ${config}]: ${JSON.stringify(counts)} for 10 events\n`);
		// Issue #54: per event, the first record (answered after it), the pass call and one remove of the
		// event's claim values. Queue mode: a read-only warm-up once per process and row, and the claim's
		// two checks between the first record and the pass call, and two checks of the pass record (after the run went on).
		expect(counts).toEqual(queueMode ? { count: 1, record: 60, remove: 10 } : { record: 20, remove: 10 });
	});

	test('payouts: per window of Items per Batch, 2,000 items', async () => {
		const ledger = ledgers.openLedger(store.context(credential(queueMode)), 'n8n-run:payroll');
		const items = Array.from({ length: 2000 }, (_, itemIndex) => ({ itemIndex, key: `item-${itemIndex}`, allowResend: false }));
		const ahead = ledgers.windows(ledger, items, 10);
		for (const item of items) {
			await settled(ahead.verdictFor(item.itemIndex));
			ledger.accepted(item.key);
			ahead.finished(item.itemIndex);
		}
		await settled(ahead.releaseUnsent());
		await settled(ledger.flush());
		const counts = byKind();
		process.stdout.write(`store-calls[2,000 payouts, ${config}]: ${JSON.stringify(counts)}\n`);
		// One process: a window of 10 per call (200) and the last accepted markers. Queue mode: two claims
		// of 1,000 (a write and two checks each), a warm-up, a call per sending window of 50 (its sending
		// markers, with the accepted markers so far), and the last accepted markers.
		expect(counts).toEqual(queueMode ? { count: 1, record: 2 * 3 + 2000 / SENDING_WINDOW + 1 } : { record: 200 + 1 });
	});
});
