/**
 * Batching of reads inside a real n8n: 30 × Transaction → Get with the default Batching (10 in
 * flight), every third ID unknown, Continue On Fail on, against the sandbox with 50 ms added to
 * every answer. The output keeps the input order and pairing; the sandbox saw 10 at once.
 */
import { maxInFlight } from '../helpers/sandbox/inFlight';
import { initiatePayoutViaApi } from './support/reads';
import { describeE2E, startStack, stopStack, type Stack } from './support/e2e';
import { nodeItems } from '../../tooling/n8n/n8n';
import { chain, manualTrigger, node, walletNode } from '../../tooling/n8n/workflow';

const WORKFLOW_ID = 'WalletE2eBatch01';

describeE2E('Batching of reads in n8n', () => {
	let stack: Stack | undefined;

	beforeAll(async () => {
		stack = await startStack();
	});

	afterAll(async () => {
		await stopStack(stack);
	});

	it('30 × Transaction → Get: 10 in flight, output in input order and paired, failures in place', async () => {
		const { n8n, sandbox } = stack!;
		const ids: string[] = [];
		for (let i = 0; i < 30; i++) {
			ids.push(i % 3 === 2 ? `0e0e0e0e-0000-4000-8000-${String(i).padStart(12, '0')}` : await initiatePayoutViaApi(sandbox, 100 + i));
		}
		await n8n.importWorkflows([
			chain(WORKFLOW_ID, 'E2E batching', [
				manualTrigger(),
				node('IDs', 'n8n-nodes-base.set', 3.4, { mode: 'raw', jsonOutput: JSON.stringify({ ids: ids.map((id) => ({ id })) }), options: {} }),
				node('One Item per ID', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'ids', options: {} }),
				walletNode('Get Each', 'transaction', 'get', { transactionId: '={{ $json.id }}', simplify: false }, { continueOnFail: true }),
			]),
		]);
		sandbox.clearRequests();
		sandbox.configure({ latency: { fixedMs: 50 } });
		const result = await n8n.executeOk(WORKFLOW_ID);
		sandbox.configure({ latency: { fixedMs: 0 } });

		const items = nodeItems(result, 'Get Each');
		expect(items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
		items.forEach((item, i) => {
			if (i % 3 === 2) expect(item.json).toMatchObject({ error: 'Transaction not found [HTTP 404]', httpCode: '404' });
			else expect(item.json.id).toBe(ids[i]);
		});
		const reads = sandbox.requests.filter((r) => r.path.startsWith('/api/v2/transactions/'));
		expect(reads).toHaveLength(30);
		expect(maxInFlight(reads)).toBe(10);
	});
});
