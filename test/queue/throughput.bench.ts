/**
 * `npm run bench:queue`: the queue-mode throughput figures (docs, "Scaling"): 100 one-payee
 * production-webhook runs sent at once through the webhook processors, on 2 workers, then on 1;
 * wall time from the first request to the last execution's stop (n8n's own stoppedAt). Figures,
 * not a test (a speed goal in a timed test would fail on a busy machine): jest runs it on the
 * queue suite's cluster, and it still checks that every payee was paid once. Written to
 * test/queue/results.json ("throughput" → "throughput") and printed as
 *
 *   queue[throughput, N workers]: 100 webhook runs in … s = … executions/min, …
 */
import * as os from 'os';

import { psql } from './support/services';
import { chain } from '../e2e/support/workflow';
import {
	describeQueue,
	failures,
	paidTimes,
	payeeAtDefaults,
	payeeMaker,
	postJson,
	recordResults,
	settledExecutions,
	startQueueStack,
	webhookNode,
	type Payee,
	type QueueStack,
} from './support/queue';

const SMALL_WORKFLOW = 'WalletQueueSmall';
const SMALL_PATH = 'queue-one';
const THROUGHPUT_RUNS = 100;

describeQueue('queue mode throughput (a benchmark: npm run bench:queue)', () => {
	let stack: QueueStack | undefined;
	const lines: string[] = [];
	let newPayees: (count: number) => Promise<Payee[]>;

	const url = (webhookPath: string) => `${stack!.n8n.webhookBaseUrl}/webhook/${webhookPath}`;

	beforeAll(async () => {
		stack = await startQueueStack({ references: 'lenient' });
		newPayees = payeeMaker(stack.sandbox);
		const { n8n } = stack;
		await n8n.importWorkflows([chain(SMALL_WORKFLOW, 'Queue: pay one payee from a webhook', [webhookNode(SMALL_PATH), payeeAtDefaults('$json.body')])]);
		await n8n.start();
		await n8n.publishNow(SMALL_WORKFLOW);
		await n8n.waitForWebhook(SMALL_PATH);
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stack?.n8n.dispose();
		await stack?.sandbox.close();
	});

	/**
	 * Wall time of `count` one-payee webhook runs sent at once: from the first request to the
	 * last execution's stop (n8n's own stoppedAt). A figure, not an assertion.
	 */
	async function throughput(workerCount: number, count: number) {
		const { n8n, sandbox } = stack!;
		const before = n8n.executionsInDatabase(SMALL_WORKFLOW).length;
		const payees = await newPayees(count);
		const startedAt = Date.now();
		const statuses = await Promise.all(payees.map(async (payee) => await postJson(url(SMALL_PATH), payee)));
		expect(statuses).toEqual(payees.map(() => 200));
		const all = await settledExecutions(n8n, SMALL_WORKFLOW, before + count);
		const fresh = all.slice(before);
		const lastStop = Number(
			psql(n8n.services.postgresPort, n8n.database, `SELECT (EXTRACT(EPOCH FROM max("stoppedAt")) * 1000)::bigint FROM execution_entity WHERE "workflowId" = '${SMALL_WORKFLOW}'`),
		);
		const wallMs = lastStop - startedAt;
		const perMinute = Math.round((count / wallMs) * 60000);
		const paid = paidTimes(sandbox, payees.map((p) => p.beneficiaryId));
		const workers = stack!.n8n.workersOf(fresh.map((e) => e.id));
		expect(failures(fresh)).toEqual([]);
		expect(paid).toEqual({ 1: count });
		return { workers: workerCount, executions: count, wallSeconds: Math.round(wallMs / 100) / 10, executionsPerMinute: perMinute, executionsPerWorker: workers, payeesPaidTimes: paid };
	}

	test(`throughput: ${THROUGHPUT_RUNS} one-payee webhook runs with 2 workers, then with 1 (figures)`, async () => {
		const { n8n } = stack!;
		await throughput(2, 10); // warm-up, not reported
		const two = await throughput(2, THROUGHPUT_RUNS);
		expect(two.executionsPerWorker.worker1).toBeGreaterThan(0);
		expect(two.executionsPerWorker.worker2).toBeGreaterThan(0);
		await n8n.stopProcess(n8n.workers[1]);
		const one = await throughput(1, THROUGHPUT_RUNS);
		expect(one.executionsPerWorker).toEqual({ worker1: THROUGHPUT_RUNS });
		for (const figure of [two, one]) {
			lines.push(
				`queue[throughput, ${figure.workers} worker${figure.workers > 1 ? 's' : ''}]: ${figure.executions} webhook runs in ${figure.wallSeconds} s = ` +
					`${figure.executionsPerMinute} executions/min, per worker ${JSON.stringify(figure.executionsPerWorker)}, payees paid ${JSON.stringify(figure.payeesPaidTimes)}`,
			);
		}
		recordResults('throughput', { throughput: { machineCores: os.cpus().length, twoWorkers: two, oneWorker: one } });
		await n8n.startProcess(n8n.workers[1]);
	});
});
