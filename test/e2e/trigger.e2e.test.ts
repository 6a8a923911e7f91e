/**
 * The Wallet Payments Trigger inside a real n8n 2.x: the workflow is published, `n8n start`
 * serves its production URL on 127.0.0.1, and the sandbox delivers signed events to it.
 * Executions are read back through n8n's public API.
 */
import { signBody } from '../../tooling/sandbox';
import {
	describeE2E,
	executionsOf,
	startStack,
	stopStack,
	waitForExecutions as waitForExecutionsOf,
	type ApiExecution,
	type Stack,
} from './support/e2e';
import { CREDENTIAL_ID, CREDENTIAL_NAME, WALLET_TRIGGER_TYPE } from '../../tooling/n8n/n8n';
import { graph, node, type WorkflowNode } from '../../tooling/n8n/workflow';

const WORKFLOW_ID = 'WalletE2eTrigr01';
const WEBHOOK_ID = '6f1c2b7e-0d3a-4c55-9a8e-3b2f1d0c9e71';
const SECRET = 'whsec_e2e_trigger';
const HEADER = 'x-wallet-signature';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function triggerNode(): WorkflowNode {
	return node(
		'Wallet Payments Trigger',
		WALLET_TRIGGER_TYPE,
		1,
		{ events: ['*'], verifySignature: true, signatureHeader: HEADER, signatureAlgorithm: 'sha512', options: {} },
		{ webhookId: WEBHOOK_ID, credentials: { walletPaymentsApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } } },
	);
}

describeE2E('Wallet Payments Trigger in n8n (published, `n8n start`)', () => {
	let stack: Stack | undefined;
	let productionUrl = '';

	/** Executions of the workflow, oldest first, with their data. */
	async function executions(): Promise<ApiExecution[]> {
		return await executionsOf(stack!.n8n, WORKFLOW_ID);
	}

	/** Waits until `count` executions exist and have all finished running. */
	async function waitForExecutions(count: number, timeoutMs = 20000): Promise<ApiExecution[]> {
		return await waitForExecutionsOf(stack!.n8n, WORKFLOW_ID, count, timeoutMs);
	}

	/** The trigger's output item of an execution. */
	function triggerItem(execution: ApiExecution) {
		const run = execution.data?.resultData.runData['Wallet Payments Trigger']?.[0];
		return run?.data?.main[0]?.[0]?.json as { event: string; data: Record<string, unknown> } | undefined;
	}

	async function post(body: string, headers: Record<string, string>) {
		const response = await fetch(productionUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body,
		});
		return { status: response.status, body: await response.text() };
	}

	beforeAll(async () => {
		stack = await startStack({ webhook: { secret: SECRET, header: HEADER, algorithm: 'sha512', retryDelaysMs: [] } });
		const { n8n, sandbox } = stack;
		productionUrl = `${n8n.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
		sandbox.configure({ webhook: { url: productionUrl } });
		await n8n.importWorkflows([
			graph(
				WORKFLOW_ID,
				'E2E wallet events',
				[triggerNode(), node('Received', 'n8n-nodes-base.noOp', 1, {})],
				[['Wallet Payments Trigger', 'Received']],
			),
		]);
		await n8n.publishWorkflow(WORKFLOW_ID);
		await n8n.start();
		// The webhook may answer 404 for a moment after start: wait until it is registered.
		const deadline = Date.now() + 20000;
		for (;;) {
			const probe = await post('{}', {});
			if (probe.status !== 404) break;
			if (Date.now() > deadline) throw new Error(`The production webhook ${productionUrl} stayed 404:\n${n8n.log}`);
			await sleep(250);
		}
	});

	afterAll(async () => {
		await stopStack(stack);
	});

	it('answers an unsigned probe with 401 and starts nothing', async () => {
		// The readiness probe of beforeAll sent '{}' without a signature.
		const probe = await post('{}', {});
		expect(probe.status).toBe(401);
		expect(await executions()).toEqual([]);
	});

	it('runs the workflow for a signed event the sandbox delivers (payout settled)', async () => {
		const { sandbox } = stack!;
		const created = await fetch(`${sandbox.url}/api/v2/wallets/payout/initialize`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				amount: 1000,
				sourceWalletCurrency: 'USD',
				customerEmail: 'payee@example.com',
				description: 'Trigger e2e',
				beneficiary: {
					country: 'KE',
					currency: 'KES',
					destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'A Payee', accountNumber: '254712345678' },
				},
			}),
		});
		const payout = ((await created.json()) as { data: { id: string } }).data;
		expect(created.status).toBe(200);

		const result = await sandbox.controls.settlePayout(payout.id);
		expect(result.deliveries.map((d) => [d.url, d.status])).toEqual([[productionUrl, 200]]);

		const [execution] = await waitForExecutions(1);
		expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
		expect(triggerItem(execution)).toMatchObject({
			event: 'payout.transfer.success',
			data: expect.objectContaining({ id: payout.id }),
		});
		expect(execution.data?.resultData.runData.Received).toHaveLength(1);
	});

	it('refuses a forged delivery with 401 and starts no execution', async () => {
		const { sandbox } = stack!;
		const genuine = sandbox.deliveries.find((d) => d.status === 200)!;
		const forgedBody = genuine.body.replace('payout.transfer.success', 'transaction.deposit.success');
		const forged = await post(forgedBody, { [HEADER]: genuine.signature });
		expect(forged.status).toBe(401);
		expect(forged.body).toMatch(/Signature check failed/);
		expect(forged.body).not.toContain(SECRET);

		const wrongKey = await post(forgedBody, { [HEADER]: signBody(forgedBody, 'whsec_guessed', 'sha512') });
		expect(wrongKey.status).toBe(401);

		await sleep(1500);
		expect(await executions()).toHaveLength(1);
	});

	it('answers a duplicate delivery 200 without starting another execution', async () => {
		const { sandbox } = stack!;
		const genuine = sandbox.deliveries.find((d) => d.status === 200)!;
		const again = await post(genuine.body, { [HEADER]: genuine.signature });
		expect(again.status).toBe(200);
		expect(again.body).toMatch(/duplicate/);

		await sleep(1500);
		expect(await executions()).toHaveLength(1);
	});

	it('runs once more for the next, different event (deposit paid)', async () => {
		const { sandbox } = stack!;
		const created = await fetch(`${sandbox.url}/api/v2/wallets/collections/initialize`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({ country: 'NG', currency: 'NGN', customerEmail: 'payer@example.com', amount: 500000 }),
		});
		const collection = ((await created.json()) as { data: { id: string } }).data;
		const result = await sandbox.controls.markCollectionPaid(collection.id);
		expect(result.deliveries.map((d) => d.status)).toEqual([200]);

		const all = await waitForExecutions(2);
		expect(all).toHaveLength(2);
		expect(triggerItem(all[1])).toMatchObject({
			event: 'transaction.deposit.success',
			data: expect.objectContaining({ id: collection.id }),
		});
	});
});
