/**
 * A worker killed (SIGKILL, by its PID) in the middle of a 100-payee run (the service answers in
 * 100 ms), with the workflow setting "Save execution progress" off and on (issue #17, case 4),
 * then Retry, the recovery the README documents ("Running in queue mode" → "A worker died
 * mid-run"). Issue #24, point 3: the Retry alone pays every payee exactly once (counted in the
 * sandbox, which here accepts reused references).
 *
 * The kill lands at two moments: as the 30th payout reaches the service (the answers of the
 * payouts in flight never come back), and 1.5 s later, inside the claim wait of the next window
 * (its keys recorded, nothing of it sent). The Retry's output shows which payees the killed run
 * had paid (`accepted`, or `unknown` for a payout sent whose answer was not recorded), and only
 * those: the rows the dead run claimed and never sent are sent by the Retry, after the takeover
 * wait (nodes/WalletPayments/actions/exactlyOnce.ts, takeOver).
 *
 *   queue[worker killed, save progress <off|on>]: …
 */
import { DEFAULT_ITEMS_PER_BATCH } from '../../nodes/WalletPayments/helpers/fields';
import { DEFAULT_CLAIM_WAIT_MS, takeoverWaitMs } from '../../nodes/shared/ledger';
import type { ApiExecution } from '../e2e/support/e2e';
import type { WorkflowJson } from '../e2e/support/n8n';
import { chain, walletNode } from '../e2e/support/workflow';
import { describeQueue, failures, paidTimes, payeeMaker, payeeRows, payoutsPerBeneficiary, postJson, recordResults, settledExecutions, sleep, startQueueStack, webhookNode, type Payee, type QueueStack } from './support/queue';

const PAYEES = 100;
const KILL_AFTER = 30;

function workflow(id: string, webhookPath: string, saveExecutionProgress: boolean): WorkflowJson {
	const pay = walletNode('Pay', 'payout', 'initiate', {
		sourceWalletCurrency: 'USD',
		amount: '={{ $json.amount }}',
		customerEmail: '={{ $json.email }}',
		description: '={{ $json.invoiceId }}',
		beneficiaryMode: 'id',
		beneficiaryId: { __rl: true, mode: 'id', value: '={{ $json.beneficiaryId }}' },
		duplicateProtection: { idempotencyKey: '={{ $json.invoiceId }}', allowResend: '={{ $json.resend === true }}' },
	});
	const wf = chain(id, `Queue: payout run (save progress ${saveExecutionProgress ? 'on' : 'off'})`, [webhookNode(webhookPath), payeeRows(), pay]);
	wf.settings = { ...wf.settings, saveExecutionProgress, saveManualExecutions: true };
	return wf;
}

/** `killAfterMs`: after the 30th payout reached the service, how long until the kill. */
const SCENARIOS = [
	{ saveProgress: false, killAfterMs: 1500, id: 'WalletQueueCrsh0', path: 'queue-crash-off' },
	{ saveProgress: true, killAfterMs: 0, id: 'WalletQueueCrsh1', path: 'queue-crash-on' },
];

