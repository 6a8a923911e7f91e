/**
 * The Wallet Payments Trigger's de-duplication inside a real n8n (`n8n start`, SQLite, the
 * package installed from its tarball, an active workflow), with correctly signed deliveries to
 * the production URL: sequential copies of several distinct events, many events each sent
 * several times at the same moment, and the same events again after n8n restarts. Behind the
 * trigger a payout is made for each event, so the money moved is counted too. One line per case:
 *
 *   trigger-dedupe[<case>]: <executions> executions for <events> events
 */
import { randomUUID } from 'crypto';

import { deliverSigned, describeE2E, eventsPastTrigger, executionsOf, newPayeeEvent, settledExecutions, startPayPerEvent, stopStack, webhookServed, type ApiExecution, type PayeeEvent, type Stack } from './support/e2e';

const WORKFLOW_ID = 'WalletE2eDedupe1';
const WEBHOOK_ID = randomUUID();
const SECRET = 'whsec_trigger_dedupe';
const HEADER = 'x-wallet-signature';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeE2E('Wallet Payments Trigger de-duplication in n8n (sequential, concurrent, across a restart)', () => {
	let stack: Stack | undefined;
	const lines: string[] = [];
	let url = '';
	let eventCounter = 0;

	/** A distinct event whose workflow pays one payee (a fresh beneficiary). */
	const newEvent = async () => await newPayeeEvent(stack!.sandbox, ++eventCounter);

	const deliver = async (sent: PayeeEvent) => await deliverSigned(url, sent.body, SECRET, HEADER);

	async function executions(): Promise<ApiExecution[]> {
		return await executionsOf(stack!.n8n, WORKFLOW_ID);
	}

	const paidTo = (beneficiaryId: string) =>
		stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout' && tx.beneficiaryId === beneficiaryId).length;

	/** Executions started and items let through since `before`, per event. */
	async function count(before: number, events: PayeeEvent[], expectedExecutions: number) {
		const all = await settledExecutions(stack!.n8n, WORKFLOW_ID, before + expectedExecutions);
		const fresh = all.slice(before);
		expect(fresh.every((e) => e.status === 'success')).toBe(true);
		const passed = fresh.flatMap(eventsPastTrigger);
		return {
			executions: fresh.length,
			passed,
			perEvent: events.map((event) => passed.filter((id) => id === event.eventId).length),
			payouts: events.map((event) => paidTo(event.beneficiaryId)),
		};
	}

	beforeAll(async () => {
		({ stack, url } = await startPayPerEvent({ id: WORKFLOW_ID, name: 'E2E trigger de-duplication', webhookId: WEBHOOK_ID, secret: SECRET, header: HEADER }));
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
	});

	let round2: PayeeEvent[] = [];

	test('5 copies of each of 3 distinct events, one after another: one execution per event', async () => {
		const events = [await newEvent(), await newEvent(), await newEvent()];
		for (const event of events) {
			for (let copy = 0; copy < 5; copy++) expect(await deliver(event)).toBe(200);
		}
		const result = await count(0, events, 3);
		lines.push(`trigger-dedupe[3 events × 5 copies, one after another]: ${result.executions} executions for ${events.length} events`);
		expect(result.executions).toBe(3);
		expect(result.perEvent).toEqual([1, 1, 1]);
		expect(result.payouts).toEqual([1, 1, 1]);
	});

	test('20 events × 5 copies sent at the same moment: one execution per event', async () => {
		const before = (await executions()).length;
		round2 = [];
		for (let i = 0; i < 20; i++) round2.push(await newEvent());
		const deliveries = round2.flatMap((event) => Array.from({ length: 5 }, () => event));
		const statuses = await Promise.all(deliveries.map(deliver));
		expect(statuses.every((status) => status === 200)).toBe(true);
		const result = await count(before, round2, 20);
		lines.push(`trigger-dedupe[20 events × 5 copies at the same moment]: ${result.executions} executions for ${round2.length} events`);
		expect(result.executions).toBe(20);
		expect(result.perEvent).toEqual(round2.map(() => 1));
		expect(result.payouts).toEqual(round2.map(() => 1));
	});

	test('after n8n restarts, the same 20 events × 5 at once: nothing goes past the trigger, nothing is paid again', async () => {
		const { n8n } = stack!;
		await n8n.stop();
		await n8n.start();
		await webhookServed(n8n, url);
		const before = (await executions()).length;

		const deliveries = round2.flatMap((event) => Array.from({ length: 5 }, () => event));
		const statuses = await Promise.all(deliveries.map(deliver));
		expect(statuses.every((status) => status === 200)).toBe(true);
		const result = await count(before, round2, 20);
		lines.push(
			`trigger-dedupe[the same 20 events × 5 at once, after a restart]: ${result.executions} executions for 0 new events ` +
				`(${result.passed.length} went past the trigger; payouts per event still ${Math.max(...result.payouts)})`,
		);
		// The in-process layer starts with an empty table: one run per event starts, and n8n's
		// database stops each at the trigger.
		expect(result.executions).toBe(20);
		expect(result.passed).toEqual([]);
		expect(result.payouts).toEqual(round2.map(() => 1));

		// And once more, now that this process has seen them: no execution at all.
		const again = (await executions()).length;
		for (const event of round2.slice(0, 5)) expect(await deliver(event)).toBe(200);
		await sleep(1500);
		const later = await count(again, round2, 0);
		lines.push(`trigger-dedupe[5 of them again, same process]: ${later.executions} executions for 0 new events`);
		expect(later.executions).toBe(0);
	});
});
