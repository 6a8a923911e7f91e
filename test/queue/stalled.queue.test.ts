/**
 * n8n's own re-run of a stalled job (issue #29, point 4), at n8n's defaults and with the
 * credential as a user creates it. In n8n 1.x queue mode a job whose worker died is run again by
 * a worker once its lock (QUEUE_WORKER_LOCK_DURATION, 60 s) has run out and a stalled-job check
 * (QUEUE_WORKER_STALLED_INTERVAL, 30 s) has found it (QUEUE_WORKER_MAX_STALLED_COUNT, 1): the same
 * execution, from its start when "Save execution progress" is off (n8n's default). n8n 2.x never
 * does (its scaling.service sets maxStalledCount to 0): there the run ends `crashed` and the user
 * retries it (workerCrash.queue.test.ts), so this file runs on 1.x only
 * (`npm run test:queue:1x`; `npm test` runs it beside the end-to-end suite, test/run-all.js).
 *
 * The worker is killed as the 30th of 100 payouts reaches the service (100 ms per answer) and
 * does not come back; the other worker runs the job again. The re-run does what every run does
 * with rows an earlier run left (ledger.ts, takeover.ts), as a Retry does: the rows the dead run
 * sent come out already submitted (`accepted` where the service's answer was recorded, `unknown`
 * where it was in flight), and the rows it reserved and never sent are sent, after the takeover
 * wait (44 claim waits: the run it repeats might still be alive). Then the README's recovery
 * step 2: the `unknown` rows looked up in the service (the sandbox's record), those not carried
 * out run again with Allow Resend. Every payee paid exactly once.
 *
 *   queue[stalled job re-run by n8n, killed as the 30th payout arrived,<config>]: {...}
 */
import { DEFAULT_ITEMS_PER_BATCH } from '../../nodes/WalletPayments/input/batching';
import { DEFAULT_CLAIM_WAIT_MS, takeoverWaitMs } from '../../nodes/shared/ledger';
import { stopStack } from '../e2e/support/e2e';
import { N8N_MAJOR } from '../../tooling/n8n/install';
import type { WorkflowJson } from '../../tooling/n8n/n8n';
import { chain } from '../../tooling/n8n/workflow';
import type { QueueN8nOptions } from './support/cluster';
import {
	describeQueue,
	failures,
	paidTimes,
	payeeMaker,
	payeePayout,
	payeeRows,
	payoutsPerBeneficiary,
	recordResults,
	resendNotCarriedOut,
	settledExecutions,
	sleep,
	startQueueStack,
	webhookNode,
	type QueueStack,
} from './support/queue';
import { postJson } from '../../tooling/n8n/http';
import { queueLabel } from './support/config';

const PAYEES = 100;
const KILL_AFTER = 30;
const ID = 'WalletQueueStal0';
const PATH = 'queue-stalled';
/** Lock (60 s) + one stalled-job check interval (30 s) + the run itself, with room. */
const RERUN_WITHIN_MS = 240000;
/** The re-run waits out any live run before it takes over the rows never sent (takeover.ts). */
const RERUN_DONE_WITHIN_MS = RERUN_WITHIN_MS + takeoverWaitMs(DEFAULT_CLAIM_WAIT_MS);

function workflow(): WorkflowJson {
	const pay = payeePayout({ allowResend: '={{ $json.resend === true }}' });
	return chain(ID, 'Queue: payout run re-run by n8n after its worker died', [
		webhookNode(PATH),
		payeeRows(),
		pay,
	]);
}

