/**
 * Issue #62, point 2: no event swallowed by a fault after the trigger answered its delivery 200,
 * in queue mode (2 webhook processors, 2 workers, PostgreSQL, Redis), the credential as created.
 * The trigger's step answers right after the event's first store call; its claim's checks and its
 * pass call come after. Each case makes one fault happen there:
 *
 * 1. n8n's store fails (every write of n8n's de-duplication table refused by PostgreSQL) for
 *    12 s right after every delivery was answered: the runs' later store calls fail. Each event
 *    still goes past the trigger once: a run retries its calls, or goes on as a copy of its own
 *    claim and takes it over after the takeover wait.
 * 2. A worker killed (SIGKILL) while its runs wait between the answer and the pass call: n8n
 *    never runs them again, and the provider, answered 200, sends nothing more. The same events
 *    delivered again (a provider's duplicate, or a re-send from its dashboard): the events the
 *    dead runs held are passed once after the takeover wait, the others end at the trigger.
 *
 *   queue[trigger fault: <case>,<config>]: <n> events, answered 200 <a>, past the trigger per event …, payouts per event …
 */
import { deliverSigned, eventsPastTrigger, newPayeeEvent, stopStack, tally, type ApiExecution, type PayeeEvent } from '../e2e/support/e2e';
import { describeQueue, expectNoPackageFailures, failures, paidTimes, recordResults, settledExecutions, sleep, startPayPerEventQueue, type QueueStack } from './support/queue';
import { queueLabel } from './support/config';
import { psql } from './support/services';

const WORKFLOW_ID = 'WalletQueueFault';
const SECRET = 'whsec_queue_faults';
const HEADER = 'x-wallet-signature';
const EVENTS = 10;
const STORE_DOWN_MS = 12000;

/** n8n's de-duplication store refuses every write (a PostgreSQL trigger on its table) until `storeBack`. */
function storeDown(stack: QueueStack): void {
	psql(
		stack.n8n.services.postgresPort,
		stack.n8n.database,
		`CREATE OR REPLACE FUNCTION wallet_e2e_store_down() RETURNS trigger AS $$
		BEGIN RAISE EXCEPTION 'wallet-e2e injected fault: the store is down'; END $$ LANGUAGE plpgsql;
		DROP TRIGGER IF EXISTS wallet_e2e_store_down ON processed_data;
		CREATE TRIGGER wallet_e2e_store_down BEFORE INSERT OR UPDATE ON processed_data FOR EACH ROW EXECUTE FUNCTION wallet_e2e_store_down();`,
	);
}

function storeBack(stack: QueueStack): void {
	psql(stack.n8n.services.postgresPort, stack.n8n.database, 'DROP TRIGGER IF EXISTS wallet_e2e_store_down ON processed_data;');
}

describeQueue('Wallet Payments Trigger: faults after the answer, in queue mode (issue #62, point 2)', () => {
	let stack: QueueStack | undefined;
	let url = '';
	const lines: string[] = [];
	const results: Record<string, unknown> = {};

	const deliver = async (events: PayeeEvent[]) => await Promise.all(events.map(async (event) => await deliverSigned(url, event.body, SECRET, HEADER).catch(() => 0)));
	const newEvents = async (from: number) => await Promise.all(Array.from({ length: EVENTS }, async (_, i) => await newPayeeEvent(stack!.sandbox, from + i)));

	/** Waits until the workflow's executions settle (none new for 10 s), then counts per event. */
	async function count(label: string, events: PayeeEvent[], statuses: number[]) {
		const { n8n, sandbox } = stack!;
		let all: ApiExecution[] = [];
		for (let seen = -1; all.length !== seen; ) {
			seen = all.length;
			all = await settledExecutions(n8n, WORKFLOW_ID, 1, 600000);
			await sleep(10000);
		}
		const passed = all.flatMap(eventsPastTrigger);
		const perEvent = tally(events.map((event) => passed.filter((id) => id === event.eventId).length));
		const paid = paidTimes(sandbox, events.map((event) => event.beneficiaryId));
		const result = { answered200: statuses.filter((status) => status === 200).length, eventsByTimesPassed: perEvent, payeesPaidTimes: paid, failed: failures(all) };
		lines.push(`${queueLabel(`trigger fault: ${label}`)}: ${events.length} events, answered 200 ${result.answered200} of ${statuses.length}, past the trigger per event ${JSON.stringify(perEvent)}, payouts per event ${JSON.stringify(paid)}`);
		return result;
	}

	beforeAll(async () => {
		({ stack, url } = await startPayPerEventQueue({ id: WORKFLOW_ID, name: 'Queue: trigger faults', secret: SECRET, header: HEADER }));
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		recordResults('triggerFaults', results);
		if (stack) storeBack(stack);
		await stopStack(stack);
	});

	test(`n8n's store refuses every write for ${STORE_DOWN_MS / 1000} s right after ${EVENTS} deliveries were answered: each event goes past the trigger once`, async () => {
		const events = await newEvents(1);
		const statuses = await deliver(events);
		storeDown(stack!);
		await sleep(STORE_DOWN_MS);
		storeBack(stack!);
		const result = await count(`store down ${STORE_DOWN_MS / 1000} s after the answers`, events, statuses);
		results.storeDown = result;
		expect(statuses).toEqual(events.map(() => 200));
		expectNoPackageFailures(stack!.n8n, result.failed);
		expect(result.eventsByTimesPassed).toEqual({ 1: EVENTS });
		expect(result.payeesPaidTimes).toEqual({ 1: EVENTS });
	}, 900000);

	test(`a worker killed while its runs wait for their pass call, the same ${EVENTS} events delivered again: each goes past the trigger once`, async () => {
		const { n8n } = stack!;
		const events = await newEvents(1 + EVENTS);
		const ranBefore = new Set(n8n.ranOn.keys());
		const statuses = await deliver(events);
		// Every delivery answered: the runs are in their claim's checks (two claim waits before the pass call).
		await sleep(1000);
		const victim = n8n.workers[0];
		const killed = [...n8n.ranOn].filter(([id, worker]) => !ranBefore.has(id) && worker === victim.name).length;
		await n8n.killProcess(victim);
		await n8n.startProcess(victim);
		// Later than a burst (dedupe.ts BURST_MS): the webhook processors start a run for each copy.
		const again = await deliver(events);
		const result = await count(`a worker killed with ${killed} runs before their pass call, then the same events again`, events, [...statuses, ...again]);
		results.workerKilled = { killed, ...result };
		expect(killed).toBeGreaterThan(0);
		expect(statuses).toEqual(events.map(() => 200));
		expect(again).toEqual(events.map(() => 200));
		expect(result.eventsByTimesPassed).toEqual({ 1: EVENTS });
		expect(result.payeesPaidTimes).toEqual({ 1: EVENTS });
	}, 900000);
});
