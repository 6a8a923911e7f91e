/**
 * What the n8n editor does with this package, against a real n8n 2.x:
 *  - n8n's HTTP Request node uses the credential as a predefined credential type (CLI execution);
 *  - the credential's "Test" (what the credential modal's button calls: POST /rest/credentials/test,
 *    with the owner's session) passes against the sandbox and fails with a wrong key;
 *  - the node's dynamic parameters load through n8n's REST API as the editor loads them:
 *    Destination Type options, the destination form (resource mapper) and the Customer and
 *    Beneficiary pickers (resource locator lists).
 */
import { calls, describeE2E, startStack, stopStack, type Stack } from './support/e2e';
import { N8N_MAJOR } from '../../tooling/n8n/install';
import { CREDENTIAL_ID, CREDENTIAL_NAME, CREDENTIAL_TYPE, nodeOutput, WALLET_NODE_TYPE } from '../../tooling/n8n/n8n';
import { chain, manualTrigger, node } from '../../tooling/n8n/workflow';

const HTTP_WORKFLOW_ID = 'WalletE2eHttp001';
const BAD_CREDENTIAL_ID = 'WalletE2eCredBad';
const BAD_CREDENTIAL_NAME = 'Wallet Payments (wrong key)';
/**
 * What the credential modal shows for a key the service refuses: the credential test's 401 rule
 * on n8n 2.x. n8n 1.x's tester applies a rule only to an error that carries the response, which
 * the 401 of its request does not: it shows n8n's own text for a 401.
 */
const WRONG_KEY_MESSAGE =
	N8N_MAJOR >= 2 ? 'The service refused the API Key (HTTP 401). Check the API Key.' : 'Authorization failed - please check your credentials';

interface TestResult {
	data: { status: 'OK' | 'Error'; message: string };
}