describeQueue('n8n 1.x re-runs a job whose worker died: nothing sent twice', () => {
	let stack: QueueStack | undefined;
	const lines: string[] = [];

	beforeAll(async () => {
		// Only test/jest/queue-1x.config.js runs this file, on 1.x.
		if (N8N_MAJOR >= 2)
			throw new Error(
				'n8n 2.x never re-runs a stalled job: run this file on 1.x (npm run test:queue:1x)',
			);
		stack = await startQueueStack(
			{ references: 'lenient', latency: { fixedMs: 100, jitterMs: 0 } },
			{ webhookProcessors: 1 } as QueueN8nOptions,
		);
		const { n8n } = stack;
		await n8n.importWorkflows([workflow()]);
		await n8n.start();
		await n8n.publishNow(ID);
		await n8n.waitForWebhook(PATH);
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
	});

	test(`killed as the ${KILL_AFTER}th payout arrives: n8n runs the job again, which sends the rows the dead run never sent and no other; the unknown rows, checked and resent, leave every payee paid once`, async () => {
		const { n8n, sandbox } = stack!;
		const payees = await payeeMaker(sandbox)(PAYEES);
		const ids = payees.map((p) => p.beneficiaryId);
		const paid = () => ids.filter((b) => (payoutsPerBeneficiary(sandbox).get(b) ?? 0) > 0).length;
		const url = `${n8n.webhookBaseUrl}/webhook/${PATH}`;

		expect(await postJson(url, { payees })).toBe(200);
		const deadline = Date.now() + 60000;
		let executionId: string | undefined;
		while (!executionId && Date.now() < deadline) {
			executionId = n8n.executionsInDatabase(ID)[0]?.id;
			if (!executionId) await sleep(100);
		}
		expect(executionId).toBeDefined();
		const workerName = await n8n.workerOf(executionId!, 30000);
		const worker = n8n.workers.find((w) => w.name === workerName)!;
		while (paid() < KILL_AFTER) {
			if (Date.now() > deadline) throw new Error(`Only ${paid()} paid after 60 s`);
			await sleep(20);
		}
		await n8n.killProcess(worker);
		const killedAt = Date.now();
		await sleep(1000); // a request in flight reaches the service anyway
		const counts = payoutsPerBeneficiary(sandbox);
		const paidByKilledRun = new Set(
			payees.filter((p) => (counts.get(p.beneficiaryId) ?? 0) > 0).map((p) => p.invoiceId),
		);
		// The worker does not come back (its machine is lost). A worker restarted on the same user
		// folder would find the run in its event log at start-up and mark it crashed (n8n 1.x's
		// message-event-bus recovery); the stalled job then ends without a run, and the user retries
		// it as on 2.x. Nobody but n8n runs it again here.
		n8n.ranOn.delete(executionId!);

		// n8n itself runs the same execution again on a worker.
		const rerunBy = await n8n.workerOf(executionId!, RERUN_WITHIN_MS);
		const secondsSinceKill = () => Math.round((Date.now() - killedAt) / 1000);
		const rerunAfterSeconds = secondsSinceKill();
		const [execution] = await settledExecutions(n8n, ID, 1, RERUN_DONE_WITHIN_MS);
		const out = (execution.data?.resultData.runData.Pay?.at(-1)?.data?.main[0] ?? []).map(
			(item) => item.json,
		);
		const marked = out.filter((j) => j.alreadySubmitted);
		const unknown = marked.filter((j) => j.outcome === 'unknown');
		const outcome: Record<string, unknown> = {
			killedWorker: workerName,
			paidWhenKilled: paidByKilledRun.size,
			rerunBy,
			rerunAfterSeconds,
			rerunDoneAfterSeconds: secondsSinceKill(),
			executionStatus: execution.status,
			sent: out.filter((j) => !j.alreadySubmitted).length,
			alreadySubmittedAccepted: marked.filter((j) => j.outcome === 'accepted').length,
			alreadySubmittedUnknown: unknown.length,
			paidAfterRerun: paidTimes(sandbox, ids),
			error: failures([execution])[0]?.[2],
		};

		// Step 2 of the recovery: the unknown rows not carried out run again with Allow Resend.
		const step2 = await resendNotCarriedOut(stack!, url, ID, payees, unknown);
		outcome.unknownNotCarriedOut = step2.notCarriedOut.length;
		if (step2.notCarriedOut.length > 0) {
			expect(step2.status).toBe(200);
			expect(failures([step2.resent!])).toEqual([]);
		}
		outcome.finalPaid = paidTimes(sandbox, ids);
		recordResults('stalledRerun', outcome);
		lines.push(
			`${queueLabel(`stalled job re-run by n8n, killed as the ${KILL_AFTER}th payout arrived`)}: ${JSON.stringify(outcome)}`,
		);

		expect(execution.status).toBe('success');
		expect(out).toHaveLength(PAYEES);
		// Nobody paid twice by the re-run, and every payee the dead run paid is marked.
		expect(
			Object.keys(outcome.paidAfterRerun as object).filter((times) => Number(times) > 1),
		).toEqual([]);
		const markedKeys = new Set(marked.map((j) => String(j.idempotencyKey)));
		expect([...paidByKilledRun].filter((key) => !markedKeys.has(key))).toEqual([]);
		// `accepted` only for rows the dead run did pay; every other marked row is `unknown`.
		expect(
			marked.filter(
				(j) => j.outcome === 'accepted' && !paidByKilledRun.has(String(j.idempotencyKey)),
			),
		).toEqual([]);
		expect(marked.filter((j) => j.outcome !== 'accepted' && j.outcome !== 'unknown')).toEqual([]);
		// The rows the dead run reserved and never sent are sent by the re-run: only what was in
		// flight is unknown (at most two batches).
		expect(unknown.length).toBeLessThanOrEqual(2 * DEFAULT_ITEMS_PER_BATCH);
		expect(outcome.finalPaid).toEqual({ 1: PAYEES });
	});
});
