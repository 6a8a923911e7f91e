/**
 * Payouts, then wait for their events (examples/payout-events-with-wait.json), when the events are
 * lost (issue #62, point 4), in a real n8n 2.x: each event is answered 200 and its run is lost (as
 * when the queue-mode worker running it dies: n8n does not run it again), so the run that paid
 * waits. The example's daily check (its schedule replaced by a production webhook, as n8n runs a
 * schedule) asks the service about every payout still open, records the final ones as their events
 * would have, leaves a pending one open, and resumes the run once none of its payouts is open:
 *
 *   settlement[<case>]: <n> asked, <f> recorded final (<statuses>), <o> still open; the run <status>
 *
 * The example as it runs when the events arrive: examples.e2e.test.ts.
 */
import { randomUUID } from 'crypto';
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { describeE2E, executionWhen, executionsOf, startStack, stopStack, waitForExecutions, type ApiExecution, type Stack } from './support/e2e';
import { loadExamples } from '../../tooling/demo/examples';
import { outputOf } from '../../tooling/demo/payrollExample';
import { N8N_MAJOR } from '../../tooling/n8n/install';
import { CREDENTIAL_ID, CREDENTIAL_NAME, type WorkflowJson } from '../../tooling/n8n/n8n';

const examples = loadExamples({ id: CREDENTIAL_ID, name: CREDENTIAL_NAME }, process.env.WALLET_E2E_EXAMPLES_DIR);
const EVENTS = examples.find((e) => e.workflow.id === 'WalletExPayEvent')!;
const MANUAL = 'When clicking ‘Execute workflow’';
const DAILY = 'Every Day at 06:00';
/** The sandbox fails payouts to this account when told to (the demo does it by itself). */
const CLOSED_ACCOUNT = '254799000005';

/** The example with its daily schedule a production webhook at `daily-check` (n8n runs both the same way). */
function withDailyWebhook(workflow: WorkflowJson): WorkflowJson {
	if (!workflow.nodes.some((n) => n.name === DAILY)) throw new Error(`The events example has no "${DAILY}" node (its daily check)`);
	const nodes = workflow.nodes.map((n) =>
		n.name === DAILY
			? { ...n, type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: randomUUID(), parameters: { httpMethod: 'POST', path: 'daily-check', responseMode: 'onReceived', options: {} } }
			: n,
	);
	return { ...workflow, nodes };
}

