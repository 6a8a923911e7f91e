/**
 * Exactly-once for every operation that moves money or bills someone (support/moneyOperations.ts:
 * Payout → Initiate, Initiate (Legacy) and Finalize (Legacy), Swap → Finalize, Collection →
 * Initialize, Card → Create, Top Up and Withdraw) inside a real n8n, driven the way a user drives
 * it: production webhooks and the Wallet Payments Trigger under `n8n start`, Retry execution
 * through n8n's own REST API (`POST /rest/executions/<id>/retry`, with the original and with the
 * saved workflow), Retry On Fail, Continue On Fail, manual runs and "Execute step"
 * (`POST /rest/workflows/<id>/run`) on pinned data, and schedule runs. The sandbox counts what it
 * accepted, per row (payee, transaction, quote, payer, card user, card). Every path runs twice:
 * with a service that refuses reused references and with a lenient one that accepts them; the
 * counts must be the same. One line per path:
 *
 *   exactly-once[<path>]: <sent> sent for <intended> intended
 *
 * The scenarios are written once over the table of operations; the workflows of all of them are
 * imported in one go and published through the public API after `n8n start`.
 */
import { randomUUID } from 'crypto';

import { signBody, type ReferenceMode } from '../../tooling/sandbox';
import {
	describeE2E,
	executionWhen,
	executionsOf,
	sandboxApi,
	startStack,
	stopStack,
	waitForExecutions as waitForExecutionsOf,
	type ApiExecution,
	type Stack,
} from './support/e2e';
import { MONEY_OPERATIONS, type MoneyOperation, type OperationEnv, type Row } from './support/moneyOperations';
import { CREDENTIAL_ID, CREDENTIAL_NAME, WALLET_TRIGGER_TYPE, type WorkflowJson } from '../../tooling/n8n/n8n';
import { postJson } from '../../tooling/n8n/http';
import { graph, node, walletNode, type WorkflowNode } from '../../tooling/n8n/workflow';

const WEBHOOK_SECRET = 'whsec_exactly_once';
const SIGNATURE_HEADER = 'x-wallet-signature';
const MODES: ReferenceMode[] = ['unique', 'lenient'];
/** Payout → Initiate and Initiate (Legacy); only they also run the "503 before it was paid" path. */
const PAYOUTS = MONEY_OPERATIONS.filter((op) => op.resource === 'payout' && op.operation.startsWith('initiate'));
const OTHERS = MONEY_OPERATIONS.filter((op) => !PAYOUTS.includes(op));
const INITIATE = PAYOUTS.find((op) => op.operation === 'initiate')!;
/** test.each rows: the label (for the title) and the operation. */
const each = (ops: MoneyOperation[]) => ops.map((op) => [op.label, op] as [string, MoneyOperation]);

type Scenario = 'Retry' | 'OnFail' | 'Before' | 'Cof' | 'Event' | 'Editor' | 'Pinned' | 'Forgot' | 'Edited' | 'Period';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A 16-character workflow ID for this scenario, operation and mode. */
function workflowId(scenario: Scenario, op: MoneyOperation, mode?: ReferenceMode): string {
	return `Xo${scenario}${op.code}${mode === 'unique' ? 'U' : mode === 'lenient' ? 'L' : ''}`.padEnd(16, '0');
}

const webhookPath = (scenario: Scenario, op: MoneyOperation, mode: ReferenceMode) =>
	`${scenario.toLowerCase()}-${op.resource}-${op.operation}-${mode}`.toLowerCase();

/** `<label>, references <mode>` as the lines name an operation (without a mode: the label). */
const named = (op: MoneyOperation, mode?: ReferenceMode) => (mode ? `${op.label}, references ${mode}` : op.label);

