/**
 * `npm run bench:queue`: the queue-mode throughput figures (docs, "Scaling"): 100 one-payee
 * production-webhook runs sent at once through the webhook processors, on 2 workers, then on 1;
 * wall time from the first request to the last execution's stop (n8n's own stoppedAt). Figures,
 * not a test (a speed goal in a timed test would fail on a busy machine): jest runs it on the
 * queue suite's cluster, and it still checks that every payee was paid once. Then issue #29's
 * queue payroll: 2,000 payouts at 100 ms per answer as one run and as 20 runs at once. Written to
 * test/queue/results.json ("throughput" → "throughput" and "payroll") and printed as
 *
 *   queue[throughput, N workers,<config>]: 100 webhook runs in … s = … executions/min, …
 *   queue[payroll, 2000 at 100 ms, one run,<config>]: … s wall, Pay … ms, …
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { psql } from './support/services';
import { chain } from '../../tooling/n8n/workflow';
import {
	describeQueue,
	failures,
	paidTimes,
	payeeAtDefaults,
	payeeMaker,
	payeeRows,
	recordResults,
	settledExecutions,
	startQueueStack,
	webhookNode,
	type Payee,
	type QueueStack,
} from './support/queue';
import { postJson } from '../../tooling/n8n/http';
import { queueLabel } from './support/config';

const SMALL_WORKFLOW = 'WalletQueueSmall';
const SMALL_PATH = 'queue-one';
const THROUGHPUT_RUNS = 100;
const PAYROLL_WORKFLOW = 'WalletQueuePayrl';
const PAYROLL_PATH = 'queue-payroll';
const PAYROLL = Number(process.env.WALLET_QUEUE_PAYROLL ?? 2000);
const PAYROLL_SPLIT = 20;
const PAYROLL_LATENCY_MS = 100;

/** `npm run bench`'s one-process payroll at 100 ms (bench/results.json), when it has one. */
function oneProcessPayroll(): { oneProcessOnlyMs?: number; asCreatedMs?: number; measuredAt?: string; commit?: string } {
	try {
		const bench = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'bench', 'results.json'), 'utf8')) as {
			payroll?: { measurements?: Record<string, { ms?: number; n?: number }>; environment?: { date?: string; commit?: string } };
		};
		const at = (key: string) => (bench.payroll?.measurements?.[key]?.n === PAYROLL ? bench.payroll.measurements[key].ms : undefined);
		return { oneProcessOnlyMs: at('slow.node'), asCreatedMs: at('slow.nodeClaims'), measuredAt: bench.payroll?.environment?.date, commit: bench.payroll?.environment?.commit };
	} catch {
		return {};
	}
}

