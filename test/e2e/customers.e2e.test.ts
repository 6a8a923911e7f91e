/**
 * The packed package inside a real n8n 2.x: Customer → Create, then Customer → Get Many, run by
 * `n8n execute` against the sandbox (started in this process).
 */
import { describeE2E, startStack, stopStack, type Stack } from './support/e2e';
import { nodeItems, nodeOutput } from '../../tooling/n8n/n8n';
import { chain, manualTrigger, walletNode } from '../../tooling/n8n/workflow';

const WORKFLOW_ID = 'WalletE2eCust001';

describeE2E('Customer Create → Get Many in n8n', () => {
	let stack: Stack | undefined;

	beforeAll(async () => {
		stack = await startStack();
		await stack.n8n.importWorkflows([
			chain(WORKFLOW_ID, 'E2E customers', [
				manualTrigger(),
				walletNode('Create Customer', 'customer', 'create', {
					firstName: 'Ada',
					lastName: 'Lovelace',
					email: 'ada@example.com',
					additionalFields: { phone: '712345678', countryCode: '254' },
				}),
				walletNode('Get Customers', 'customer', 'getAll', {
					returnAll: false,
					limit: 10,
					filters: { email: '={{ $json.email }}' },
				}),
			]),
		]);
	});

	afterAll(async () => {
		await stopStack(stack);
	});

	it('creates the customer and finds it again, with the credential’s key on every request', async () => {
		const { n8n, sandbox } = stack!;
		const result = await n8n.executeOk(WORKFLOW_ID);

		const [created] = nodeOutput(result, 'Create Customer');
		expect(created).toMatchObject({
			firstName: 'Ada',
			lastName: 'Lovelace',
			email: 'ada@example.com',
			phone: '712345678',
			countryCode: '+254',
		});
		expect(typeof created.id).toBe('string');

		const found = nodeOutput(result, 'Get Customers');
		expect(found).toEqual([expect.objectContaining({ id: created.id, email: 'ada@example.com' })]);
		// Paired items: the Get Many result belongs to the one input item.
		expect(nodeItems(result, 'Get Customers')[0].pairedItem).toEqual({ item: 0 });

		expect(sandbox.requests.map((r) => [r.method, r.path, r.query])).toEqual([
			['POST', '/api/v2/customers', {}],
			['GET', '/api/v2/customers', expect.objectContaining({ email: 'ada@example.com' })],
		]);
		expect(sandbox.requests[0].body).toEqual({
			firstName: 'Ada',
			lastName: 'Lovelace',
			email: 'ada@example.com',
			phone: '712345678',
			countryCode: '254',
		});
		for (const request of sandbox.requests) {
			expect(request.headers.authorization).toBe(`Bearer ${sandbox.apiKey}`);
		}
		expect(sandbox.state.customers).toHaveLength(1);
	});
});