/** The operation's node, one row per item, reading the row's field through an expression. */
function payNode(op: MoneyOperation, extra: Partial<WorkflowNode> & { parameters?: Record<string, unknown> } = {}): WorkflowNode {
	const { parameters = {}, ...settings } = extra;
	const own = op.parameters(`={{ $json.${op.field} }}`);
	return { ...walletNode('Pay', op.resource, op.operation, { ...own, ...parameters }), ...settings };
}

/** The saved workflow fixed: the bad value of item 3 mapped to the good one. */
const fixedParameters = (op: MoneyOperation, good: unknown) =>
	op.parameters(`={{ $json.${op.field} === '${op.bad}' ? '${String(good)}' : $json.${op.field} }}`);

const splitOut = (field: string) => node('One Item per Row', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: field, options: {} });

function webhookWorkflow(id: string, path: string, pay: WorkflowNode): WorkflowJson {
	const webhook = node('Rows Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { webhookId: randomUUID() });
	return graph(id, `Exactly once ${id}`, [webhook, splitOut('body.rows'), pay], [
		['Rows Webhook', 'One Item per Row'],
		['One Item per Row', 'Pay'],
	]);
}

function eventWorkflow(id: string, pay: WorkflowNode): WorkflowJson {
	const trigger = node(
		'Wallet Payments Trigger',
		WALLET_TRIGGER_TYPE,
		1,
		// De-duplication off in the trigger, so that a repeated event really starts two executions.
		{ events: ['*'], verifySignature: true, signatureHeader: SIGNATURE_HEADER, signatureAlgorithm: 'sha512', options: { dedupeWindow: 0 } },
		{ webhookId: randomUUID(), credentials: { walletPaymentsApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } } },
	);
	return graph(id, `Exactly once events ${id}`, [trigger, splitOut('data.rows'), pay], [
		['Wallet Payments Trigger', 'One Item per Row'],
		['One Item per Row', 'Pay'],
	]);
}

const MANUAL_TRIGGER = 'When clicking ‘Execute workflow’';

/** Manual and Schedule triggers → the rows (pinned in the test, as a user pins a sheet's rows) → Pay. */
function editorWorkflow(id: string, op: MoneyOperation): WorkflowJson {
	const manual = node(MANUAL_TRIGGER, 'n8n-nodes-base.manualTrigger', 1, {});
	const schedule = node('Every Month', 'n8n-nodes-base.scheduleTrigger', 1.2, { rule: { interval: [{ field: 'months' }] } });
	const rows = node('Rows', 'n8n-nodes-base.set', 3.4, { mode: 'raw', jsonOutput: '{"rows": []}', options: {} });
	return graph(id, `Exactly once in the editor ${id}`, [manual, schedule, rows, splitOut('rows'), payNode(op)], [
		[MANUAL_TRIGGER, 'Rows'],
		['Every Month', 'Rows'],
		['Rows', 'One Item per Row'],
		['One Item per Row', 'Pay'],
	]);
}

