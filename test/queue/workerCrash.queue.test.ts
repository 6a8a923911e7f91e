/**
 * A worker killed (SIGKILL, by its PID) in the middle of a 100-payee run (the service answers in
 * 100 ms), with the workflow setting "Save execution progress" off and on (issue #17, case 4),
 * then the recovery docs/duplicate-protection.md gives ("A worker died mid-run: recovery"):
 * 1. Retry; or, where n8n offers none (the worker back only after n8n's stalled-job check ended
 *    the run `error` with no run data, issue #55), the same rows posted again. Its output shows
 *    which payees the killed run had paid (`accepted`, or `unknown` for a row whose request may
 *    have left and whose answer was not recorded), and only those; the rows the dead run claimed
 *    and never marked sending are sent, after the takeover wait (nodes/shared/ledger/takeover.ts).
 * 2. Each `unknown` row checked in the service (the sandbox's record, as a user reads the
 *    dashboard); those not carried out run again with Allow Resend.
 * Then every payee is paid exactly once (counted in the sandbox, which here accepts reused
 * references).
 *
 * The kill lands at two moments: inside the run's first claim wait (every row claimed, none
 * sent), and as the payout of 30% of the rows reaches the service (the answers of the payouts in
 * flight never come back; a window marked sending in that moment may not have left). The three
 * recoveries run at the same time, so the suite waits one takeover wait, not three.
 * WALLET_CRASH_PAYEES=2000 runs it at the size users run.
 *
 *   queue[worker killed, save progress <off|on>, killed <moment>,<config>]: …
 */
import { DEFAULT_ITEMS_PER_BATCH } from '../../nodes/WalletPayments/input/batching';
import { DEFAULT_CLAIM_WAIT_MS, takeoverWaitMs } from '../../nodes/shared/ledger';
import { RUN_SHARE, SENDING_WINDOW } from '../../nodes/shared/ledger/windows';
import { stopStack, type ApiExecution } from '../e2e/support/e2e';
import type { WorkflowJson } from '../../tooling/n8n/n8n';
import { chain } from '../../tooling/n8n/workflow';
import { describeQueue, failures, paidTimes, payeeMaker, payeePayout, payeeRows, payoutsPerBeneficiary, recordResults, resendNotCarriedOut, settledExecutions, sleep, startQueueStack, webhookNode, type Payee, type QueueStack } from './support/queue';
import { postJson } from '../../tooling/n8n/http';
import { queueLabel } from './support/config';

/** 100 in the suite; WALLET_CRASH_PAYEES=2000 for the size users run (about 10 minutes more). */
const PAYEES = Number(process.env.WALLET_CRASH_PAYEES ?? 100);
const KILL_AFTER = Math.round(PAYEES * 0.3);
const FULL_SIZE = process.env.WALLET_CRASH_PAYEES !== undefined;

function workflow(id: string, webhookPath: string, saveExecutionProgress: boolean): WorkflowJson {
	const pay = payeePayout({ allowResend: '={{ $json.resend === true }}' });
	const wf = chain(id, `Queue: payout run (save progress ${saveExecutionProgress ? 'on' : 'off'})`, [webhookNode(webhookPath), payeeRows(), pay]);
	wf.settings = { ...wf.settings, saveExecutionProgress, saveManualExecutions: true };
	return wf;
}

/**
 * Where the kill lands: `claim`, 2 s after the worker took the run (inside the run's first claim
 * wait: every row claimed, none sent); `payout`, as the 30th payout reaches the service (the
 * answers of the payouts in flight never come back; the rows claimed ahead are not sent).
 */
const SCENARIOS = [
	{ saveProgress: false, kill: 'claim' as const, recovery: 'retry' as const, restartLate: false, id: 'WalletQueueCrsh0', path: 'queue-crash-off' },
	{ saveProgress: true, kill: 'payout' as const, recovery: 'retry' as const, restartLate: false, id: 'WalletQueueCrsh1', path: 'queue-crash-on' },
	// Where n8n offers no Retry (a run it ended with no run data): the same rows run again.
	// At the size users run, the worker comes back only after n8n ended the run (the queue's
	// stalled-job check ends it `error`, no run data: no Retry); in the suite's default run it comes
	// back at once (about 150 s of CI's 45 minutes saved), and the same rows are run again all the same.
	{ saveProgress: false, kill: 'payout' as const, recovery: 'new run' as const, restartLate: FULL_SIZE, id: 'WalletQueueCrsh2', path: 'queue-crash-new' },
];
type Scenario = (typeof SCENARIOS)[number];
const KILL_IN_CLAIM_MS = 2000;

/** A run whose worker was killed, as the Retry finds it. */
interface Crashed {
	scenario: Scenario;
	payees: Payee[];
	paidByKilledRun: string[];
	execution: ApiExecution;
	outcome: Record<string, unknown>;
}

