/**
 * The Wallet Payments Trigger's de-duplication in queue mode (issue #17, case 3): 200 distinct
 * events, each delivered 3 times at the same moment (correctly signed; 20 events = 60 requests at
 * a time, 5xx answers delivered again as a provider would) to the webhook processor's
 * production URL of an active workflow that pays one payee per event behind the trigger. Then the
 * webhook processor restarts (its in-process table is empty) and the same deliveries come again.
 *
 *   queue[<case>]: <executions> executions for <events> events, <n> went past the trigger, payouts …
 *
 * Layer 1 (the in-process claim in webhook()) runs in the webhook processor; layer 2 (n8n's
 * database store, in the trigger's execute()) runs on the workers, against the shared PostgreSQL.
 */
import { randomUUID } from 'crypto';

import { signBody } from '../sandbox';
import { newPayeeEvent, type ApiExecution, type PayeeEvent } from '../e2e/support/e2e';
import { payPerEventWorkflow } from '../e2e/support/workflow';
import { describeQueue, failures, paidTimes, recordResults, settledExecutions, sleep, startQueueStack, storeEntries, type QueueStack } from './support/queue';

const WORKFLOW_ID = 'WalletQueueDedup';
const WEBHOOK_ID = randomUUID();
const SECRET = 'whsec_queue_dedupe';
const HEADER = 'x-wallet-signature';
const EVENTS = 200;
const COPIES = 3;
const WAVE = 20;