describeE2E('the credential and the node in n8n’s editor API', () => {
	let stack: Stack | undefined;

	beforeAll(async () => {
		stack = await startStack({ seed: { customers: 12, beneficiaries: 8 } });
		const { n8n, sandbox } = stack;
		await n8n.importCredentials([
			{
				id: BAD_CREDENTIAL_ID,
				name: BAD_CREDENTIAL_NAME,
				type: CREDENTIAL_TYPE,
				data: { apiKey: 'sk_test_wrong', baseUrl: sandbox.url, webhookSecret: '' },
			},
		]);
		await n8n.importWorkflows([
			chain(HTTP_WORKFLOW_ID, 'E2E HTTP Request with the credential', [
				manualTrigger(),
				node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, {
					method: 'GET',
					url: `${sandbox.url}/api/v2/customers`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: CREDENTIAL_TYPE,
					sendQuery: true,
					queryParameters: { parameters: [{ name: 'limit', value: '5' }] },
					options: {},
				}, {
					credentials: { [CREDENTIAL_TYPE]: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
				}),
			]),
		]);
	});

	afterAll(async () => {
		await stopStack(stack);
	});

	it('lets n8n’s HTTP Request node call the API with it (predefined credential type)', async () => {
		const { n8n, sandbox } = stack!;
		await fetch(`${sandbox.url}/api/v2/customers`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' }),
		});
		sandbox.clearRequests();

		const result = await n8n.executeOk(HTTP_WORKFLOW_ID);

		expect(calls(sandbox)).toEqual(['GET /api/v2/customers']);
		expect(sandbox.requests[0].headers.authorization).toBe(`Bearer ${sandbox.apiKey}`);
		expect(sandbox.requests[0].query).toEqual({ limit: '5' });
		const [response] = nodeOutput(result, 'HTTP Request');
		expect(response).toMatchObject({ status: true });
		expect(JSON.stringify(response)).toContain('grace@example.com');
	});

	describe('with `n8n start`', () => {
		beforeAll(async () => {
			await stack!.n8n.start();
			await stack!.n8n.login();
		});

		afterAll(async () => {
			await stack?.n8n.stop();
		});

		it('passes the credential test with the sandbox key, as the editor sends it (secrets redacted)', async () => {
			const { n8n, sandbox } = stack!;
			// The editor loads the credential (secret values come back redacted) and tests that.
			const stored = await n8n.rest<{ data: { id: string; name: string; type: string; data: Record<string, unknown> } }>(
				'GET',
				`/credentials/${CREDENTIAL_ID}?includeData=true`,
			);
			expect(stored.status).toBe(200);
			expect(stored.body.data.data.baseUrl).toBe(sandbox.url);
			expect(stored.body.data.data.apiKey).not.toBe(sandbox.apiKey); // redacted

			sandbox.clearRequests();
			const test = await n8n.rest<TestResult>('POST', '/credentials/test', {
				credentials: {
					id: CREDENTIAL_ID,
					name: stored.body.data.name,
					type: stored.body.data.type,
					data: stored.body.data.data,
				},
			});

			expect(test.status).toBe(200);
			expect(test.body.data).toEqual({ status: 'OK', message: expect.any(String) });
			expect(calls(sandbox)).toEqual(['GET /api/v2/customers']);
			expect(sandbox.requests[0].query).toEqual({ limit: '1' });
			expect(sandbox.requests[0].headers.authorization).toBe(`Bearer ${sandbox.apiKey}`);
		});

		it('fails the credential test with a wrong key, saying why', async () => {
			const { n8n, sandbox } = stack!;
			sandbox.clearRequests();
			const test = await n8n.rest<TestResult>('POST', '/credentials/test', {
				credentials: {
					id: BAD_CREDENTIAL_ID,
					name: BAD_CREDENTIAL_NAME,
					type: CREDENTIAL_TYPE,
					data: { apiKey: 'sk_test_wrong', baseUrl: sandbox.url, webhookSecret: '' },
				},
			});

			expect(test.status).toBe(200);
			// The credential test's rule for 401, word for word (not n8n's bare status text).
			expect(test.body.data).toEqual({ status: 'Error', message: WRONG_KEY_MESSAGE });
			// n8n-core's httpRequestWithAuthentication sends a 401'd request once more (after its
			// preAuthentication hook), so the sandbox sees the test call once or twice.
			expect(sandbox.requests.length).toBeGreaterThanOrEqual(1);
			for (const request of sandbox.requests) {
				expect(`${request.method} ${request.path}`).toBe('GET /api/v2/customers');
				expect(request.headers.authorization).toBe('Bearer sk_test_wrong');
			}
		});

		it('fails the credential test when the edited key is wrong (unsaved change in the modal)', async () => {
			const { n8n, sandbox } = stack!;
			sandbox.clearRequests();
			const test = await n8n.rest<TestResult>('POST', '/credentials/test', {
				credentials: {
					id: CREDENTIAL_ID,
					name: CREDENTIAL_NAME,
					type: CREDENTIAL_TYPE,
					data: { apiKey: 'sk_test_typo', baseUrl: sandbox.url, webhookSecret: '' },
				},
			});
			expect(test.body.data).toEqual({ status: 'Error', message: WRONG_KEY_MESSAGE });
			expect(sandbox.requests.length).toBeGreaterThanOrEqual(1);
			for (const request of sandbox.requests) expect(request.headers.authorization).toBe('Bearer sk_test_typo');
		});

		/** POST /rest/dynamic-node-parameters/<what>, as the editor sends it for a Wallet Payments node. */
		async function dynamic<T>(what: string, parameters: Record<string, unknown>, extra: Record<string, unknown>) {
			const response = await stack!.n8n.rest<{ data: T }>('POST', `/dynamic-node-parameters/${what}`, {
				nodeTypeAndVersion: { name: WALLET_NODE_TYPE, version: 1 },
				currentNodeParameters: parameters,
				credentials: { [CREDENTIAL_TYPE]: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
				...extra,
			});
			if (response.status !== 200) throw new Error(`${what} → ${response.status}: ${JSON.stringify(response.body)}`);
			return response.body.data;
		}

		it('loads Destination Type options for the country from the service', async () => {
			const { sandbox } = stack!;
			sandbox.clearRequests();
			const options = await dynamic<Array<{ name: string; value: string }>>(
				'options',
				{ resource: 'beneficiary', operation: 'create', country: 'GH' },
				{ path: 'parameters.destinationType', methodName: 'getDestinationTypes' },
			);
			expect(options.map((o) => o.value)).toEqual(expect.arrayContaining(['BANK', 'MOBILEMONEY', 'json']));
			expect(calls(sandbox)).toEqual(['GET /api/v1/wallets/payout/supported-countries/GH']);
			expect(sandbox.requests[0].headers.authorization).toBe(`Bearer ${sandbox.apiKey}`);
		});

		it('loads the destination form (resource mapper) from the country’s field descriptors', async () => {
			const { fields } = await dynamic<{ fields: Array<{ id: string; required: boolean; type: string; options?: unknown[] }> }>(
				'resource-mapper-fields',
				{ resource: 'payout', operation: 'initiate', beneficiaryMode: 'inline', country: 'KE', destinationType: 'MOBILEMONEY' },
				{ path: 'parameters.destinationFields', methodName: 'getDestinationFields' },
			);
			expect(fields.map((f) => f.id)).toEqual(['network', 'accountName', 'accountNumber']);
			expect(fields.every((f) => f.required)).toBe(true);
			expect(fields[0]).toMatchObject({ type: 'options', options: [{ name: 'MPESA', value: 'MPESA' }] });
		});

		it('lists and searches customers and beneficiaries for the pickers (resource locator)', async () => {
			const { sandbox } = stack!;
			const customers = await dynamic<{ results: Array<{ name: string; value: string }>; paginationToken?: unknown }>(
				'resource-locator-results',
				{ resource: 'customer', operation: 'update', customerId: { __rl: true, mode: 'list', value: '' } },
				{ path: 'parameters.customerId', methodName: 'searchCustomers' },
			);
			expect(customers.results.length).toBeGreaterThanOrEqual(12);
			const seeded = sandbox.state.customers.find((c) => c.email === 'customer0003@example.com')!;
			expect(customers.results).toContainEqual({ name: expect.stringContaining('customer0003@example.com'), value: seeded.id });

			sandbox.clearRequests();
			const found = await dynamic<{ results: Array<{ name: string; value: string }> }>(
				'resource-locator-results',
				{ resource: 'customer', operation: 'update', customerId: { __rl: true, mode: 'list', value: '' } },
				{ path: 'parameters.customerId', methodName: 'searchCustomers', filter: 'customer0003@example.com' },
			);
			expect(found.results).toEqual([{ name: expect.any(String), value: seeded.id }]);
			expect(sandbox.requests[0].query).toMatchObject({ email: 'customer0003@example.com' });

			// A last name typed on its own finds the customer (first-name and last-name look-ups, merged).
			sandbox.clearRequests();
			const byLastName = await dynamic<{ results: Array<{ name: string; value: string }> }>(
				'resource-locator-results',
				{ resource: 'customer', operation: 'update', customerId: { __rl: true, mode: 'list', value: '' } },
				{ path: 'parameters.customerId', methodName: 'searchCustomers', filter: seeded.lastName! },
			);
			expect(byLastName.results.map((r) => r.value)).toContain(seeded.id);
			expect(sandbox.requests.map((r) => r.query)).toEqual([
				expect.objectContaining({ firstName: seeded.lastName }),
				expect.objectContaining({ lastName: seeded.lastName }),
			]);

			const beneficiaries = await dynamic<{ results: Array<{ name: string; value: string }> }>(
				'resource-locator-results',
				{ resource: 'payout', operation: 'initiate', beneficiaryMode: 'id', beneficiaryId: { __rl: true, mode: 'list', value: '' } },
				{ path: 'parameters.beneficiaryId', methodName: 'searchBeneficiaries' },
			);
			expect(beneficiaries.results.map((r) => r.value).sort()).toEqual(sandbox.state.beneficiaries.map((b) => b.id).sort());
		});
	});
});
