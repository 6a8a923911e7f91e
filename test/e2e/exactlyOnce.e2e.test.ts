/**
 * Exactly-once money movement inside a real n8n, driven the way a user drives it: production
 * webhooks and the Wallet Payments Trigger under `n8n start`, Retry execution through n8n's own
 * REST API (`POST /rest/executions/<id>/retry`, with the original and with the saved workflow),
 * Retry On Fail, Continue On Fail, manual runs and "Execute step" (`POST /rest/workflows/<id>/run`)
 * on pinned data, and schedule runs. The sandbox counts the payouts it accepted, per payee. The
 * whole suite runs twice: with a service that refuses reused references and with a lenient one
 * that accepts them; the counts must be the same. One line per path:
 *
 *   exactly-once[<path>]: <sent> sent for <intended> intended
 */
import { randomUUID } from 'crypto';

import { signBody, type ReferenceMode } from '../sandbox';
import { describeE2E, startStack, stopStack, type Stack } from './support/e2e';
import { CREDENTIAL_ID, CREDENTIAL_NAME, WALLET_TRIGGER_TYPE, type NodeRun, type WorkflowJson } from './support/n8n';
import { graph, node, walletNode, type WorkflowNode } from './support/workflow';

const UNKNOWN_BENEFICIARY = '0e0e0e0e-0000-4000-8000-000000000000';
const WEBHOOK_SECRET = 'whsec_exactly_once';
const SIGNATURE_HEADER = 'x-wallet-signature';
const CALLBACK_URL = 'https://n8n.example.com/webhook/wallet-events';
const MODES: ReferenceMode[] = ['unique', 'lenient'];
const OPERATIONS = ['initiate', 'initiateLegacy'] as const;
type PayOperation = (typeof OPERATIONS)[number];
const LABEL: Record<PayOperation, string> = { initiate: 'Initiate', initiateLegacy: 'Initiate (Legacy)' };

interface ApiExecution {
	id: string;
	status: string;
	finished: boolean;
	mode: string;
	data?: { resultData: { runData: Record<string, NodeRun[]> } };
}

interface Payee {
	beneficiaryId: string;
	amount: number;
	email: string;
	invoice: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A 16-character workflow ID for this scenario, operation and mode. */
function workflowId(scenario: string, operation: PayOperation, mode: ReferenceMode): string {
	return `Xo${scenario}${operation === 'initiate' ? 'I' : 'L'}${mode === 'unique' ? 'U' : 'L'}`.padEnd(16, '0');
}

/** The paying node: Payout → Initiate or Initiate (Legacy), one payee per item. */
function payNode(operation: PayOperation, extra: Partial<WorkflowNode> & { parameters?: Record<string, unknown> } = {}): WorkflowNode {
	const { parameters = {}, ...settings } = extra;
	const common = {
		sourceWalletCurrency: 'USD',
		amount: '={{ $json.amount }}',
		customerEmail: '={{ $json.email }}',
		description: 'Payroll',
		beneficiaryId: { __rl: true, mode: 'id', value: '={{ $json.beneficiaryId }}' },
	};
	const specific = operation === 'initiate' ? { beneficiaryMode: 'id' } : { callbackUrl: CALLBACK_URL };
	return { ...walletNode('Pay', 'payout', operation, { ...common, ...specific, ...parameters }), ...settings };
}

const splitOut = (field: string) => node('One Item per Payee', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: field, options: {} });