describeE2E('exactly-once money movement in n8n (`n8n start`, REST retries, manual runs)', () => {
	let stack: Stack | undefined;
	const lines: string[] = [];
	let counter = 0;

	const api = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> =>
		await sandboxApi<T>(stack!.sandbox, method, path, body);

	const env: OperationEnv = {
		get sandbox() {
			return stack!.sandbox;
		},
		api,
		next: () => ++counter,
	};

	/** Three fresh rows the service accepts, each with its own invoice number. */
	const threeRows = async (op: MoneyOperation): Promise<Row[]> =>
		(await op.rows(env)).map((row) => ({ ...row, invoice: `INV-${env.next()}` }));

	/** The rows with item 3's field set to the value the service refuses. */
	const withBadRow3 = (op: MoneyOperation, rows: Row[]) => [rows[0], rows[1], { ...rows[2], [op.field]: op.bad }];

	/** What the service accepted for each row. */
	const counts = (op: MoneyOperation, rows: Row[]) => rows.map((row) => op.count(stack!.sandbox.state, row));

	/** Requests to the operation's endpoint that carried each row's value of `field`. */
	const requests = (op: MoneyOperation, rows: Row[]) =>
		rows.map(
			(row) =>
				stack!.sandbox.requests.filter(
					(r) => r.method === 'POST' && r.path === op.path && (r.body as Row | undefined)?.[op.field] === row[op.field],
				).length,
		);

	/**
	 * Counts what the service accepted for these rows, records the line, and checks `runsIntended`
	 * each. For what can be done only once, also that each row was sent once.
	 */
	function expectPerRow(path: string, op: MoneyOperation, rows: Row[], runsIntended = 1) {
		const done = counts(op, rows);
		lines.push(`exactly-once[${path}]: ${done.reduce((sum, n) => sum + n, 0)} sent for ${rows.length * runsIntended} intended`);
		expect(done).toEqual(rows.map(() => runsIntended));
		if (op.repeat !== 'again') expect(requests(op, rows)).toEqual(rows.map(() => 1));
	}

	const executions = async (id: string) => await executionsOf(stack!.n8n, id);
	const waitForExecutions = async (id: string, count: number, timeoutMs = 30000) =>
		await waitForExecutionsOf(stack!.n8n, id, count, timeoutMs);

	/** One execution, once it has finished. */
	const finished = async (executionId: string, timeoutMs = 30000): Promise<ApiExecution> =>
		await executionWhen(stack!.n8n, executionId, { timeoutMs });

	const url = (path: string) => `${stack!.n8n.baseUrl}/webhook/${path}`;
	const postRows = async (scenario: Scenario, op: MoneyOperation, mode: ReferenceMode, body: Record<string, unknown>) =>
		await postJson(url(webhookPath(scenario, op, mode)), JSON.stringify(body));

	/** n8n's "Retry" of a failed execution, as the executions list does it. */
	async function retry(executionId: string, withSavedWorkflow: boolean) {
		const response = await stack!.n8n.rest<{ data: { id: string; status: string } }>('POST', `/executions/${executionId}/retry`, {
			loadWorkflow: withSavedWorkflow,
		});
		if (response.status !== 200) throw new Error(`retry ${executionId} → ${response.status}: ${JSON.stringify(response.body)}`);
		return response.body.data;
	}

	/** The Pay node's last run in an execution: its output items, or its error. */
	const payRun = (execution: ApiExecution) => execution.data?.resultData.runData.Pay?.at(-1);
	const payOutput = (execution: ApiExecution) => (payRun(execution)?.data?.main[0] ?? []).map((item) => item.json);

	/** Saves the workflow with its Pay node changed, as the user's edit in the editor does. */
	async function saveWithPay(id: string, change: (pay: Record<string, unknown>) => Record<string, unknown>) {
		const workflow = workflows.find((w) => w.id === id)!;
		const nodes = workflow.nodes.map((n) => (n.name === 'Pay' ? change(n) : n));
		const put = await stack!.n8n.publicApi('PUT', `/workflows/${id}`, { name: workflow.name, nodes, connections: workflow.connections, settings: workflow.settings ?? {} });
		expect(put.status).toBe(200);
	}

	const workflows: WorkflowJson[] = [];
	/** Production webhook paths of the published workflows (those without are run in the editor). */
	const published = new Map<string, string>();
	const publish = (workflow: WorkflowJson, path: string) => {
		workflows.push(workflow);
		published.set(workflow.id, path);
	};
	/** A scenario's workflow started by a Webhook node at `webhookPath(scenario, op, mode)`. */
	const viaWebhook = (scenario: Scenario, op: MoneyOperation, mode: ReferenceMode, pay: WorkflowNode) => {
		const path = webhookPath(scenario, op, mode);
		publish(webhookWorkflow(workflowId(scenario, op, mode), path, pay), path);
	};

	// Workflows of every scenario, operation and mode, imported before `n8n start`, published after.
	for (const mode of MODES) {
		for (const op of MONEY_OPERATIONS) {
			// Items per Batch 1: "item 2 of 3" is about a run sent one item after another (with the
			// default, item 3 is in flight with item 2: test/nodes/WalletPayments/engine/exactlyOnce/send.test.ts).
			const retryOnFail = { retryOnFail: true, maxTries: 2, waitBetweenTries: 100, parameters: { batching: { itemsPerBatch: 1 } } };
			viaWebhook('Retry', op, mode, payNode(op));
			viaWebhook('OnFail', op, mode, payNode(op, retryOnFail));
			if (PAYOUTS.includes(op)) viaWebhook('Before', op, mode, payNode(op, retryOnFail));
			const byInvoice = { duplicateProtection: { idempotencyKey: '={{ $json.invoice }}' } };
			viaWebhook('Cof', op, mode, payNode(op, { onError: 'continueRegularOutput', parameters: byInvoice }));
			const events = eventWorkflow(workflowId('Event', op, mode), payNode(op));
			const trigger = events.nodes.find((n) => n.name === 'Wallet Payments Trigger')!;
			publish(events, `${trigger.webhookId as string}/webhook`);
			if (OTHERS.includes(op)) workflows.push(editorWorkflow(workflowId('Editor', op, mode), op));
		}
	}
	// Payout → Initiate, once, for a Retry after the store dropped its run's records (its own workflow:
	// the Retry scenario's are fixed by the user as it ends).
	viaWebhook('Forgot', INITIATE, 'unique', payNode(INITIATE));
	// Payout → Initiate, once, for a Retry with the saved workflow after the Pay node was edited.
	viaWebhook('Edited', INITIATE, 'unique', payNode(INITIATE));
	// Payout → Initiate with Row ID and Period, once, for a node replaced by one of the same name.
	viaWebhook('Period', INITIATE, 'unique', payNode(INITIATE, { parameters: { duplicateProtection: { rowId: '={{ $json.invoice }}', period: '2026-11' } } }));
	// Payout → Initiate in the editor, once (with the service as the last mode left it).
	workflows.push(editorWorkflow(workflowId('Editor', INITIATE), INITIATE));
	// The same with both triggers' output pinned too (n8n 1.x names no trigger: issue #32).
	workflows.push(editorWorkflow(workflowId('Pinned', INITIATE), INITIATE));

	beforeAll(async () => {
		stack = await startStack(
			{ webhook: { secret: WEBHOOK_SECRET, header: SIGNATURE_HEADER, algorithm: 'sha512', retryDelaysMs: [] } },
			{ env: { EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true' } },
		);
		const { n8n } = stack;
		await n8n.importWorkflows(workflows);
		await n8n.start();
		const startedAt = Date.now();
		for (const id of published.keys()) await n8n.publishNow(id);
		for (const path of published.values()) await n8n.waitForWebhook(path);
		if (process.env.WALLET_E2E_TIMING) {
			process.stderr.write(`[e2e] ${published.size} workflows published through the API: ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`);
		}
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
	});

	describe.each(MODES)('with a service whose references are %s', (mode) => {
		beforeAll(() => stack!.sandbox.configure({ references: mode }));

		test.each(each(MONEY_OPERATIONS))(
			'%s: item 3 refused; Retry execution with the original and the saved workflow, twice; the data fixed; retried again',
			async (_label, op) => {
				const id = workflowId('Retry', op, mode);
				const before = (await executions(id)).length;
				const rows = await threeRows(op);
				expect(await postRows('Retry', op, mode, { rows: withBadRow3(op, rows) })).toBe(200);
				let [failed] = (await waitForExecutions(id, before + 1)).slice(before);
				expect(failed.status).toBe('error');
				expect(payRun(failed)?.error?.httpCode).toBe(op.refusedWith);
				expect(counts(op, rows)).toEqual([1, 1, 0]);

				// The executions list's Retry, "with original workflow" and "with currently saved workflow", twice.
				for (const saved of [false, true, false, true]) {
					const retried = await retry(failed.id, saved);
					expect(retried.status).toBe('error');
					failed = { ...failed, id: retried.id };
				}
				expect(counts(op, rows)).toEqual([1, 1, 0]);

				// The user fixes the data: the saved workflow maps item 3's bad value to the right one.
				await saveWithPay(id, (n) => ({ ...n, parameters: { ...(n.parameters as Record<string, unknown>), ...fixedParameters(op, rows[2][op.field]) } }));
				const done = await retry(failed.id, true);
				expect(done.status).toBe('success');
				expect(payOutput(await finished(done.id)).map((json) => json.alreadySubmitted ?? false)).toEqual([true, true, false]);
				expectPerRow(`retry execution ×4 (original and saved workflow), then fixed and retried: ${named(op, mode)}`, op, rows);
			},
		);

		test.each(each(MONEY_OPERATIONS))('%s: Retry On Fail after a 503 on item 2 that was carried out', async (_label, op) => {
			const id = workflowId('OnFail', op, mode);
			const rows = await threeRows(op);
			stack!.sandbox.injectFailure({ method: 'POST', path: op.path, status: 503, phase: 'after', skip: 1 });
			expect(await postRows('OnFail', op, mode, { rows })).toBe(200);
			const [execution] = await waitForExecutions(id, 1);
			expect(execution.status).toBe('success');
			expect(payOutput(execution).map((json) => json.outcome ?? 'sent')).toEqual(['accepted', 'unknown', 'sent']);
			expectPerRow(`retry-on-fail, 503 after ${op.item} 2 was ${op.done}: ${named(op, mode)}`, op, rows);
		});

		test.each(each(PAYOUTS))('%s: Retry On Fail after a 503 on payee 2 that was not paid: not resent, reported unknown', async (_label, op) => {
			const id = workflowId('Before', op, mode);
			const rows = await threeRows(op);
			stack!.sandbox.injectFailure({ method: 'POST', path: op.path, status: 503, skip: 1 });
			expect(await postRows('Before', op, mode, { rows })).toBe(200);
			const [execution] = await waitForExecutions(id, 1);
			expect(execution.status).toBe('success');
			expect(payOutput(execution)[1]).toMatchObject({ alreadySubmitted: true, sent: false, outcome: 'unknown' });
			const done = counts(op, rows);
			expect(done).toEqual([1, 0, 1]);
			lines.push(
				`exactly-once[retry-on-fail, 503 before ${op.item} 2 was ${op.done} (reported "unknown", never resent automatically): ${named(op, mode)}]: ${done.reduce((sum, n) => sum + n, 0)} sent for 3 intended`,
			);
		});

		test.each(each(MONEY_OPERATIONS))(
			'%s: Continue On Fail, then a later run with the failed row fixed (Idempotency Key = invoice)',
			async (_label, op) => {
				const id = workflowId('Cof', op, mode);
				const rows = await threeRows(op);
				expect(await postRows('Cof', op, mode, { upload: 'monday.csv', rows: withBadRow3(op, rows) })).toBe(200);
				const [first] = await waitForExecutions(id, 1);
				expect(first.status).toBe('success');
				expect(payOutput(first)[2]).toMatchObject({ httpCode: op.refusedWith });

				expect(await postRows('Cof', op, mode, { upload: 'monday-fixed.csv', rows })).toBe(200);
				const [, later] = await waitForExecutions(id, 2);
				expect(later.status).toBe('success');
				expect(payOutput(later).map((json) => json.alreadySubmitted ?? false)).toEqual([true, true, false]);
				expectPerRow(`continue-on-fail, then the failed row sent again by a later run: ${named(op, mode)}`, op, rows);
			},
		);

		test.each(each(MONEY_OPERATIONS))('%s: one event delivered twice, then another delivered three times at once', async (_label, op) => {
			const id = workflowId('Event', op, mode);
			const eventUrl = url(published.get(id)!);
			const deliver = async (body: string) => await postJson(eventUrl, body, { [SIGNATURE_HEADER]: signBody(body, WEBHOOK_SECRET, 'sha512') });

			const first = await threeRows(op);
			const event1 = JSON.stringify({ event: 'payroll.ready', data: { id: `evt-${randomUUID()}`, rows: first } });
			expect(await deliver(event1)).toBe(200);
			await waitForExecutions(id, 1);
			expect(await deliver(event1)).toBe(200);
			const twice = await waitForExecutions(id, 2);
			expect(twice.map((e) => e.status)).toEqual(['success', 'success']);
			expectPerRow(`one event delivered twice (two executions): ${named(op, mode)}`, op, first);

			const second = await threeRows(op);
			const event2 = JSON.stringify({ event: 'payroll.ready', data: { id: `evt-${randomUUID()}`, rows: second } });
			expect(await Promise.all([deliver(event2), deliver(event2), deliver(event2)])).toEqual([200, 200, 200]);
			const all = await waitForExecutions(id, 5);
			expect(all.map((e) => e.status)).toEqual(['success', 'success', 'success', 'success', 'success']);
			expectPerRow(`one event delivered 3 times at once (three concurrent executions): ${named(op, mode)}`, op, second);
		});

		test.each(each(OTHERS))(
			'%s in the editor: the same pinned rows run twice and Execute step are done once; two schedule runs',
			async (_label, op) => await inTheEditor(op, mode),
		);
	});

	test('Payout → Initiate: a Retry after n8n\'s store dropped the run\'s records (a year of nights): nothing sent, the items named', async () => {
		const [op, mode] = [INITIATE, 'unique' as const];
		stack!.sandbox.configure({ references: mode });
		const id = workflowId('Forgot', op, mode);
		const rows = await threeRows(op);
		expect(await postRows('Forgot', op, mode, { rows: withBadRow3(op, rows) })).toBe(200);
		const [failed] = await waitForExecutions(id, 1);
		expect([failed.status, counts(op, rows)]).toEqual(['error', [1, 1, 0]]);
		// The Pay node's row as a year of nights leaves it: full of newer records (95% of the 620,000
		// the node keeps), this run's dropped, as n8n's limit drops the oldest.
		stack!.n8n.sqlite(
			"UPDATE processed_data SET value = (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 588999) SELECT json_object('mode', 'entries', 'data', json_group_array(printf('later%07d', i))) FROM n) " +
				`WHERE workflowId = '${id}'`,
		);
		const retried = await retry(failed.id, false);
		expect(retried.status).toBe('error');
		expect(payRun(await finished(retried.id))?.error?.message).toBe(
			"Nothing was sent: this Retry repeats a run whose records n8n's store no longer keeps, so it cannot tell which of items 0–2 that run sent",
		);
		lines.push(`exactly-once[retry after the store dropped the run's records: ${named(op, mode)}]: ${counts(op, rows).reduce((sum, n) => sum + n, 0)} sent for 2 intended (the Retry refused)`);
		expect(counts(op, rows)).toEqual([1, 1, 0]);
	});

	test('Payout → Initiate: item 3 refused, then the Pay node edited (its description, and item 3 fixed), Retry with the saved workflow: items 1–2 not paid again', async () => {
		const [op, mode] = [INITIATE, 'unique' as const];
		stack!.sandbox.configure({ references: mode });
		const id = workflowId('Edited', op, mode);
		const rows = await threeRows(op);
		expect(await postRows('Edited', op, mode, { rows: withBadRow3(op, rows) })).toBe(200);
		const [failed] = await waitForExecutions(id, 1);
		expect([failed.status, counts(op, rows)]).toEqual(['error', [1, 1, 0]]);
		// The user edits the node: every request's description changes (so does every derived key),
		// and item 3's bad value is mapped to the right one.
		const edited = { ...fixedParameters(op, rows[2][op.field]), description: 'Payroll, December' };
		await saveWithPay(id, (n) => ({ ...n, parameters: { ...(n.parameters as Record<string, unknown>), ...edited } }));
		const done = await retry(failed.id, true);
		expect(done.status).toBe('success');
		const out = payOutput(await finished(done.id));
		expect(out.map((json) => [json.alreadySubmitted ?? false, json.outcome ?? 'sent'])).toEqual([[true, 'accepted'], [true, 'accepted'], [false, 'sent']]);
		expect(stack!.sandbox.requests.filter((r) => r.method === 'POST' && r.path === op.path).at(-1)?.body).toMatchObject({ description: 'Payroll, December' });
		expectPerRow(`retry with the saved workflow after the node was edited: ${named(op, mode)}`, op, rows);
	});

	test('Payout → Initiate with Row ID and Period: the Pay node replaced by a new one of the same name (its records gone), the same rows again: refused, nobody paid twice', async () => {
		const [op, mode] = [INITIATE, 'unique' as const];
		stack!.sandbox.configure({ references: mode });
		const id = workflowId('Period', op, mode);
		const rows = await threeRows(op);
		expect(await postRows('Period', op, mode, { rows })).toBe(200);
		const [first] = await waitForExecutions(id, 1);
		expect([first.status, counts(op, rows)]).toEqual(['success', [1, 1, 1]]);
		// The user deletes the Pay node and adds a new one, named as the old one was: a new node ID.
		await saveWithPay(id, (n) => ({ ...n, id: randomUUID() }));
		// Published again, as the editor's Publish does after an edit: production runs the new version.
		expect((await stack!.n8n.publicApi('POST', `/workflows/${id}/deactivate`, {})).status).toBe(200);
		await stack!.n8n.publishNow(id);
		await stack!.n8n.waitForPublishedWebhook(webhookPath('Period', op, mode));
		expect(await postRows('Period', op, mode, { rows })).toBe(200);
		const [, again] = await waitForExecutions(id, 2);
		expect(again.status).toBe('error');
		expect(payRun(again)?.error?.message).toBe(
			'Nothing was sent: a node named Pay paid rows in period 2026-11 before, and this one finds none of items 0–2 sent: it replaced that node, and n8n keeps records per node',
		);
		expectPerRow(`the same period again after the node was replaced: ${named(op, mode)}`, op, rows);
	});

	describe('in the editor: pinned rows, Execute workflow twice, Execute step, and two schedule runs', () => {
		test('the same pinned rows: run twice and Execute step pay once; two schedule runs pay twice more', async () => {
			await inTheEditor(INITIATE);
		});

		// The key comes from the trigger that started the run, not from another trigger's pinned
		// output (readable in an expression without that trigger running), on n8n 1.x and 2.x alike.
		test('both triggers pinned: a run from each trigger is its own run; from the same trigger again, paid once', async () => {
			const op = INITIATE;
			const id = workflowId('Pinned', op);
			const rows = await threeRows(op);
			const pinData = {
				Rows: [{ json: { rows } }],
				[MANUAL_TRIGGER]: [{ json: {} }],
				'Every Month': [{ json: { timestamp: '2026-11-01T00:00:00.000+00:00', Month: 'November' } }],
			};
			const saved = await stack!.n8n.rest('PATCH', `/workflows/${id}`, { pinData });
			if (saved.status !== 200) throw new Error(`PATCH /rest/workflows/${id} → ${saved.status}: ${JSON.stringify(saved.body)}`);

			const fromManual = await run(id, { triggerToStartFrom: { name: MANUAL_TRIGGER } });
			expect(fromManual.status).toBe('success');
			expect(counts(op, rows)).toEqual([1, 1, 1]);
			const fromSchedule = await run(id, { triggerToStartFrom: { name: 'Every Month' } });
			expect(fromSchedule.status).toBe('success');
			expect(payOutput(fromSchedule).some((json) => json.alreadySubmitted)).toBe(false);
			expect(counts(op, rows)).toEqual([2, 2, 2]);
			const again = await run(id, { triggerToStartFrom: { name: 'Every Month' } });
			expect(again.status).toBe('success');
			expect(payOutput(again).map((json) => json.alreadySubmitted)).toEqual([true, true, true]);
			expectPerRow(`both triggers pinned, a run from each, then from the schedule again: ${named(op)}`, op, rows, 2);
		});
	});

	/** A manual run through the editor's API; resolves with the finished execution. */
	async function run(id: string, body: Record<string, unknown>): Promise<ApiExecution> {
		const started = await stack!.n8n.runManually(id, body);
		const executionId = started.body.data?.executionId;
		if (started.status !== 200 || !executionId) {
			throw new Error(`POST /rest/workflows/${id}/run → ${started.status}: ${JSON.stringify(started.body)}`);
		}
		return await finished(executionId);
	}

	/** Pins the rows on the Rows node and saves the workflow, as the editor does. */
	async function pin(id: string, rows: Row[]): Promise<void> {
		const response = await stack!.n8n.rest('PATCH', `/workflows/${id}`, { pinData: { Rows: [{ json: { rows } }] } });
		if (response.status !== 200) throw new Error(`PATCH /rest/workflows/${id} → ${response.status}: ${JSON.stringify(response.body)}`);
	}

	/**
	 * Execute workflow twice and Execute step on the same pinned rows: done once. Then two runs of
	 * the Schedule Trigger, which are new runs: identical rows are done each time — or, for what
	 * can be done only once, not sent again and output as already submitted (the ID is the key).
	 */
	async function inTheEditor(op: MoneyOperation, mode?: ReferenceMode) {
		const id = workflowId('Editor', op, mode);
		const rows = await threeRows(op);
		await pin(id, rows);
		const fromManual = { triggerToStartFrom: { name: MANUAL_TRIGGER } };

		const first = await run(id, fromManual);
		expect(first.status).toBe('success');
		expect(counts(op, rows)).toEqual([1, 1, 1]);

		const again = await run(id, fromManual);
		expect(again.status).toBe('success');
		expect(payOutput(again).map((json) => json.alreadySubmitted)).toEqual([true, true, true]);

		// "Execute step" on Pay with the first run's data upstream of it (what the editor sends).
		const upstream = { ...first.data!.resultData.runData };
		delete upstream.Pay;
		const step = await run(id, { runData: upstream, destinationNode: { nodeName: 'Pay', mode: 'inclusive' } });
		expect(step.status).toBe('success');
		expect(payOutput(step).map((json) => json.alreadySubmitted)).toEqual([true, true, true]);
		expectPerRow(`re-running in the editor (Execute workflow twice, Execute step) on pinned rows: ${named(op, mode)}`, op, rows);

		// Two runs of the Schedule Trigger are two different runs.
		const { repeat } = op;
		for (let i = 0; i < 2; i++) {
			const scheduled = await run(id, { triggerToStartFrom: { name: 'Every Month' } });
			if (repeat === 'again') {
				expect(scheduled.status).toBe('success');
				expect(payOutput(scheduled).some((json) => json.alreadySubmitted)).toBe(false);
			} else {
				expect(scheduled.status).toBe('success');
				expect(payOutput(scheduled)).toEqual(rows.map(() => expect.objectContaining({ alreadySubmitted: true, sent: false, outcome: 'accepted' })));
			}
			await sleep(1100); // the schedule trigger's output carries the time to the second
		}
		if (repeat === 'again') {
			expectPerRow(`two scheduled runs with identical rows, each ${op.done} (after the editor run above): ${named(op, mode)}`, op, rows, 3);
		} else {
			expectPerRow(
				`two scheduled runs with identical rows, not sent (${repeat.onceBy} is the key), output as already submitted: nothing ${op.done} again (after the editor run above): ${named(op, mode)}`,
				op,
				rows,
			);
		}
	}
});