describeQueue('a worker killed in the middle of a payout run, then the documented recovery', () => {
	let stack: QueueStack | undefined;
	let newPayees: (count: number) => Promise<Payee[]>;
	const lines: string[] = [];
	const results: Record<string, unknown> = {};


	const payOutput = (execution: ApiExecution) => (execution.data?.resultData.runData.Pay?.at(-1)?.data?.main[0] ?? []).map((item) => item.json);

	beforeAll(async () => {
		// 100 ms per API answer, as a real service's round trip: a 100-payee run takes seconds.
		stack = await startQueueStack({ references: 'lenient', latency: { fixedMs: 100, jitterMs: 0 } });
		newPayees = payeeMaker(stack.sandbox);
		const { n8n } = stack;
		await n8n.importWorkflows(SCENARIOS.map((s) => workflow(s.id, s.path, s.saveProgress)));
		await n8n.start();
		for (const s of SCENARIOS) {
			await n8n.publishNow(s.id);
			await n8n.waitForWebhook(s.path);
		}
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		recordResults('workerKilled', results);
		await stack?.n8n.dispose();
		await stack?.sandbox.close();
	});

	test.each(SCENARIOS)('save execution progress $saveProgress, killed $killAfterMs ms after the 30th payout: Retry pays every payee exactly once', async ({ saveProgress, killAfterMs, id, path }) => {
		const { n8n, sandbox } = stack!;
		const payees = await newPayees(PAYEES);
		const ids = payees.map((p) => p.beneficiaryId);
		const paidCount = () => {
			const counts = payoutsPerBeneficiary(sandbox);
			return ids.filter((b) => (counts.get(b) ?? 0) > 0).length;
		};
		const url = `${n8n.webhookBaseUrl}/webhook/${path}`;

		// The run, and the worker that runs it killed once 30 payees are paid.
		expect(await postJson(url, { payees })).toBe(200);
		let executionId: string | undefined;
		const deadline = Date.now() + 60000;
		while (!executionId && Date.now() < deadline) {
			executionId = n8n.executionsInDatabase(id)[0]?.id;
			if (!executionId) await sleep(100);
		}
		expect(executionId).toBeDefined();
		const workerName = await n8n.workerOf(executionId!, 30000);
		const worker = n8n.workers.find((w) => w.name === workerName)!;
		while (paidCount() < KILL_AFTER) {
			if (Date.now() > deadline) throw new Error(`Only ${paidCount()} paid after 60 s`);
			await sleep(20);
		}
		if (killAfterMs > 0) await sleep(killAfterMs);
		const killedPid = await n8n.killProcess(worker);
		await sleep(1000); // a request in flight reaches the service anyway
		const counts = payoutsPerBeneficiary(sandbox);
		const paidByKilledRun = payees.filter((p) => (counts.get(p.beneficiaryId) ?? 0) > 0).map((p) => p.invoiceId);
		// The orchestrator restarts the worker (a container restart policy would).
		await n8n.startProcess(worker);
		const [crashed] = await settledExecutions(n8n, id, 1, 180000);
		const outcome: Record<string, unknown> = {
			killedWorker: workerName,
			killedPid,
			paidWhenKilled: paidByKilledRun.length,
			executionStatus: crashed.status,
			nodesWithData: Object.keys(crashed.data?.resultData.runData ?? {}),
		};

		// Retry, as the executions list offers it. Rows the dead run claimed and never sent are sent
		// after the takeover wait (22 claim waits), so the Retry takes that much longer.
		const retryStarted = Date.now();
		const retry = await n8n.rest<{ data?: { id?: string; status?: string }; message?: string }>('POST', `/executions/${crashed.id}/retry`, { loadWorkflow: false });
		expect(`${retry.status} ${retry.body.data?.id === undefined ? JSON.stringify(retry.body).slice(0, 200) : 'retried'}`).toBe('200 retried');
		const retried = (await n8n.finishedExecution(retry.body.data!.id!, 180000 + takeoverWaitMs(DEFAULT_CLAIM_WAIT_MS))) as unknown as ApiExecution;
		await n8n.workerOf(retried.id);
		const out = payOutput(retried);
		outcome.retry = {
			status: retried.status,
			mode: retried.mode,
			// Longer than the takeover wait when the dead run left rows claimed and never sent.
			seconds: Math.round((Date.now() - retryStarted) / 100) / 10,
			sent: out.filter((j) => !j.alreadySubmitted).length,
			alreadySubmittedAccepted: out.filter((j) => j.alreadySubmitted && j.outcome === 'accepted').length,
			alreadySubmittedUnknown: out.filter((j) => j.alreadySubmitted && j.outcome === 'unknown').length,
			error: failures([retried])[0]?.[2],
		};

		// What the user sees: every payee the killed run paid is marked already submitted;
		// "accepted" only for payees it did pay; the others marked are "unknown" (sent, their
		// answer not recorded when the worker died: at most two windows of Items per Batch), and
		// every one of them was paid by the killed run.
		const marked = out.filter((j) => j.alreadySubmitted);
		const markedPaid = marked.map((j) => String(j.idempotencyKey)).sort();
		const paidByKilled = new Set(paidByKilledRun);
		const markedNotPaid = marked.filter((j) => !paidByKilled.has(String(j.idempotencyKey)));
		const final = paidTimes(sandbox, ids);
		outcome.finalPaid = final;
		outcome.markedAlreadySubmitted = markedPaid.length;
		outcome.markedButNotPaid = markedNotPaid.map((j) => j.outcome);
		results[`saveProgress${saveProgress ? 'On' : 'Off'}`] = outcome;
		lines.push(`queue[worker killed, save progress ${saveProgress ? 'on' : 'off'}, ${killAfterMs} ms after the 30th payout]: ${JSON.stringify(outcome)}`);
		expect(failures([retried])).toEqual([]);
		expect(paidByKilledRun.filter((key) => !markedPaid.includes(key))).toEqual([]);
		expect(marked.filter((j) => j.outcome === 'accepted' && !paidByKilled.has(String(j.idempotencyKey)))).toEqual([]);
		expect(markedNotPaid).toEqual([]);
		expect(marked.filter((j) => j.outcome === 'unknown').length).toBeLessThanOrEqual(2 * DEFAULT_ITEMS_PER_BATCH);
		expect(final).toEqual({ 1: PAYEES });
	});
});