describeQueue('Wallet Payments Trigger de-duplication in queue mode (webhook processor + 2 workers)', () => {
	let stack: QueueStack | undefined;
	const lines: string[] = [];
	const results: Record<string, unknown> = {};
	let events: PayeeEvent[] = [];
	let url = '';

	/**
	 * The 3 copies of each event at the same moment, in waves of WAVE events (3 × WAVE requests at
	 * once): measured, one webhook processor on this 2-core machine answers a good half of 600
	 * simultaneous requests 500/503 ("Database is not ready!"). A copy answered 5xx is delivered
	 * again after its wave, as a provider retries. Answers counted by status.
	 */
	async function deliverAll(): Promise<{ byStatus: Record<string, number>; redelivered: number; samples: Record<string, string> }> {
		const byStatus: Record<string, number> = {};
		const samples: Record<string, string> = {};
		let redelivered = 0;
		const send = async (sent: PayeeEvent) => {
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', [HEADER]: signBody(sent.body, SECRET, 'sha512') },
				body: sent.body,
			});
			const text = await response.text();
			byStatus[response.status] = (byStatus[response.status] ?? 0) + 1;
			if (response.status !== 200) samples[response.status] ??= text.slice(0, 200);
			return response.status;
		};
		for (let start = 0; start < events.length; start += WAVE) {
			let pending = events.slice(start, start + WAVE).flatMap((event) => Array.from({ length: COPIES }, () => event));
			for (let attempt = 0; attempt < 5 && pending.length > 0; attempt++) {
				if (attempt > 0) await sleep(1000);
				const statuses = await Promise.all(pending.map(send));
				pending = pending.filter((_, i) => statuses[i] >= 500);
				redelivered += pending.length;
			}
		}
		return { byStatus, redelivered, samples };
	}

	const passedEvents = (execution: ApiExecution) =>
		(execution.data?.resultData.runData['Wallet Payments Trigger']?.[0]?.data?.main[0] ?? []).map((item) => String((item.json.data as { id?: string } | undefined)?.id));

	/** Waits for the executions to settle (no new one for 3 s), then counts per event. */
	async function count(before: number, label: string) {
		const { n8n, sandbox } = stack!;
		let seen = -1;
		let all: ApiExecution[] = [];
		for (;;) {
			all = await settledExecutions(n8n, WORKFLOW_ID, before + 1);
			if (all.length === seen) break;
			seen = all.length;
			await sleep(3000);
		}
		const fresh = all.slice(before);
		const passed = fresh.flatMap(passedEvents);
		const perEvent: Record<string, number> = {};
		for (const event of events) {
			const n = String(passed.filter((id) => id === event.eventId).length);
			perEvent[n] = (perEvent[n] ?? 0) + 1;
		}
		const paid = paidTimes(sandbox, events.map((e) => e.beneficiaryId));
		const kept = storeEntries(n8n, WORKFLOW_ID);
		const result = { executions: fresh.length, wentPastTrigger: passed.length, eventsByTimesPassed: perEvent, payeesPaidTimes: paid, storeRecords: kept, failed: failures(fresh) };
		lines.push(
			`queue[${label}]: ${fresh.length} executions for ${EVENTS} events (${EVENTS * COPIES} deliveries), ${passed.length} went past the trigger, ` +
				`payouts per event {times: events} ${JSON.stringify(paid)}; records in n8n's store per node ${JSON.stringify(Object.values(kept))}`,
		);
		return result;
	}

	beforeAll(async () => {
		stack = await startQueueStack({ references: 'lenient', webhook: { secret: SECRET, header: HEADER, algorithm: 'sha512', retryDelaysMs: [] } });
		const { n8n } = stack;
		url = `${n8n.webhookBaseUrl}/webhook/${WEBHOOK_ID}/webhook`;
		await n8n.importWorkflows([payPerEventWorkflow(WORKFLOW_ID, 'Queue: trigger de-duplication', WEBHOOK_ID, HEADER)]);
		await n8n.start();
		await n8n.publishNow(WORKFLOW_ID);
		await n8n.waitForWebhook(`${WEBHOOK_ID}/webhook`);
		events = [];
		for (let n = 1; n <= EVENTS; n++) events.push(await newPayeeEvent(stack!.sandbox, n));
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		recordResults('triggerDedupe', results);
		await stack?.n8n.dispose();
		await stack?.sandbox.close();
	});

	test(`${EVENTS} events × ${COPIES} copies at the same moment to the webhook processor: one execution per event, each payee paid once`, async () => {
		const answers = await deliverAll();
		const result = { answers, ...(await count(0, `${EVENTS} events × ${COPIES} copies at once`)) };
		results.concurrent = result;
		lines.push(`  answers ${JSON.stringify(answers)}`);
		expect(answers.byStatus[200]).toBe(EVENTS * COPIES);
		expect(result.failed).toEqual([]);
		expect(result.executions).toBe(EVENTS);
		expect(result.eventsByTimesPassed).toEqual({ 1: EVENTS });
		expect(result.payeesPaidTimes).toEqual({ 1: EVENTS });
	});

	/**
	 * Layer 1 is per process, so after the restart a run starts again for every event; layer 2
	 * must stop each one at the trigger. Before records were settled (checked a second after
	 * writing, lost ones written again) 18–26 of the 200 went past it and 1–2 payees were paid
	 * twice: two workers' store calls had written over each other's records.
	 */
	test('the webhook processor restarted, the same deliveries again: a run per event starts, none goes past the trigger, nobody paid twice', async () => {
		const { n8n } = stack!;
		await n8n.stopProcess(n8n.webhookProcessor);
		await n8n.startProcess(n8n.webhookProcessor);
		await n8n.waitForWebhook(`${WEBHOOK_ID}/webhook`);
		const before = n8n.executionsInDatabase(WORKFLOW_ID).length;
		const answers = await deliverAll();
		const result = { answers, ...(await count(before, `the same ${EVENTS} × ${COPIES} again after the webhook processor restarted`)) };
		results.afterWebhookProcessorRestart = result;
		lines.push(`  answers ${JSON.stringify(answers)}`);
		expect(answers.byStatus[200]).toBe(EVENTS * COPIES);
		expect(result.failed).toEqual([]);
		expect(result.executions).toBe(EVENTS);
		expect(result.wentPastTrigger).toBe(0);
		expect(result.eventsByTimesPassed).toEqual({ 0: EVENTS });
		expect(result.payeesPaidTimes).toEqual({ 1: EVENTS });
	});
});
