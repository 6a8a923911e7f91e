/**
 * Queue mode under load (issue #17, case 2, and the "Scaling" figures): production webhooks sent
 * to the webhook processor, executions run by the workers, money counted in the sandbox.
 *
 *   queue[50 webhook runs × 10 payees,<config>]: …
 *   queue[store calls, 2 workers, 50 runs at once,<config>]: … (the claim wait's assumption, issue #24)
 *   queue[25 bodies × 2 calls at once, 10 payees each,<config>]: … (issue #24)
 *
 * The throughput figures (100 one-payee runs on 2 workers, then on 1) are a benchmark, not a
 * test: `npm run bench:queue` (throughput.bench.ts).
 *
 * The sandbox accepts reused references here ('lenient'), so only the package's own exactly-once
 * guard stands between a re-run and a second payment.
 */
import { DEFAULT_CLAIM_WAIT_MS } from '../../nodes/shared/ledger';
import { stopStack } from '../e2e/support/e2e';
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
	storeEntries,
	webhookNode,
	type Payee,
	type QueueStack,
} from './support/queue';
import { postJson } from '../../tooling/n8n/http';
import { queueLabel } from './support/config';

const BATCH_WORKFLOW = 'WalletQueueBatch';
const BATCH_PATH = 'queue-batch';
const RUNS = 50;
const PAYEES_PER_RUN = 10;
const DOUBLE_BODIES = 25;

