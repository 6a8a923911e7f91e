/**
 * A delivery whose run n8n cannot start, then delivered again (issue #32): exactly one run per
 * event, on every n8n line. n8n 1.x and 2.0–2.7 answer a webhook 200 before they start its run;
 * the trigger makes n8n answer only once the run is seen to start (its webhook is `responseNode`,
 * and its step answers: nodes/WalletPaymentsTrigger/startedAnswer.ts), so a run that cannot start
 * is answered 500 and the provider delivers it again. The fault: a SQLite trigger refuses every
 * new execution row while it is set. (n8n 2.x's own way of failing a run it answered 200:
 * triggerAnswer.e2e.test.ts.)
 *
 *   trigger-start[n8n <version>, <case>]: ...
 */
import { randomUUID } from 'crypto';

import {
	describeE2E,
	eventsPastTrigger,
	executionsOf,
	newPayeeEvent,
	settledExecutions,
	deliverSigned,
	startPayPerEvent,
	stopStack,
	tally,
	type PayeeEvent,
	type Stack,
} from './support/e2e';

const WORKFLOW_ID = 'WalletE2eStart01';
const WEBHOOK_ID = randomUUID();
const SECRET = 'whsec_trigger_start';
const HEADER = 'x-wallet-signature';
const EVENTS = 10;

const FAULT_ON = `
CREATE TABLE IF NOT EXISTS wallet_fault (id INTEGER);
CREATE TRIGGER IF NOT EXISTS wallet_fault_no_start BEFORE INSERT ON execution_entity
WHEN EXISTS (SELECT 1 FROM wallet_fault)
BEGIN SELECT RAISE(ABORT, 'wallet e2e fault: no run starts'); END;
INSERT INTO wallet_fault VALUES (1);`;
const FAULT_OFF = 'DELETE FROM wallet_fault;';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeE2E(
	'Wallet Payments Trigger: a delivery whose run cannot start is delivered again and runs once',
	() => {
		let stack: Stack | undefined;
		let url = '';
		const lines: string[] = [];

		const deliver = async (sent: PayeeEvent) => await deliverSigned(url, sent.body, SECRET, HEADER);

		const paidTo = (beneficiaryId: string) =>
			stack!.sandbox.state.transactions.filter(
				(tx) => tx.kind === 'payout' && tx.beneficiaryId === beneficiaryId,
			).length;

		beforeAll(async () => {
			({ stack, url } = await startPayPerEvent({
				id: WORKFLOW_ID,
				name: 'E2E trigger: run cannot start',
				webhookId: WEBHOOK_ID,
				secret: SECRET,
				header: HEADER,
			}));
		});

		afterAll(async () => {
			if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
			await stopStack(stack);
		});

		test(`${EVENTS} events whose runs cannot start are answered 5xx; delivered again, each runs once and is paid once`, async () => {
			const { n8n } = stack!;
			const events: PayeeEvent[] = [];
			for (let i = 1; i <= EVENTS; i++) events.push(await newPayeeEvent(stack!.sandbox, i));
			const label = `n8n ${n8n.n8nVersion}`;

			n8n.sqlite(FAULT_ON);
			const first = await Promise.all(events.map(deliver));
			n8n.sqlite(FAULT_OFF);
			const started = await executionsOf(n8n, WORKFLOW_ID);
			lines.push(
				`trigger-start[${label}, ${EVENTS} events, no run can start]: answers ${JSON.stringify(tally(first))}, ${started.length} runs`,
			);
			expect(started).toEqual([]);
			// Anything but 2xx makes the provider deliver again; a 2xx here would lose the event.
			expect(first.filter((status) => status >= 200 && status < 300)).toEqual([]);

			const second = await Promise.all(events.map(deliver));
			const runs = await settledExecutions(n8n, WORKFLOW_ID, EVENTS);
			const passed = runs.flatMap(eventsPastTrigger);
			const perEvent = events.map((event) => passed.filter((id) => id === event.eventId).length);
			const payouts = events.map((event) => paidTo(event.beneficiaryId));
			lines.push(
				`trigger-start[${label}, the same ${EVENTS} delivered again]: answers ${JSON.stringify(tally(second))}, ` +
					`${runs.length} runs, past the trigger per event ${JSON.stringify(tally(perEvent))}, payouts per event ${JSON.stringify(tally(payouts))}`,
			);
			expect(second).toEqual(events.map(() => 200));
			expect(runs.every((run) => run.status === 'success')).toBe(true);
			expect(perEvent).toEqual(events.map(() => 1));
			expect(payouts).toEqual(events.map(() => 1));

			// Once more: copies of handled events start nothing.
			const third = await Promise.all(events.map(deliver));
			await sleep(1500);
			const after = await settledExecutions(n8n, WORKFLOW_ID, EVENTS);
			lines.push(
				`trigger-start[${label}, the same ${EVENTS} a third time]: answers ${JSON.stringify(tally(third))}, ${after.length - runs.length} new runs`,
			);
			expect(third).toEqual(events.map(() => 200));
			expect(after).toHaveLength(runs.length);
		});
	},
);