function webhookWorkflow(id: string, path: string, pay: WorkflowNode): WorkflowJson {
	const webhook = node('Payroll Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { webhookId: randomUUID() });
	return graph(id, `Exactly once ${id}`, [webhook, splitOut('body.payees'), pay], [
		['Payroll Webhook', 'One Item per Payee'],
		['One Item per Payee', 'Pay'],
	]);
}

const EDITOR_WORKFLOW = 'XoEditorPinned00';
const MANUAL_TRIGGER = 'When clicking ‘Execute workflow’';

/** Manual and Schedule triggers → the payees, pinned as a user pins a sheet's rows → Pay. */
function editorWorkflow(payees: Payee[]): WorkflowJson {
	const manual = node(MANUAL_TRIGGER, 'n8n-nodes-base.manualTrigger', 1, {});
	const schedule = node('Every Month', 'n8n-nodes-base.scheduleTrigger', 1.2, { rule: { interval: [{ field: 'months' }] } });
	const rows = node('Payees', 'n8n-nodes-base.set', 3.4, { mode: 'raw', jsonOutput: '{"payees": []}', options: {} });
	const workflow = graph(EDITOR_WORKFLOW, 'Exactly once in the editor', [manual, schedule, rows, splitOut('payees'), payNode('initiate')], [
		[MANUAL_TRIGGER, 'Payees'],
		['Every Month', 'Payees'],
		['Payees', 'One Item per Payee'],
		['One Item per Payee', 'Pay'],
	]);
	return { ...workflow, pinData: { Payees: [{ json: { payees } }] } };
}

describeE2E('exactly-once money movement in n8n (`n8n start`, REST retries, manual runs)', () => {
	let stack: Stack | undefined;
	const lines: string[] = [];
	let payeeCounter = 0;

	/** Payouts the sandbox accepted for each payee's beneficiary. */
	const paidTo = (beneficiaryId: string) =>
		stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout' && tx.beneficiaryId === beneficiaryId).length;

	/** Counts the payouts for these payees, records the line, and checks exactly one each. */
	function expectOncePerPayee(path: string, payees: string[], runsIntended = 1) {
		const sent = payees.reduce((sum, id) => sum + paidTo(id), 0);
		const intended = payees.length * runsIntended;
		lines.push(`exactly-once[${path}]: ${sent} sent for ${intended} intended`);
		expect(payees.map(paidTo)).toEqual(payees.map(() => runsIntended));
	}

	async function api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
		const { sandbox } = stack!;
		const response = await fetch(`${sandbox.url}${path}`, {
			method,
			headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const parsed = (await response.json()) as { data: T };
		if (response.status !== 200) throw new Error(`${method} ${path} → ${response.status}: ${JSON.stringify(parsed)}`);
		return parsed.data;
	}

	/** Three payees, each a fresh saved beneficiary in the sandbox. */
	async function threePayees(): Promise<Payee[]> {
		const payees: Payee[] = [];
		for (let i = 0; i < 3; i++) {
			const n = ++payeeCounter;
			const beneficiary = await api<{ id: string }>('POST', '/api/v2/beneficiaries', {
				country: 'KE',
				currency: 'KES',
				customerEmail: `payee${n}@example.com`,
				destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: `Payee ${n}`, accountNumber: '254712345678' },
			});
			payees.push({ beneficiaryId: beneficiary.id, amount: 1000 + n, email: `payee${n}@example.com`, invoice: `INV-${n}` });
		}
		return payees;
	}

	async function executions(id: string): Promise<ApiExecution[]> {
		const response = await stack!.n8n.publicApi<{ data: ApiExecution[] }>('GET', `/executions?workflowId=${id}&includeData=true&limit=100`);
		if (response.status !== 200) throw new Error(`GET /api/v1/executions → ${response.status}: ${JSON.stringify(response.body)}`);
		return [...response.body.data].sort((a, b) => Number(a.id) - Number(b.id));
	}

	async function waitForExecutions(id: string, count: number, timeoutMs = 30000): Promise<ApiExecution[]> {
		const deadline = Date.now() + timeoutMs;
		let last: ApiExecution[] = [];
		while (Date.now() < deadline) {
			last = await executions(id);
			if (last.length >= count && last.every((e) => e.status !== 'running' && e.status !== 'new')) return last;
			await sleep(200);
		}
		throw new Error(`Expected ${count} finished executions of ${id}, have ${JSON.stringify(last.map((e) => [e.id, e.status]))}`);
	}

	async function postJson(url: string, body: string, headers: Record<string, string> = {}) {
		const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
		return response.status;
	}

	/** n8n's "Retry" of a failed execution, as the executions list does it. */
	async function retry(executionId: string, withSavedWorkflow: boolean) {
		const response = await stack!.n8n.rest<{ data: { id: string; status: string } }>('POST', `/executions/${executionId}/retry`, {
			loadWorkflow: withSavedWorkflow,
		});
		if (response.status !== 200) throw new Error(`retry ${executionId} → ${response.status}: ${JSON.stringify(response.body)}`);
		return response.body.data;
	}

	/** The Pay node's output items of an execution. */
	const payOutput = (execution: ApiExecution) =>
		(execution.data?.resultData.runData.Pay?.at(-1)?.data?.main[0] ?? []).map((item) => item.json);

	const workflows: WorkflowJson[] = [];
	let editorPayees: Payee[] = [];
	const url = (path: string) => `${stack!.n8n.baseUrl}/webhook/${path}`;

	// Workflows of every scenario, for both modes, imported and published before `n8n start`.
	for (const mode of MODES) {
		for (const operation of OPERATIONS) {
			const tag = `${operation}-${mode}`;
			workflows.push(webhookWorkflow(workflowId('Retry', operation, mode), `retry-${tag}`, payNode(operation)));
			workflows.push(
				webhookWorkflow(
					workflowId('OnFail', operation, mode),
					`onfail-${tag}`,
					payNode(operation, { retryOnFail: true, maxTries: 2, waitBetweenTries: 100 }),
				),
			);
			workflows.push(
				webhookWorkflow(
					workflowId('Before', operation, mode),
					`before-${tag}`,
					payNode(operation, { retryOnFail: true, maxTries: 2, waitBetweenTries: 100 }),
				),
			);
			workflows.push(
				webhookWorkflow(
					workflowId('Cof', operation, mode),
					`cof-${tag}`,
					payNode(operation, { onError: 'continueRegularOutput', parameters: { duplicateProtection: { idempotencyKey: '={{ $json.invoice }}' } } }),
				),
			);
			const trigger = node(
				'Wallet Payments Trigger',
				WALLET_TRIGGER_TYPE,
				1,
				// De-duplication off in the trigger, so that a repeated event really starts two executions.
				{ events: ['*'], verifySignature: true, signatureHeader: SIGNATURE_HEADER, signatureAlgorithm: 'sha512', options: { dedupeWindow: 0 } },
				{ webhookId: randomUUID(), credentials: { walletPaymentsApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } } },
			);
			workflows.push(
				graph(workflowId('Event', operation, mode), `Exactly once events ${tag}`, [trigger, splitOut('data.payees'), payNode(operation)], [
					['Wallet Payments Trigger', 'One Item per Payee'],
					['One Item per Payee', 'Pay'],
				]),
			);
		}
	}

	beforeAll(async () => {
		stack = await startStack(
			{ webhook: { secret: WEBHOOK_SECRET, header: SIGNATURE_HEADER, algorithm: 'sha512', retryDelaysMs: [] } },
			{ env: { EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true' } },
		);
		const { n8n } = stack;
		editorPayees = await threePayees();
		workflows.push(editorWorkflow(editorPayees));
		await n8n.importWorkflows(workflows);
		for (const workflow of workflows) if (workflow.id !== EDITOR_WORKFLOW) await n8n.publishWorkflow(workflow.id);
		await n8n.start();
		// Production webhooks can answer 404 for a moment after start.
		const deadline = Date.now() + 20000;
		while ((await postJson(url(`retry-initiate-unique`), '{"payees":[]}')) === 404) {
			if (Date.now() > deadline) throw new Error(`The production webhook stayed 404:\n${n8n.log}`);
			await sleep(250);
		}
		await waitForExecutions(workflowId('Retry', 'initiate', 'unique'), 1);
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
	});

	describe.each(MODES)('with a service whose references are %s', (mode) => {
		beforeAll(() => stack!.sandbox.configure({ references: mode }));

		test.each(OPERATIONS)(
			'%s: payee 3 unknown; Retry execution with the original and the saved workflow, twice; the data fixed; retried again',
			async (operation) => {
				const id = workflowId('Retry', operation, mode);
				const before = (await executions(id)).length;
				const payees = await threePayees();
				const rows = [payees[0], payees[1], { ...payees[2], beneficiaryId: UNKNOWN_BENEFICIARY }];
				expect(await postJson(url(`retry-${operation}-${mode}`), JSON.stringify({ payees: rows }))).toBe(200);
				let [failed] = (await waitForExecutions(id, before + 1)).slice(before);
				expect(failed.status).toBe('error');
				expect(payees.map((p) => paidTo(p.beneficiaryId))).toEqual([1, 1, 0]);

				// The executions list's Retry, "with original workflow" and "with currently saved workflow", twice.
				for (const saved of [false, true, false, true]) {
					const retried = await retry(failed.id, saved);
					expect(retried.status).toBe('error');
					failed = { ...failed, id: retried.id };
				}
				expect(payees.map((p) => paidTo(p.beneficiaryId))).toEqual([1, 1, 0]);

				// The user fixes the data: the saved workflow maps the unknown beneficiary to the right one.
				const workflow = workflows.find((w) => w.id === id)!;
				const fixed = {
					...workflow,
					nodes: workflow.nodes.map((n) =>
						n.name === 'Pay'
							? {
									...n,
									parameters: {
										...(n.parameters as Record<string, unknown>),
										beneficiaryId: {
											__rl: true,
											mode: 'id',
											value: `={{ $json.beneficiaryId === '${UNKNOWN_BENEFICIARY}' ? '${payees[2].beneficiaryId}' : $json.beneficiaryId }}`,
										},
									},
								}
							: n,
					),
				};
				const put = await stack!.n8n.publicApi('PUT', `/workflows/${id}`, {
					name: fixed.name,
					nodes: fixed.nodes,
					connections: fixed.connections,
					settings: fixed.settings ?? {},
				});
				expect(put.status).toBe(200);
				const done = await retry(failed.id, true);
				expect(done.status).toBe('success');
				expectOncePerPayee(`retry execution ×4 (original and saved workflow), then fixed and retried: ${LABEL[operation]}, references ${mode}`, payees.map((p) => p.beneficiaryId));
			},
		);

		test.each(OPERATIONS)('%s: Retry On Fail after a 503 on payee 2 that was paid', async (operation) => {
			const id = workflowId('OnFail', operation, mode);
			const payees = await threePayees();
			const path = operation === 'initiate' ? '/api/v2/wallets/payout/initialize' : '/api/v1/wallets/payout/initialize';
			stack!.sandbox.injectFailure({ method: 'POST', path, status: 503, phase: 'after', skip: 1 });
			expect(await postJson(url(`onfail-${operation}-${mode}`), JSON.stringify({ payees }))).toBe(200);
			const [execution] = await waitForExecutions(id, 1);
			expect(execution.status).toBe('success');
			expect(payOutput(execution).map((json) => json.outcome ?? 'sent')).toEqual(['accepted', 'unknown', 'sent']);
			expectOncePerPayee(`retry-on-fail, 503 after payee 2 was paid: ${LABEL[operation]}, references ${mode}`, payees.map((p) => p.beneficiaryId));
		});

		test.each(OPERATIONS)('%s: Retry On Fail after a 503 on payee 2 that was not paid: not resent, reported unknown', async (operation) => {
			const id = workflowId('Before', operation, mode);
			const payees = await threePayees();
			const path = operation === 'initiate' ? '/api/v2/wallets/payout/initialize' : '/api/v1/wallets/payout/initialize';
			stack!.sandbox.injectFailure({ method: 'POST', path, status: 503, skip: 1 });
			expect(await postJson(url(`before-${operation}-${mode}`), JSON.stringify({ payees }))).toBe(200);
			const [execution] = await waitForExecutions(id, 1);
			expect(execution.status).toBe('success');
			const output = payOutput(execution);
			expect(output[1]).toMatchObject({ alreadySubmitted: true, sent: false, outcome: 'unknown' });
			expect(payees.map((p) => paidTo(p.beneficiaryId))).toEqual([1, 0, 1]);
			const sent = payees.reduce((sum, p) => sum + paidTo(p.beneficiaryId), 0);
			lines.push(
				`exactly-once[retry-on-fail, 503 before payee 2 was paid (reported "unknown", never resent automatically): ${LABEL[operation]}, references ${mode}]: ${sent} sent for 3 intended`,
			);
		});

		test.each(OPERATIONS)('%s: Continue On Fail, then a later run with the failed row fixed (Idempotency Key = invoice)', async (operation) => {
			const id = workflowId('Cof', operation, mode);
			const payees = await threePayees();
			const broken = [payees[0], payees[1], { ...payees[2], beneficiaryId: UNKNOWN_BENEFICIARY }];
			expect(await postJson(url(`cof-${operation}-${mode}`), JSON.stringify({ upload: 'monday.csv', payees: broken }))).toBe(200);
			const [first] = await waitForExecutions(id, 1);
			expect(first.status).toBe('success');
			expect(payOutput(first)[2]).toMatchObject({ httpCode: '404' });

			expect(await postJson(url(`cof-${operation}-${mode}`), JSON.stringify({ upload: 'monday-fixed.csv', payees }))).toBe(200);
			const [, later] = await waitForExecutions(id, 2);
			expect(later.status).toBe('success');
			expect(payOutput(later).map((json) => json.alreadySubmitted ?? false)).toEqual([true, true, false]);
			expectOncePerPayee(`continue-on-fail, then the failed row sent again by a later run: ${LABEL[operation]}, references ${mode}`, payees.map((p) => p.beneficiaryId));
		});

		test.each(OPERATIONS)('%s: one event delivered twice, then another delivered three times at once', async (operation) => {
			const id = workflowId('Event', operation, mode);
			const trigger = workflows.find((w) => w.id === id)!.nodes.find((n) => n.name === 'Wallet Payments Trigger')!;
			const eventUrl = `${stack!.n8n.baseUrl}/webhook/${trigger.webhookId as string}/webhook`;
			const deliver = async (body: string) => await postJson(eventUrl, body, { [SIGNATURE_HEADER]: signBody(body, WEBHOOK_SECRET, 'sha512') });

			const first = await threePayees();
			const event1 = JSON.stringify({ event: 'payroll.ready', data: { id: `evt-${randomUUID()}`, payees: first } });
			expect(await deliver(event1)).toBe(200);
			await waitForExecutions(id, 1);
			expect(await deliver(event1)).toBe(200);
			const twice = await waitForExecutions(id, 2);
			expect(twice.map((e) => e.status)).toEqual(['success', 'success']);
			expectOncePerPayee(`one event delivered twice (two executions): ${LABEL[operation]}, references ${mode}`, first.map((p) => p.beneficiaryId));

			const second = await threePayees();
			const event2 = JSON.stringify({ event: 'payroll.ready', data: { id: `evt-${randomUUID()}`, payees: second } });
			expect(await Promise.all([deliver(event2), deliver(event2), deliver(event2)])).toEqual([200, 200, 200]);
			const all = await waitForExecutions(id, 5);
			expect(all.map((e) => e.status)).toEqual(['success', 'success', 'success', 'success', 'success']);
			expectOncePerPayee(`one event delivered 3 times at once (three concurrent executions): ${LABEL[operation]}, references ${mode}`, second.map((p) => p.beneficiaryId));
		});
	});

	describe('in the editor: pinned rows, Execute workflow twice, Execute step, and two schedule runs', () => {
		/** A manual run through the editor's API; resolves with the finished execution. */
		async function run(body: Record<string, unknown>): Promise<ApiExecution> {
			const started = await stack!.n8n.rest<{ data: { executionId?: string } }>('POST', `/workflows/${EDITOR_WORKFLOW}/run`, body);
			const executionId = started.body.data?.executionId;
			if (started.status !== 200 || !executionId) {
				throw new Error(`POST /rest/workflows/${EDITOR_WORKFLOW}/run → ${started.status}: ${JSON.stringify(started.body)}`);
			}
			const deadline = Date.now() + 30000;
			for (;;) {
				const found = await stack!.n8n.publicApi<ApiExecution>('GET', `/executions/${executionId}?includeData=true`);
				if (found.status === 200 && found.body.status !== 'running' && found.body.status !== 'new') return found.body;
				if (Date.now() > deadline) throw new Error(`Manual execution ${executionId} did not finish: ${JSON.stringify(found.body).slice(0, 500)}`);
				await sleep(200);
			}
		}

		test('the same pinned rows: run twice and Execute step pay once; two schedule runs pay twice more', async () => {
			const ids = editorPayees.map((p) => p.beneficiaryId);
			const fromManual = { triggerToStartFrom: { name: MANUAL_TRIGGER } };

			const first = await run(fromManual);
			expect(first.status).toBe('success');
			expect(ids.map(paidTo)).toEqual([1, 1, 1]);

			const again = await run(fromManual);
			expect(again.status).toBe('success');
			expect(payOutput(again).map((json) => json.alreadySubmitted)).toEqual([true, true, true]);

			// "Execute step" on Pay with the first run's data upstream of it (what the editor sends).
			const upstream = { ...first.data!.resultData.runData };
			delete upstream.Pay;
			const step = await run({ runData: upstream, destinationNode: { nodeName: 'Pay', mode: 'inclusive' } });
			expect(step.status).toBe('success');
			expect(payOutput(step).map((json) => json.alreadySubmitted)).toEqual([true, true, true]);
			expectOncePerPayee('re-running in the editor (Execute workflow twice, Execute step) on pinned rows: Initiate', ids);

			// Two runs of the Schedule Trigger are two different runs: identical rows are paid each time.
			for (let i = 0; i < 2; i++) {
				const scheduled = await run({ triggerToStartFrom: { name: 'Every Month' } });
				expect(scheduled.status).toBe('success');
				expect(payOutput(scheduled).some((json) => json.alreadySubmitted)).toBe(false);
				await sleep(1100); // the schedule trigger's output carries the time to the second
			}
			expectOncePerPayee('two scheduled runs with identical rows, each paid (after the editor run above): Initiate', ids, 3);
		});
	});
});
