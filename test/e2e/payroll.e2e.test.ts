/**
 * A month's payroll at scale inside a real n8n (`n8n start`): a production Webhook receives the
 * payee list, a Code node makes one item per payee (N of them: WALLET_PAYROLL_N, default 6,000:
 * above the size at which a Retry once paid everyone again, about 5,000),
 * and the Wallet Payments node pays each one with Payout → Initiate (Saved Beneficiary by ID) or
 * Initiate (Legacy) with the Reference left empty, Duplicate Protection at its defaults. The last
 * payee's beneficiary does not exist at the service, so run 1 pays N − 1 payees and fails on the
 * last item. The user then clicks Retry on the failed execution, with the original workflow
 * (`POST /rest/executions/<id>/retry`): n8n runs the Pay node again for all N items. The service
 * here accepts reused references ('lenient'), so only the package's own record of what it sent
 * (n8n's de-duplication store) stands between the Retry and paying the whole payroll twice.
 *
 * It proves, counted in the sandbox's own records (payouts per beneficiary, one beneficiary per
 * payee): after run 1 and the Retry the service accepted N − 1 payouts, one per payee, and the
 * Retry sent nothing but the last payee again (refused again). n8n keeps no output of a node that
 * failed, so the Retry that fails at the last payee has none to read: the user then fixes the last
 * payee in the saved workflow and retries with it, and that Retry's Pay output (all N items, read
 * through the public API with the execution's data) marks every earlier payee
 * `alreadySubmitted: true` and pays the last one: N payouts, one per payee.
 *
 * One line per case (k is what the Retry paid; it must be 0):
 *
 *   payroll[<operation>,N=<N>]: <paid> paid in <s> s, retry sent <k> again
 *
 * <paid> is what run 1 paid and <s> its duration in n8n (the execution's start to stop).
 * WALLET_E2E_TIMING=1 also prints how long each step took. The run waits for n8n's executions in
 * the executions list (without their data, which is read once per execution that is checked): a
 * Retry of N items can take longer than Node's fetch waits for n8n's answer to the retry call.
 *
 * n8n at its defaults: executions saved as n8n saves them, the webhook's body limit
 * (N8N_PAYLOAD_SIZE_MAX, 16 MB: the list of 50,000 payees is about 7 MB) and the Code node's task
 * runner limits are not reached, so nothing is changed.
 */
import { describeE2E, startStack, stopStack, type ApiExecution, type Stack } from './support/e2e';
import { MONEY_OPERATIONS, UNKNOWN_ID, type MoneyOperation } from './support/moneyOperations';
import type { WorkflowJson } from '../../tooling/n8n/n8n';
import { chain, walletNode } from '../../tooling/n8n/workflow';
import { paidTimes, payeeMaker, payeeRows, payoutsPerBeneficiary, webhookNode, type Payee } from '../queue/support/queue';
import { postJson } from '../../tooling/n8n/http';

const N = Number(process.env.WALLET_PAYROLL_N ?? 6000);
if (!Number.isInteger(N) || N < 2) throw new Error(`WALLET_PAYROLL_N must be a whole number of 2 or more, not ${process.env.WALLET_PAYROLL_N}`);

/**
 * How long one case may take: three runs of the Pay node over N items, creating the payees, and
 * reading two executions' data (generous: a loaded 2-core machine).
 */
const CASE_TIMEOUT_MS = Math.max(20 * 60_000, N * 120);

/**
 * Payout → Initiate and/or Initiate (Legacy), as the exactly-once suite drives them:
 * WALLET_PAYROLL_OPERATIONS, a comma-separated list of `initiate` and `initiateLegacy`. `npm test`
 * runs Payout → Initiate at 6,000; `npm run bench:payroll` both at 50,000.
 */
