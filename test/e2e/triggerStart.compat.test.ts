/**
 * A delivery whose run n8n cannot start, then delivered again (issue #32): exactly one run per
 * event, on every n8n line. n8n 1.x and 2.0–2.7 answer a webhook 200 before they start its run;
 * the trigger makes n8n answer only once the run is seen to start (its webhook is `responseNode`
 * there, and its step answers: nodes/WalletPaymentsTrigger/startedAnswer.ts), so a run that
 * cannot start is answered 500 and the provider delivers it again. n8n 2.8 and later do this
 * themselves. The fault: a SQLite trigger refuses every new execution row while it is set.
 *
 *   trigger-start[n8n <version>, <case>]: ...
 */
import { randomUUID } from 'crypto';

import { signBody } from '../sandbox';
import { describeE2E, executionsOf, newPayeeEvent, startStack, stopStack, type ApiExecution, type PayeeEvent, type Stack } from './support/e2e';
import { payPerEventWorkflow } from './support/workflow';

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

describeE2E('Wallet Payments Trigger: a delivery whose run cannot start is delivered again and runs once', () => {
	let stack: Stack | undefined;
	let url = '';
	const lines: string[] = [];

	async function deliver(sent: PayeeEvent): Promise<number> {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', [HEADER]: signBody(sent.body, SECRET, 'sha512') },
			body: sent.body,
			signal: AbortSignal.timeout(60000),
		});
		await response.text();
		return response.status;
	}

	const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }), {});
	const passedEvents = (execution: ApiExecution) =>
		(execution.data?.resultData.runData['Wallet Payments Trigger']?.[0]?.data?.main[0] ?? []).map(
			(item) => (item.json.data as { id: string }).id,
		);
	const paidTo = (beneficiaryId: string) =>
		stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout' && tx.beneficiaryId === beneficiaryId).length;

	/** The workflow's executions once none runs and their number stayed the same for 1.5 s. */
	async function settled(atLeast: number, timeoutMs = 60000): Promise<ApiExecution[]> {
		const deadline = Date.now() + timeoutMs;
		let last: ApiExecution[] = [];
		let stableSince = Date.now();
		while (Date.now() < deadline) {
			const now = await executionsOf(stack!.n8n, WORKFLOW_ID);
			const finished = now.every((e) => e.status !== 'running' && e.status !== 'new');
			if (!finished || now.length !== last.length) stableSince = Date.now();
			else if (now.length >= atLeast && Date.now() - stableSince > 1500) return now;
			last = now;
			await sleep(300);
		}
		throw new Error(`Executions did not settle: ${JSON.stringify(last.map((e) => [e.id, e.status]))}`);
	}

	beforeAll(async () => {
		stack = await startStack({ webhook: { secret: SECRET, header: HEADER, algorithm: 'sha512', retryDelaysMs: [] } });
		const { n8n } = stack;
		url = `${n8n.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
		await n8n.importWorkflows([payPerEventWorkflow(WORKFLOW_ID, 'E2E trigger: run cannot start', WEBHOOK_ID, HEADER)]);
		await n8n.publishWorkflow(WORKFLOW_ID);
		await n8n.start();
		const deadline = Date.now() + 20000;
		while ((await fetch(url, { method: 'POST', body: '{}' })).status === 404) {
			if (Date.now() > deadline) throw new Error(`The production webhook stayed 404:\n${n8n.log}`);
			await sleep(250);
		}
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
		lines.push(`trigger-start[${label}, ${EVENTS} events, no run can start]: answers ${JSON.stringify(tally(first))}, ${started.length} runs`);
		expect(started).toEqual([]);
		// Anything but 2xx makes the provider deliver again; a 2xx here would lose the event.
		expect(first.filter((status) => status >= 200 && status < 300)).toEqual([]);

		const second = await Promise.all(events.map(deliver));
		const runs = await settled(EVENTS);
		const passed = runs.flatMap(passedEvents);
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
		const after = await settled(EVENTS);
		lines.push(`trigger-start[${label}, the same ${EVENTS} a third time]: answers ${JSON.stringify(tally(third))}, ${after.length - runs.length} new runs`);
		expect(third).toEqual(events.map(() => 200));
		expect(after).toHaveLength(runs.length);
	});
});