describeQueue('queue mode throughput (a benchmark: npm run bench:queue)', () => {
	let stack: QueueStack | undefined;
	const lines: string[] = [];
	let newPayees: (count: number) => Promise<Payee[]>;

	const url = (webhookPath: string) => `${stack!.n8n.webhookBaseUrl}/webhook/${webhookPath}`;

	beforeAll(async () => {
		stack = await startQueueStack({ references: 'lenient' });
		newPayees = payeeMaker(stack.sandbox);
		const { n8n } = stack;
		await n8n.importWorkflows([
			chain(SMALL_WORKFLOW, 'Queue: pay one payee from a webhook', [webhookNode(SMALL_PATH), payeeAtDefaults('$json.body')]),
			chain(PAYROLL_WORKFLOW, 'Queue: a payroll from a webhook', [webhookNode(PAYROLL_PATH), payeeRows(), payeeAtDefaults()]),
		]);
		await n8n.start();
		await n8n.publishNow(SMALL_WORKFLOW);
		await n8n.waitForWebhook(SMALL_PATH);
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stack?.n8n.dispose();
		await stack?.sandbox.close();
	});

	/** When the workflow's last execution stopped (n8n's own stoppedAt, ms). */
	function lastStopMs(workflowId: string): number {
		const { n8n } = stack!;
		return Number(
			psql(n8n.services.postgresPort, n8n.database, `SELECT (EXTRACT(EPOCH FROM max("stoppedAt")) * 1000)::bigint FROM execution_entity WHERE "workflowId" = '${workflowId}'`),
		);
	}

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
		const lastStop = lastStopMs(SMALL_WORKFLOW);
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
				`${queueLabel(`throughput, ${figure.workers} worker${figure.workers > 1 ? 's' : ''}`)}: ${figure.executions} webhook runs in ${figure.wallSeconds} s = ` +
					`${figure.executionsPerMinute} executions/min, per worker ${JSON.stringify(figure.executionsPerWorker)}, payees paid ${JSON.stringify(figure.payeesPaidTimes)}`,
			);
		}
		recordResults('throughput', { throughput: { machineCores: os.cpus().length, twoWorkers: two, oneWorker: one } });
		await n8n.startProcess(n8n.workers[1]);
	});

	/**
	 * Issue #29, point 1: a payroll of PAYROLL payouts at PAYROLL_LATENCY_MS per answer with the
	 * credential as created, once as one run (one worker takes it) and once split into
	 * PAYROLL_SPLIT runs sent at once (both workers). Wall time from the first request to the last
	 * execution's stop; Pay's own time (n8n's executionTime, the longest run's) is the figure that
	 * compares with `npm run bench`'s one-process payroll (bench/results.json, slow.node: One Process
	 * Only, and slow.nodeClaims: the credential as created).
	 */
	test(`queue payroll: ${PAYROLL} payouts at ${PAYROLL_LATENCY_MS} ms per answer, as one run and as ${PAYROLL_SPLIT} runs over 2 workers (figures)`, async () => {
		const { n8n, sandbox } = stack!;
		await n8n.publishNow(PAYROLL_WORKFLOW);
		await n8n.waitForWebhook(PAYROLL_PATH);
		const oneRun = await newPayees(PAYROLL);
		const split = await newPayees(PAYROLL);
		sandbox.configure({ latency: { fixedMs: PAYROLL_LATENCY_MS, jitterMs: 0 } });
		try {
			const figures = {
				oneRun: await payroll([oneRun]),
				split: await payroll(Array.from({ length: PAYROLL_SPLIT }, (_, i) => split.slice(i * (PAYROLL / PAYROLL_SPLIT), (i + 1) * (PAYROLL / PAYROLL_SPLIT)))),
			};
			const oneProcess = oneProcessPayroll();
			const ratio = (ms: number, base?: number) => (base ? Math.round((ms / base) * 100) / 100 : null);
			for (const [name, figure] of Object.entries(figures)) {
				lines.push(
					`${queueLabel(`payroll, ${PAYROLL} at ${PAYROLL_LATENCY_MS} ms, ${name === 'oneRun' ? 'one run' : `${PAYROLL_SPLIT} runs at once`}`)}: ` +
						`${figure.wallSeconds} s wall, Pay ${figure.payMs} ms (longest run), per worker ${JSON.stringify(figure.executionsPerWorker)}, paid ${JSON.stringify(figure.payeesPaidTimes)}, runs failed ${figure.failed.length}; ` +
						`wall / one process (One Process Only ${oneProcess.oneProcessOnlyMs ?? '?'} ms): ${ratio(figure.wallMs, oneProcess.oneProcessOnlyMs)}`,
				);
			}
			recordResults('throughput', { payroll: { payouts: PAYROLL, latencyMs: PAYROLL_LATENCY_MS, runsSplit: PAYROLL_SPLIT, ...figures, oneProcess } });
			for (const figure of Object.values(figures)) {
				expect(figure.failed).toEqual([]);
				expect(figure.payeesPaidTimes).toEqual({ 1: PAYROLL });
			}
		} finally {
			sandbox.configure({ latency: { fixedMs: 0, jitterMs: 0 } });
		}
	});

	/** The payroll of `batches` (one run each), sent at once: its figures, the payees' payouts and the runs that failed. */
	async function payroll(batches: Payee[][]) {
		const { n8n, sandbox } = stack!;
		const before = n8n.executionsInDatabase(PAYROLL_WORKFLOW).length;
		const startedAt = Date.now();
		const statuses = await Promise.all(batches.map(async (payees, i) => await postJson(url(PAYROLL_PATH), { batch: i, payees })));
		expect(statuses).toEqual(batches.map(() => 200));
		const fresh = (await settledExecutions(n8n, PAYROLL_WORKFLOW, before + batches.length, 30 * 60000)).slice(before);
		const lastStop = lastStopMs(PAYROLL_WORKFLOW);
		const payees = batches.flat();
		const paid = paidTimes(sandbox, payees.map((p) => p.beneficiaryId));
		const payMs = Math.max(...fresh.map((e) => e.data?.resultData.runData.Pay?.[0]?.executionTime ?? 0));
		const wallMs = lastStop - startedAt;
		// Checked by the caller once the figures are printed: a payroll that did not pay everyone once is a finding too.
		return { runs: batches.length, wallMs, wallSeconds: Math.round(wallMs / 100) / 10, payMs, executionsPerWorker: n8n.workersOf(fresh.map((e) => e.id)), payeesPaidTimes: paid, failed: failures(fresh) };
	}
});