// The example needs n8n 2.x's Data table node (it creates its table).
(N8N_MAJOR >= 2 ? describeE2E : describe.skip)('payouts waiting for events that are lost: the daily check asks the service', () => {
	let stack: Stack | undefined;
	const lost = createServer((request, response) => request.resume().on('end', () => response.end()));
	let lostUrl = '';
	const lines: string[] = [];

	beforeAll(async () => {
		await new Promise<void>((resolve) => lost.listen(0, '127.0.0.1', resolve));
		lostUrl = `http://127.0.0.1:${(lost.address() as AddressInfo).port}/webhook`;
		stack = await startStack({ webhook: { url: lostUrl, retryDelaysMs: [] } });
		await stack.n8n.importWorkflows([withDailyWebhook(EVENTS.workflow)]);
		await stack.n8n.start();
		await stack.n8n.publishNow(EVENTS.workflow.id);
		await stack.n8n.waitForPublishedWebhook('daily-check');
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
		await new Promise((resolve) => lost.close(resolve));
	});

	const newest = (runs: ApiExecution[]) => runs.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));

	/** Runs the daily check, waits for it, and prints the case's line with the paying run's status then. */
	async function dailyCheck(label: string, runId: string, runStatuses: string[]) {
		const before = (await executionsOf(stack!.n8n, EVENTS.workflow.id)).length;
		await fetch(`${stack!.n8n.baseUrl}/webhook/daily-check`, { method: 'POST' });
		const check = newest(await waitForExecutions(stack!.n8n, EVENTS.workflow.id, before + 1, 60000));
		expect(check.status).toBe('success');
		const asked = outputOf(check, 'Ask the Service');
		const recorded = outputOf(check, 'Record Status from the Service');
		const run = await executionWhen(stack!.n8n, runId, { statuses: runStatuses, timeoutMs: 60000, everyMs: 250 });
		const summary = outputOf(run, 'Summary').map((row) => `${String(row.status)}: ${String(row.count_payoutId)}`);
		const state = run.status === 'waiting' ? 'waiting' : `${run.status === 'success' ? 'resumed' : run.status}, ${summary.join(', ')}`;
		lines.push(`settlement[${label}]: ${asked.length} asked, ${recorded.length} recorded final (${recorded.map((r) => r.status).join(', ')}), ${asked.length - recorded.length} still open; the run ${state}`);
		return { check, asked, recorded, run };
	}

	test('records what the service says, leaves a pending payout open, resumes the run once none is open', async () => {
		const { sandbox, n8n } = stack!;
		const started = await n8n.runManually(EVENTS.workflow.id, { triggerToStartFrom: { name: MANUAL } });
		const runId = String(started.body.data?.executionId);
		const waiting = await executionWhen(n8n, runId, { statuses: ['waiting'], timeoutMs: 60000, everyMs: 250 });
		const paid = outputOf(waiting, 'Paid in This Run');
		const phones = outputOf(waiting, 'One Item per Payee').map((row) => String(row.phone));
		expect(paid).toHaveLength(3);
		const closed = phones.indexOf(CLOSED_ACCOUNT);
		const [settled, pending] = paid.map((p) => String(p.id)).filter((_, i) => i !== closed);

		// The service pays one and fails one; both events are answered 200 and their runs lost.
		const events = [await sandbox.controls.settlePayout(settled), await sandbox.controls.failPayout(String(paid[closed].id), 'Mobile money account closed')];
		expect(events.map((e) => e.deliveries.map((d) => [d.url, d.status]))).toEqual([[[lostUrl, 200]], [[lostUrl, 200]]]);
		expect((await executionsOf(n8n, EVENTS.workflow.id)).map((e) => e.mode)).toEqual(['manual']);

		const first = await dailyCheck('event lost, one still pending', runId, ['waiting']);
		expect(first.asked.map((t) => [t.id, t.status])).toEqual(paid.map((p, i) => [p.id, i === closed ? 'failed' : p.id === settled ? 'success' : 'initiated']));
		expect(first.recorded.map((r) => [r.payoutId, r.status, r.reason])).toEqual(
			paid.filter((p) => p.id !== pending).map((p) => [p.id, p.id === settled ? 'success' : 'failed', p.id === settled ? '' : 'Mobile money account closed']),
		);
		expect(first.run.status).toBe('waiting');
		expect(first.check.data?.resultData.runData['Resume That Run']).toBeUndefined();

		// The last one is paid, its event lost too: the next check records it and resumes the run.
		await sandbox.controls.settlePayout(pending);
		const second = await dailyCheck('event lost, daily check', runId, ['success', 'error', 'crashed', 'canceled']);
		expect(second.recorded.map((r) => [r.payoutId, r.status, r.runId])).toEqual([[pending, 'success', runId]]);
		expect(outputOf(second.check, 'Resume That Run').map((answer) => answer.error)).toEqual([undefined]);
		expect(second.run.status).toBe('success');
		expect(outputOf(second.run, 'Wait for Payout Events')[0].body).toEqual({ runId, from: 'daily check' });
		const summary = outputOf(second.run, 'Summary').map((row) => [row.status, row.count_payoutId]);
		expect(summary).toEqual(expect.arrayContaining([['success', 2], ['failed', 1]]));
		expect(summary).toHaveLength(2);
		expect(outputOf(second.run, 'Needs Attention').map((row) => [row.payoutId, row.status, row.reason])).toEqual([[paid[closed].id, 'failed', 'Mobile money account closed']]);
		// No payout is open any more, and nothing ran from an event.
		expect((await executionsOf(n8n, EVENTS.workflow.id)).filter((e) => e.mode === 'webhook' && e.data?.resultData.runData['Payout Settled or Failed'])).toEqual([]);
	});
});
