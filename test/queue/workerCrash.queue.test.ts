/**
 * A worker killed (SIGKILL, by its PID) in the middle of a 100-payee run (the service answers in
 * 100 ms), with the workflow setting "Save execution progress" off and on (issue #17, case 4),
 * then the recovery the README documents ("Running in queue mode" → "A worker died mid-run"):
 *
 *  1. Retry the execution from the executions list (where n8n allows it);
 *  2. otherwise, or if payees are still unpaid, run the same rows again: the Idempotency Key is the
 *     row's invoice id, so the exactly-once guard skips every payee already paid and pays the rest;
 *     rows reported `outcome: "unknown"` are checked at the service and, only if not carried out,
 *     sent once more with Allow Resend.
 *
 * Every payee must end paid exactly once (counted in the sandbox, which here accepts reused
 * references), and the first recovery run's output must show which payees the killed run had paid
 * (`accepted`), and as `unknown` at most the payees whose keys were recorded and not yet answered
 * at the kill: one claim window (Items per Batch, 10 by default; more only when n8n's store calls
 * are slow, nodes/WalletPayments/actions/claimAhead.ts).
 *
 *   queue[worker killed, save progress <off|on>]: …
 */
import { DEFAULT_ITEMS_PER_BATCH } from '../../nodes/WalletPayments/helpers/fields';
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

const SCENARIOS = [
	{ saveProgress: false, id: 'WalletQueueCrsh0', path: 'queue-crash-off' },
	{ saveProgress: true, id: 'WalletQueueCrsh1', path: 'queue-crash-on' },
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

	test.each(SCENARIOS)('save execution progress $saveProgress: after the recovery every payee is paid exactly once', async ({ saveProgress, id, path }) => {
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

		// 1. Retry, as the executions list offers it.
		const retry = await n8n.rest<{ data?: { id?: string; status?: string }; message?: string }>('POST', `/executions/${crashed.id}/retry`, { loadWorkflow: false });
		let retried: ApiExecution | undefined;
		if (retry.status === 200 && retry.body.data?.id) {
			retried = (await n8n.finishedExecution(retry.body.data.id)) as unknown as ApiExecution;
			await n8n.workerOf(retried.id);
			outcome.retry = { status: retried.status, sent: payOutput(retried).filter((j) => !j.alreadySubmitted).length, alreadySubmitted: payOutput(retried).filter((j) => j.alreadySubmitted).length, error: failures([retried])[0]?.[2] };
		} else {
			outcome.retry = { refused: `${retry.status} ${JSON.stringify(retry.body).slice(0, 200)}` };
		}
		const afterRetry = paidTimes(sandbox, ids);
		outcome.paidAfterRetry = afterRetry;

		// 2. The same rows again (Idempotency Key = invoice id): paid payees are skipped.
		let rerun: ApiExecution | undefined;
		if (JSON.stringify(afterRetry) !== JSON.stringify({ 1: PAYEES })) {
			const before = n8n.executionsInDatabase(id).length;
			expect(await postJson(url, { payees })).toBe(200);
			const all = await settledExecutions(n8n, id, before + 1, 180000);
			rerun = all[all.length - 1];
			expect(failures([rerun])).toEqual([]);
			const out = payOutput(rerun);
			const unknown = out.filter((j) => j.alreadySubmitted && j.outcome === 'unknown');
			outcome.rerun = {
				alreadySubmittedAccepted: out.filter((j) => j.alreadySubmitted && j.outcome === 'accepted').length,
				alreadySubmittedUnknown: unknown.length,
				sent: out.filter((j) => !j.alreadySubmitted).length,
			};
			// Rows reported "unknown": checked at the service; only those not carried out are resent.
			const now = payoutsPerBeneficiary(sandbox);
			const byKey = new Map(payees.map((p) => [p.invoiceId, p]));
			const notCarriedOut = unknown.map((j) => byKey.get(String(j.idempotencyKey))!).filter((p) => (now.get(p.beneficiaryId) ?? 0) === 0);
			outcome.resentAfterCheck = notCarriedOut.length;
			if (notCarriedOut.length > 0) {
				const before2 = n8n.executionsInDatabase(id).length;
				expect(await postJson(url, { payees: notCarriedOut.map((p) => ({ ...p, resend: true })) })).toBe(200);
				const again = await settledExecutions(n8n, id, before2 + 1, 180000);
				expect(failures([again[again.length - 1]])).toEqual([]);
			}
		}

		// What the user sees in the first recovery run (the Retry, else the re-run): every payee the
		// killed run paid is marked already submitted; "accepted" only for payees it did pay; the
		// others marked are "unknown": recorded, not answered when the worker died (at most one
		// claim window of the default 10 payees; twice that allows for a slow store call).
		const shown = (retried ?? rerun)!;
		const marked = payOutput(shown).filter((j) => j.alreadySubmitted);
		const markedPaid = marked.map((j) => String(j.idempotencyKey)).sort();
		const paidByKilled = new Set(paidByKilledRun);
		const markedNotPaid = marked.filter((j) => !paidByKilled.has(String(j.idempotencyKey)));
		const final = paidTimes(sandbox, ids);
		outcome.finalPaid = final;
		outcome.markedAlreadySubmitted = markedPaid.length;
		outcome.markedButNotPaid = markedNotPaid.map((j) => j.outcome);
		results[`saveProgress${saveProgress ? 'On' : 'Off'}`] = outcome;
		lines.push(`queue[worker killed, save progress ${saveProgress ? 'on' : 'off'}]: ${JSON.stringify(outcome)}`);
		expect(paidByKilledRun.filter((key) => !markedPaid.includes(key))).toEqual([]);
		expect(marked.filter((j) => j.outcome === 'accepted' && !paidByKilled.has(String(j.idempotencyKey)))).toEqual([]);
		expect(markedNotPaid.filter((j) => j.outcome !== 'unknown')).toEqual([]);
		expect(markedNotPaid.length).toBeLessThanOrEqual(2 * DEFAULT_ITEMS_PER_BATCH);
		expect(final).toEqual({ 1: PAYEES });
	});
});