const OPERATIONS = (process.env.WALLET_PAYROLL_OPERATIONS ?? 'initiate').split(',').map((name) => name.trim());
const PAYOUTS = MONEY_OPERATIONS.filter((op) => op.resource === 'payout' && OPERATIONS.includes(op.operation));
if (PAYOUTS.length !== OPERATIONS.length) throw new Error(`WALLET_PAYROLL_OPERATIONS must name initiate and/or initiateLegacy, not ${OPERATIONS.join(',')}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const workflowId = (op: MoneyOperation) => `Payroll${op.code}`.padEnd(16, '0');
const webhookPath = (op: MoneyOperation) => `payroll-${op.operation}`.toLowerCase();
const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** Webhook (the payee list) → one item per payee (Code) → Pay, at the node's defaults. */
function payrollWorkflow(op: MoneyOperation): WorkflowJson {
	const pay = walletNode('Pay', op.resource, op.operation, op.parameters('={{ $json.beneficiaryId }}'));
	return chain(workflowId(op), `Payroll: ${op.label}`, [webhookNode(webhookPath(op)), payeeRows(), pay]);
}

/** An execution as the public API lists it (without its data). */
type Listed = ApiExecution & { startedAt: string; stoppedAt: string | null; retryOf?: string | null };

const duration = (execution: Listed) => Date.parse(execution.stoppedAt ?? '') - Date.parse(execution.startedAt);

/** The Pay node's last run in an execution: its output items, or its error. */
const payRun = (execution: ApiExecution) => execution.data?.resultData.runData.Pay?.at(-1);

describeE2E(`a payroll of ${N} payees, failed at the last one, then Retry (n8n start, REST retry)`, () => {
	let stack: Stack | undefined;
	let newPayees: (count: number) => Promise<Payee[]>;
	const lines: string[] = [];
	/** The imported workflows (the fix edits the same nodes: a node's ID is part of its items' keys). */
	const workflows = new Map(PAYOUTS.map((op) => [op, payrollWorkflow(op)]));

	/**
	 * A read of the public API while n8n runs N items. Now and then such a read fails with
	 * `fetch failed` (ECONNRESET; about twice a case at 12,000 payees, near the start and the end
	 * of run 1, while n8n answered a new connection at once): the kept-alive connection was closed
	 * by n8n as the next request arrived on it, after n8n's event loop had been held for longer
	 * than its 5 s keep-alive timeout. Or n8n answers 503 "Database is not ready!": its database
	 * monitor's `SELECT 1` (every 2 s) timed out behind the run's writes to SQLite, and n8n refuses
	 * every request until the next ping succeeds (seen once in CI, at 6,000 payees). Such a read is
	 * tried again.
	 */
	async function read<T>(pathname: string): Promise<T> {
		for (let attempt = 1; ; attempt++) {
			try {
				const response = await stack!.n8n.publicApi<T>('GET', pathname);
				if (response.status === 503 && attempt < 10 && JSON.stringify(response.body).includes('Database is not ready')) {
					await sleep(2000);
					continue;
				}
				if (response.status !== 200) throw new Error(`GET /api/v1${pathname} → ${response.status}: ${JSON.stringify(response.body).slice(0, 500)}`);
				return response.body;
			} catch (error) {
				// (fetch's TypeError comes from another realm than jest's: matched by its message)
				if ((error as Error).message !== 'fetch failed' || attempt >= 5) throw error;
				await sleep(1000);
			}
		}
	}

	/** The workflow's executions, newest first, without their data (cheap while one runs). */
	const listed = async (id: string) => (await read<{ data: Listed[] }>(`/executions?workflowId=${id}&limit=250`)).data;

	/** The first execution of the workflow that `matches`, once it has finished, with its data. */
	async function finished(id: string, matches: (execution: Listed) => boolean, deadline: number): Promise<Listed> {
		for (;;) {
			const found = (await listed(id)).find(matches);
			if (found && !['new', 'running', 'waiting'].includes(found.status)) return await read<Listed>(`/executions/${found.id}?includeData=true`);
			if (Date.now() > deadline) throw new Error(`No finished execution of ${id} yet: ${JSON.stringify(found ?? null)}`);
			await sleep(1000);
		}
	}

	/**
	 * n8n's Retry of a failed execution, as the executions list does it, and the new execution once
	 * it has finished. n8n answers the call when the retry has finished; Node's fetch gives up
	 * waiting after 300 s (undici's headersTimeout) while n8n goes on, so the retry is found in the
	 * executions list (`retryOf`), and the call's answer checked when there is one.
	 */
	async function retry(id: string, failedId: string, loadWorkflow: boolean, deadline: number) {
		let refused: string | undefined;
		const call = stack!.n8n.rest('POST', `/executions/${failedId}/retry`, { loadWorkflow }).then(
			(response) => {
				if (response.status !== 200) refused = `retry ${failedId} → ${response.status}: ${JSON.stringify(response.body)}`;
			},
			() => undefined, // no answer in time: the executions list tells
		);
		const retried = await Promise.race([
			finished(id, (e) => e.retryOf === failedId, deadline),
			call.then(async () => {
				if (refused) throw new Error(refused);
				return await new Promise<never>(() => undefined); // answered: the list still decides
			}),
		]);
		await call;
		return retried;
	}

	/** The user fixes the last payee in the saved workflow: the unknown beneficiary mapped to `good`. */
	async function fixLastPayee(op: MoneyOperation, good: string) {
		const workflow = workflows.get(op)!;
		const fixed = op.parameters(`={{ $json.beneficiaryId === '${UNKNOWN_ID}' ? '${good}' : $json.beneficiaryId }}`);
		const nodes = workflow.nodes.map((n) => (n.name === 'Pay' ? { ...n, parameters: { ...(n.parameters as Record<string, unknown>), ...fixed } } : n));
		const put = await stack!.n8n.publicApi('PUT', `/workflows/${workflow.id}`, {
			name: workflow.name,
			nodes,
			connections: workflow.connections,
			settings: workflow.settings ?? {},
		});
		if (put.status !== 200) throw new Error(`PUT /api/v1/workflows/${workflow.id} → ${put.status}: ${JSON.stringify(put.body)}`);
	}

	/** Payouts the service accepted to these payees, in all. */
	const paidTo = (ids: string[]) => {
		const counts = payoutsPerBeneficiary(stack!.sandbox);
		return ids.reduce((sum, id) => sum + (counts.get(id) ?? 0), 0);
	};

	/** Requests to the operation's endpoint since the sandbox's log had `from` entries. */
	const sentSince = (op: MoneyOperation, from: number) =>
		stack!.sandbox.requests.slice(from).filter((r) => r.method === 'POST' && r.path === op.path).length;

	beforeAll(async () => {
		stack = await startStack({ references: 'lenient' });
		// Payee n (numbered on across both cases) is paid 1000 + n cents: at 50,000 payees a case, more
		// than the sandbox's starting balance of USD 10,000,000.
		stack.sandbox.controls.setWalletBalance('USD', Number.MAX_SAFE_INTEGER);
		newPayees = payeeMaker(stack.sandbox);
		const { n8n } = stack;
		await n8n.importWorkflows([...workflows.values()]);
		await n8n.start();
		for (const op of PAYOUTS) await n8n.publishNow(workflowId(op));
		for (const op of PAYOUTS) await stack!.n8n.waitForPublishedWebhook(webhookPath(op));
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
	});

	/** Steps' wall times, for WALLET_E2E_TIMING. */
	let timing: string[] = [];
	async function timed<T>(what: string, task: () => Promise<T>): Promise<T> {
		const startedAt = Date.now();
		const result = await task();
		timing.push(`${what} ${seconds(Date.now() - startedAt)} s`);
		return result;
	}

	test.each(PAYOUTS.map((op) => [op.label, op] as [string, MoneyOperation]))(
		`%s: ${N} payees, the last one refused; Retry pays nobody again; fixed and retried, every earlier payee already submitted`,
		async (_label, op) => {
			timing = [];
			try {
				await payrollThenRetries(op, Date.now() + CASE_TIMEOUT_MS - 60_000);
			} finally {
				if (process.env.WALLET_E2E_TIMING) process.stderr.write(`[e2e] payroll[${op.label},N=${N}]: ${timing.join(', ')}\n`);
			}
		},
		CASE_TIMEOUT_MS,
	);

	async function payrollThenRetries(op: MoneyOperation, deadline: number) {
		const { n8n, sandbox } = stack!;
		const id = workflowId(op);
		const payees = await timed(`${N - 1} payees created`, async () => await newPayees(N - 1));
		const ids = payees.map((p) => p.beneficiaryId);
		const rows = [...payees, { ...payees[0], invoiceId: 'INV-UNKNOWN', beneficiaryId: UNKNOWN_ID }].map((p, i) => ({ payee: i + 1, ...p }));
		sandbox.clearRequests(); // the payees' creation: not needed, and large at this N

		// Run 1: the production webhook; it fails at the last payee.
		expect(await postJson(`${n8n.baseUrl}/webhook/${webhookPath(op)}`, { month: '2026-11', payees: rows })).toBe(200);
		const failed = await timed('run 1 (waited for and read)', async () => await finished(id, (e) => !e.retryOf, deadline));
		timing.push(`run 1 in n8n ${seconds(duration(failed))} s`);
		expect(failed.status).toBe('error');
		expect(payRun(failed)?.error?.httpCode).toBe(op.refusedWith);
		const paid = paidTo(ids);

		// Retry with the original workflow: n8n runs Pay again for all N items.
		const before = sandbox.requests.length;
		const retried = await timed('retry (waited for and read)', async () => await retry(id, failed.id, false, deadline));
		timing.push(`retry in n8n ${seconds(duration(retried))} s`);
		const again = paidTo(ids) - paid;
		lines.push(`payroll[${op.label},N=${N}]: ${paid} paid in ${seconds(duration(failed))} s, retry sent ${again} again`);
		// The payees by how many times the service paid them: { 1: N − 1 } is "each once".
		expect({ paid, retrySentAgain: again, payeesByTimesPaid: paidTimes(sandbox, ids) }).toEqual({
			paid: N - 1,
			retrySentAgain: 0,
			payeesByTimesPaid: { 1: N - 1 },
		});
		expect(retried.status).toBe('error');
		expect(payRun(retried)?.error?.httpCode).toBe(op.refusedWith);
		// Of the N items the Retry ran, only the last (never paid) went to the service, refused again.
		expect(sentSince(op, before)).toBe(1);

		// The user fixes the last payee in the saved workflow and retries with it.
		const [last] = await newPayees(1);
		await fixLastPayee(op, last.beneficiaryId);
		const done = await timed('fixed retry (waited for and read)', async () => await retry(id, retried.id, true, deadline));
		timing.push(`fixed retry in n8n ${seconds(duration(done))} s`);
		expect(done.status).toBe('success');
		const output = (payRun(done)?.data?.main[0] ?? []).map((item) => item.json);
		expect(output).toHaveLength(N);
		const marked = output.slice(0, -1).filter((json) => json.alreadySubmitted === true && json.sent === false).length;
		expect(marked).toBe(N - 1);
		const lastPayout = sandbox.state.transactions.find((tx) => tx.kind === 'payout' && tx.beneficiaryId === last.beneficiaryId);
		expect(output[N - 1]).toMatchObject({ id: lastPayout?.id });
		expect(output[N - 1].alreadySubmitted).toBeUndefined();
		expect(paidTimes(sandbox, [...ids, last.beneficiaryId])).toEqual({ 1: N });
	}
});