describeQueue('queue mode under load: concurrent production webhooks on two workers', () => {
	let stack: QueueStack | undefined;
	const lines: string[] = [];
	const results: Record<string, unknown> = {};
	let batches: Payee[][] = [];
	let newPayees: (count: number) => Promise<Payee[]>;

	const url = (webhookPath: string) => `${stack!.n8n.webhookBaseUrl}/webhook/${webhookPath}`;

	beforeAll(async () => {
		// Debug logs: the package's store calls are timed there (nodes/shared/ledger/store.ts).
		stack = await startQueueStack({ references: 'lenient' }, { env: { N8N_LOG_LEVEL: 'debug' } });
		newPayees = payeeMaker(stack.sandbox);
		const { n8n } = stack;
		await n8n.importWorkflows([
			chain(BATCH_WORKFLOW, 'Queue: pay a batch from a webhook', [webhookNode(BATCH_PATH), payeeRows(), payeeAtDefaults()]),
		]);
		await n8n.start();
		await n8n.publishNow(BATCH_WORKFLOW);
		await n8n.waitForWebhook(BATCH_PATH);
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		recordResults('throughput', results);
		await stopStack(stack);
	});

	test(`${RUNS} production-webhook runs at once, ${PAYEES_PER_RUN} payees each: every payee paid once, every run succeeds, both workers used`, async () => {
		const { n8n, sandbox } = stack!;
		n8n.storeCallMs.length = 0;
		batches = await Promise.all(Array.from({ length: RUNS }, async () => await newPayees(PAYEES_PER_RUN)));
		const statuses = await Promise.all(batches.map(async (payees, i) => await postJson(url(BATCH_PATH), { batch: i, payees })));
		expect(statuses).toEqual(batches.map(() => 200));
		const executions = await settledExecutions(n8n, BATCH_WORKFLOW, RUNS);
		const payees = batches.flat();
		const paid = paidTimes(sandbox, payees.map((p) => p.beneficiaryId));
		const byStatus: Record<string, number> = {};
		for (const e of executions) byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
		const workers = stack!.n8n.workersOf(executions.map((e) => e.id));
		lines.push(
			`${queueLabel(`${RUNS} webhook runs × ${PAYEES_PER_RUN} payees`)}: ${executions.length} executions ${JSON.stringify(byStatus)}, ` +
				`payees paid {times: payees} ${JSON.stringify(paid)}, executions per worker ${JSON.stringify(workers)}`,
		);
		results.concurrentRuns = { runs: RUNS, payeesPerRun: PAYEES_PER_RUN, executions: executions.length, byStatus, payeesPaidTimes: paid, executionsPerWorker: workers };
		expect(executions).toHaveLength(RUNS);
		expect(failures(executions)).toEqual([]);
		expect(byStatus).toEqual({ success: RUNS });
		expect(paid).toEqual({ 1: RUNS * PAYEES_PER_RUN });
		// Each execution's Pay node output one payout per row, none "already submitted".
		for (const e of executions) {
			const out = (e.data?.resultData.runData.Pay?.[0]?.data?.main[0] ?? []).map((item) => item.json);
			expect(out).toHaveLength(PAYEES_PER_RUN);
			expect(out.filter((json) => json.alreadySubmitted)).toEqual([]);
		}
		expect(workers.none).toBeUndefined();
		expect(workers.worker1).toBeGreaterThan(0);
		expect(workers.worker2).toBeGreaterThan(0);

		// The claim's timing assumption (docs/ledger.md, "The timing assumption"): no store call takes
		// two claim waits between its read and its write (test/nodes/shared/ledger/claim.test.ts shows the bound).
		// Held here with a margin of 2: every call, timed whole (which bounds it), under one.
		const times = [...n8n.storeCallMs].sort((a, b) => a - b);
		const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
		const calls = { calls: times.length, p50: at(0.5), p99: at(0.99), p999: at(0.999), max: times[times.length - 1], claimWaitMs: DEFAULT_CLAIM_WAIT_MS };
		lines.push(
			`${queueLabel(`store calls, 2 workers, ${RUNS} runs at once`)}: ${calls.calls} calls, p50 ${calls.p50} ms, p99 ${calls.p99} ms, p99.9 ${calls.p999} ms, max ${calls.max} ms; ` +
				`the claim wait (${DEFAULT_CLAIM_WAIT_MS} ms) assumes under ${2 * DEFAULT_CLAIM_WAIT_MS} ms, held here under ${DEFAULT_CLAIM_WAIT_MS} ms`,
		);
		results.storeCalls = calls;
		expect(times.length).toBeGreaterThanOrEqual(RUNS * 2);
		expect(calls.max).toBeLessThan(DEFAULT_CLAIM_WAIT_MS);
	});

	/**
	 * n8n's de-duplication store is one row per node, read, changed and written back without a
	 * lock: two workers doing that at the same moment lose one's records (measured before the
	 * fix: it kept 697–738 of 1,000, and this re-delivery paid 145–162 of 500 payees twice; this
	 * sandbox accepts reused references, and Payout → Initiate sends none). Each run now checks
	 * its records a second after writing them and writes the lost ones again before it ends
	 * (nodes/shared/ledger/verify.ts): every record kept, nobody paid twice.
	 */
	test('the same 50 batches delivered again at once: n8n\'s store kept every record, every row skipped, nobody paid twice', async () => {
		const { n8n, sandbox } = stack!;
		// Five records per payee in queue mode (the key, claimed, sending, accepted, its day), the mark
		// of each run (one per batch: each run starts from other data) and the token of its claim (one
		// window of 10), and the node's day (one, or two past midnight): what
		// n8n's store kept after 50 runs on 2 workers. A claim attempt another worker's call wrote
		// over was made again with a new token: one more record each. A worker's capacity probe
		// (2,500 values, once per process) that another worker's call read and wrote back after the
		// probe removed them stays: 2,500 more (n8n keeps hashes, so they cannot be told apart here;
		// docs/ledger.md, "Databases").
		const kept = Object.values(storeEntries(n8n, BATCH_WORKFLOW)).reduce((sum, n) => sum + n, 0);
		const written = 5 * batches.flat().length + 2 * RUNS + 1;
		const before = n8n.executionsInDatabase(BATCH_WORKFLOW).length;
		const statuses = await Promise.all(batches.map(async (payees, i) => await postJson(url(BATCH_PATH), { batch: i, payees })));
		expect(statuses).toEqual(batches.map(() => 200));
		const executions = (await settledExecutions(n8n, BATCH_WORKFLOW, before + RUNS)).slice(before);
		const payees = batches.flat();
		const paid = paidTimes(sandbox, payees.map((p) => p.beneficiaryId));
		const skipped = executions.flatMap((e) => (e.data?.resultData.runData.Pay?.[0]?.data?.main[0] ?? []).map((item) => item.json)).filter((json) => json.alreadySubmitted).length;
		lines.push(
			`${queueLabel(`the same ${RUNS} batches again, at once`)}: store kept ${kept} records after the first round (${written} written once, ${kept - written} more: claim attempts made again, or the 2,500 values of a capacity probe written back); ` +
				`${skipped} of ${payees.length} rows skipped as already submitted; payees paid {times: payees} ${JSON.stringify(paid)}`,
		);
		results.redelivered = { recordsKept: kept, recordsWritten: written, rowsSkipped: skipped, rows: payees.length, payeesPaidTimes: paid };
		expect(failures(executions)).toEqual([]);
		expect(executions).toHaveLength(RUNS);
		expect(kept).toBeGreaterThanOrEqual(written);
		expect(skipped).toBe(payees.length);
		expect(paid).toEqual({ 1: payees.length });
	});

	/**
	 * Issue #24: the same body posted twice at the same moment (a plain Webhook node called twice):
	 * two runs, on two workers or one, record the same rows at once. Before the claim across
	 * processes, 302–341 payouts were made for 250 rows. Now each row's claim waits and checks
	 * that it held: one run sends it, the other outputs it as already submitted.
	 */
	test(`${DOUBLE_BODIES} bodies × 2 calls at the same moment, ${PAYEES_PER_RUN} payees each: every payee paid once`, async () => {
		const { n8n, sandbox } = stack!;
		const bodies = await Promise.all(Array.from({ length: DOUBLE_BODIES }, async () => await newPayees(PAYEES_PER_RUN)));
		const before = n8n.executionsInDatabase(BATCH_WORKFLOW).length;
		const statuses = await Promise.all(bodies.flatMap((payees, i) => [0, 1].map(async () => await postJson(url(BATCH_PATH), { double: i, payees }))));
		expect(statuses).toEqual(statuses.map(() => 200));
		const executions = (await settledExecutions(n8n, BATCH_WORKFLOW, before + 2 * DOUBLE_BODIES)).slice(before);
		const payees = bodies.flat();
		const paid = paidTimes(sandbox, payees.map((p) => p.beneficiaryId));
		const out = executions.flatMap((e) => (e.data?.resultData.runData.Pay?.[0]?.data?.main[0] ?? []).map((item) => item.json));
		const sent = out.filter((json) => !json.alreadySubmitted && json.error === undefined).length;
		const skipped = out.filter((json) => json.alreadySubmitted).length;
		const sameWorker = bodies.filter((_, i) => {
			const pair = executions.filter((e) => (e.data?.resultData.runData.Webhook?.[0]?.data?.main[0]?.[0]?.json.body as { double?: number } | undefined)?.double === i);
			return pair.length === 2 && n8n.ranOn.get(pair[0].id) === n8n.ranOn.get(pair[1].id);
		}).length;
		lines.push(
			`${queueLabel(`${DOUBLE_BODIES} bodies × 2 calls at once, ${PAYEES_PER_RUN} payees each`)}: ${executions.length} executions, ${sent} rows sent, ${skipped} already submitted, ` +
				`pairs on the same worker ${sameWorker}; payees paid {times: payees} ${JSON.stringify(paid)}`,
		);
		results.doubleBodies = { bodies: DOUBLE_BODIES, executions: executions.length, sent, skipped, pairsOnSameWorker: sameWorker, payeesPaidTimes: paid };
		expect(failures(executions)).toEqual([]);
		expect(paid).toEqual({ 1: payees.length });
		expect(sent).toBe(payees.length);
		expect(skipped).toBe(payees.length);
	});
});