const label = (s: Scenario) => `save progress ${s.saveProgress ? 'on' : 'off'}, killed ${s.kill === 'claim' ? `${KILL_IN_CLAIM_MS} ms into the run's claim` : `as the ${KILL_AFTER}th payout arrived`}${s.restartLate ? ', worker back late (n8n ended the run error, no run data)' : ''}, recovered by ${s.recovery === 'retry' ? 'a Retry' : 'a new run of the same rows'}`;

describeQueue('a worker killed in the middle of a payout run, then the documented recovery', () => {
	let stack: QueueStack | undefined;
	let newPayees: (count: number) => Promise<Payee[]>;
	const lines: string[] = [];
	const results: Record<string, unknown> = {};
	const crashed: Crashed[] = [];

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
		await stopStack(stack);
	});

	test.each(SCENARIOS)('save execution progress $saveProgress, killed at the $kill: the run crashes', async (scenario) => {
		const { n8n, sandbox } = stack!;
		const payees = await newPayees(PAYEES);
		const ids = payees.map((p) => p.beneficiaryId);
		const paidCount = () => {
			const counts = payoutsPerBeneficiary(sandbox);
			return ids.filter((b) => (counts.get(b) ?? 0) > 0).length;
		};
		const url = `${n8n.webhookBaseUrl}/webhook/${scenario.path}`;

		// The run, and the worker that runs it killed at the scenario's moment.
		expect(await postJson(url, { payees })).toBe(200);
		let executionId: string | undefined;
		const deadline = Date.now() + 60000 + PAYEES * 50;
		while (!executionId && Date.now() < deadline) {
			executionId = n8n.executionsInDatabase(scenario.id)[0]?.id;
			if (!executionId) await sleep(100);
		}
		expect(executionId).toBeDefined();
		const workerName = await n8n.workerOf(executionId!, 30000);
		const worker = n8n.workers.find((w) => w.name === workerName)!;
		if (scenario.kill === 'claim') await sleep(KILL_IN_CLAIM_MS);
		else
			while (paidCount() < KILL_AFTER) {
				if (Date.now() > deadline) throw new Error(`Only ${paidCount()} paid by the deadline`);
				await sleep(20);
			}
		const killedPid = await n8n.killProcess(worker);
		await sleep(1000); // a request in flight reaches the service anyway
		const counts = payoutsPerBeneficiary(sandbox);
		const paidByKilledRun = payees.filter((p) => (counts.get(p.beneficiaryId) ?? 0) > 0).map((p) => p.invoiceId);
		// The orchestrator restarts the worker (a container restart policy would), at once or late.
		const late = scenario.restartLate;
		if (!late) await n8n.startProcess(worker);
		const [execution] = await settledExecutions(n8n, scenario.id, 1, 180000);
		if (late) await n8n.startProcess(worker);
		const outcome = {
			killedWorker: workerName,
			killedPid,
			paidWhenKilled: paidByKilledRun.length,
			executionStatus: execution.status,
			nodesWithData: Object.keys(execution.data?.resultData.runData ?? {}),
		};
		crashed.push({ scenario, payees, paidByKilledRun, execution, outcome });
		// Restarted at once, the worker's return ends the run `crashed`, with its run data; not back in
		// time, the queue's stalled-job check ends it `error` with none, which n8n cannot retry.
		if (scenario.restartLate) {
			expect(execution.status).toBe('error');
			expect(outcome.nodesWithData).toEqual([]);
		} else expect(execution.status).toBe('crashed');
		// Inside the claim wait (two claim waits before the first payout leaves) nothing is sent.
		if (scenario.kill === 'claim') expect(paidByKilledRun).toEqual([]);
	});

	test('each crashed run recovered (a Retry, or a new run of the same rows where n8n offers no Retry; all at once), then the rows reported unknown checked in the service and, where not carried out, run again with Allow Resend: every payee paid exactly once', async () => {
		const { n8n, sandbox } = stack!;
		expect(crashed.map((c) => c.scenario.id)).toEqual(SCENARIOS.map((s) => s.id));
		const timeoutMs = 180000 + takeoverWaitMs(DEFAULT_CLAIM_WAIT_MS);

		// Retry, as the executions list offers it, or the same rows posted again, for every crashed run
		// at the same moment: rows a dead run claimed and never sent are sent after the takeover wait
		// (44 claim waits).
		const retryStarted = Date.now();
		const sameRowsAgain = async (scenario: Scenario, payees: Payee[]) => {
			const before = n8n.executionsInDatabase(scenario.id).length;
			expect(await postJson(`${n8n.webhookBaseUrl}/webhook/${scenario.path}`, { payees })).toBe(200);
			return (await settledExecutions(n8n, scenario.id, before + 1, timeoutMs)).at(-1)!;
		};
		const retried = await Promise.all(
			crashed.map(async ({ scenario, payees, execution }) => {
				let done: ApiExecution;
				let retryRanNoNode = false;
				if (scenario.recovery === 'retry') {
					const retry = await n8n.rest<{ data?: { id?: string; status?: string }; message?: string }>('POST', `/executions/${execution.id}/retry`, { loadWorkflow: false });
					expect(`${retry.status} ${retry.body.data?.id === undefined ? JSON.stringify(retry.body).slice(0, 200) : 'retried'}`).toBe('200 retried');
					done = (await n8n.finishedExecution(retry.body.data!.id!, timeoutMs)) as unknown as ApiExecution;
					// As the docs say: a Retry that ends at once with n8n's error and runs no node (n8n kept
					// the stalled-job error; seen at 2,000 payees) is followed by the same rows run again.
					retryRanNoNode = done.status !== 'success' && done.data?.resultData.runData.Pay === undefined;
					if (retryRanNoNode) done = await sameRowsAgain(scenario, payees);
				} else done = await sameRowsAgain(scenario, payees);
				await n8n.workerOf(done.id);
				return { done, retryRanNoNode, seconds: Math.round((Date.now() - retryStarted) / 100) / 10 };
			}),
		);

		for (const [index, { scenario, payees, paidByKilledRun, outcome }] of crashed.entries()) {
			const { done, retryRanNoNode, seconds } = retried[index];
			const ids = payees.map((p) => p.beneficiaryId);
			const out = payOutput(done);
			const marked = out.filter((j) => j.alreadySubmitted);
			const unknown = marked.filter((j) => j.outcome === 'unknown');
			outcome.recovery = {
				way: retryRanNoNode ? 'retry ran no node, then a new run' : scenario.recovery,
				status: done.status,
				mode: done.mode,
				// Longer than the takeover wait when the dead run left rows claimed and never sent.
				seconds,
				sent: out.filter((j) => !j.alreadySubmitted).length,
				alreadySubmittedAccepted: marked.filter((j) => j.outcome === 'accepted').length,
				alreadySubmittedUnknown: unknown.length,
				error: failures([done])[0]?.[2],
			};
			outcome.paidAfterRetry = paidTimes(sandbox, ids);

			// Step 2 of the recovery: the unknown rows not carried out run again with Allow Resend.
			const step2 = await resendNotCarriedOut(stack!, `${n8n.webhookBaseUrl}/webhook/${scenario.path}`, scenario.id, payees, unknown);
			outcome.unknownNotCarriedOut = step2.notCarriedOut.length;
			if (step2.notCarriedOut.length > 0) {
				expect(step2.status).toBe(200);
				const resent = step2.resent!;
				outcome.resent = { status: resent.status, sent: payOutput(resent).filter((j) => !j.alreadySubmitted).length };
				expect(failures([resent])).toEqual([]);
			}
			const final = paidTimes(sandbox, ids);
			outcome.finalPaid = final;
			results[`saveProgress${scenario.saveProgress ? 'On' : 'Off'}${scenario.recovery === 'retry' ? '' : 'NewRun'}`] = outcome;
			lines.push(`${queueLabel(`worker killed, ${label(scenario)}`)}: ${JSON.stringify(outcome)}`);
			const twice = Object.entries(final).filter(([times]) => Number(times) > 1).reduce((sum, [, count]) => sum + Number(count), 0);
			lines.push(
				`${queueLabel(`crash, ${label(scenario)}`)}: ${paidByKilledRun.length} paid before the kill, ${ids.length - paidByKilledRun.length - (final[0] ?? 0)} after the recovery, ${twice} paid twice, ${unknown.length} unknown, ${final[0] ?? 0} never paid`,
			);

			// What the user sees: every payee the killed run paid is marked already submitted;
			// "accepted" only for payees it did pay; the others marked are "unknown": their request
			// may have left when the worker died: at most the window marked sending (issue #64, point 4).
			const paidByKilled = new Set(paidByKilledRun);
			const markedKeys = marked.map((j) => String(j.idempotencyKey));
			expect(failures([done])).toEqual([]);
			expect(paidByKilledRun.filter((key) => !markedKeys.includes(key))).toEqual([]);
			expect(marked.filter((j) => j.outcome === 'accepted' && !paidByKilled.has(String(j.idempotencyKey)))).toEqual([]);
			expect(marked.filter((j) => j.outcome !== 'accepted' && j.outcome !== 'unknown')).toEqual([]);
			// A queue-mode sending window: Items per Batch, or a 20th of the run up to 50 (windows.ts).
			expect(unknown.length).toBeLessThanOrEqual(Math.max(DEFAULT_ITEMS_PER_BATCH, Math.min(SENDING_WINDOW, Math.ceil(PAYEES / RUN_SHARE))));
			// Killed inside the claim: nothing had left, so the Retry sends every row.
			if (scenario.kill === 'claim') expect(marked).toEqual([]);
			expect(final).toEqual({ 1: PAYEES });
			// A new run says what it found of the dead run's rows, with the way to finish.
			if (scenario.recovery === 'new run') {
				const hints = (done.data?.resultData.runData.Pay?.at(-1)?.hints ?? []).map((hint) => hint.message);
				expect(hints).toEqual(expect.arrayContaining([expect.stringMatching(/rows? had been reserved by an earlier run that never sent them/)]));
			}
		}
	});
});
