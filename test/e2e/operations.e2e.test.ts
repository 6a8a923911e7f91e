/**
 * All 21 operations of the Wallet Payments node, run by a real n8n 2.x (`n8n execute`) against
 * the sandbox: parameters resolve from expressions that reach earlier nodes (`$json`,
 * `$('Node').item` through paired items), Return All pages through more than 250 records, and
 * Continue On Fail yields one error item per failed input item.
 *
 * Few CLI runs (each costs a few seconds): one workflow for wallet operations, one for cards,
 * one for failures.
 */
import type { Sandbox } from '../../tooling/sandbox';
import { calls, describeE2E, startStack, stopStack, type Stack } from './support/e2e';
import { CREDENTIAL_TYPE, nodeItems, nodeOutput, type ExecutionResult } from '../../tooling/n8n/n8n';
import { chain, graph, manualTrigger, mobileMoneyForm, node, walletNode } from '../../tooling/n8n/workflow';

const SEEDED = 260;
const WALLET_WORKFLOW = 'WalletE2eOpsWal1';
const CARD_WORKFLOW = 'WalletE2eOpsCrd1';
const FAILURE_WORKFLOW = 'WalletE2eOpsErr1';
const STOP_WORKFLOW = 'WalletE2eOpsStp1';
const ERROR_OUTPUT_WORKFLOW = 'WalletE2eOpsErO1';
const BAD_CREDENTIAL = { id: 'WalletE2eCredBad', name: 'Wallet Payments (wrong key)' };

const EMAIL = 'e2e.payee@example.com';
const CARD_EMAIL = 'e2e.cardholder@example.com';
/** Refuses connections at once: the legacy payout needs a callback URL, nobody listens here. */
const DEAD_CALLBACK = 'http://127.0.0.1:9/wallet-callback';

const once = { executeOnce: true };

/** A resource locator in its "By ID" mode, as the editor saves it. */
function byId(value: string) {
	return { __rl: true, mode: 'id', value };
}

function walletWorkflow() {
	return chain(WALLET_WORKFLOW, 'E2E wallet operations', [
		manualTrigger(),
		walletNode('Get Requirements', 'country', 'getRequirements', { countryCode: 'ke' }),
		walletNode('Create Customer', 'customer', 'create', {
			firstName: 'Wanjiru',
			lastName: 'Kamau',
			email: EMAIL,
			additionalFields: { phone: '712345678', countryCode: '+254' },
		}),
		walletNode('Update Customer', 'customer', 'update', {
			customerId: byId('={{ $json.id }}'),
			email: '={{ $json.email }}',
			updateFields: { lastName: 'Kamau-Otieno' },
		}),
		walletNode('All Customers', 'customer', 'getAll', { returnAll: true }),
		walletNode('Some Customers', 'customer', 'getAll', { returnAll: false, limit: 120 }, once),
		walletNode(
			'Create Beneficiary',
			'beneficiary',
			'create',
			{
				country: 'KE',
				currency: 'KES',
				customerEmail: "={{ $('Update Customer').item.json.email }}",
				destinationType: 'MOBILEMONEY',
				destinationFields: mobileMoneyForm({
					network: 'MPESA',
					accountName: "={{ $('Create Customer').item.json.firstName }} {{ $('Update Customer').item.json.lastName }}",
					accountNumber: '254712345678',
				}),
				additionalFields: { reference: 'BEN-E2E-0001' },
			},
			once,
		),
		walletNode('All Beneficiaries', 'beneficiary', 'getAll', { returnAll: true }),
		walletNode(
			'Initiate Payout',
			'payout',
			'initiate',
			{
				amount: 1500,
				sourceWalletCurrency: 'USD',
				customerEmail: EMAIL,
				description: 'E2E payout',
				beneficiaryMode: 'id',
				beneficiaryId: byId("={{ $('Create Beneficiary').item.json.id }}"),
			},
			once,
		),
		walletNode('Get Transaction', 'transaction', 'get', { transactionId: '={{ $json.id }}' }),
		walletNode('Initiate Inline Payout', 'payout', 'initiate', {
			amount: 700,
			sourceWalletCurrency: 'USD',
			customerEmail: EMAIL,
			description: 'E2E inline payout',
			beneficiaryMode: 'inline',
			country: 'KE',
			currency: 'KES',
			destinationType: 'MOBILEMONEY',
			destinationFields: mobileMoneyForm({ network: 'MPESA', accountName: 'Inline Payee', accountNumber: '254700000007' }),
		}),
		walletNode('Initiate Legacy Payout', 'payout', 'initiateLegacy', {
			amount: 2500,
			sourceWalletCurrency: 'USD',
			beneficiaryId: byId("={{ $('Create Beneficiary').item.json.id }}"),
			customerEmail: EMAIL,
			description: 'E2E legacy payout',
			callbackUrl: DEAD_CALLBACK,
			reference: 'LEGACY-E2E-0001',
		}),
		walletNode('Finalize Legacy Payout', 'payout', 'finalizeLegacy', { transactionId: '={{ $json.id }}' }),
		walletNode('Initialize Collection', 'collection', 'initialize', {
			apiVersion: 'v2',
			country: 'NG',
			currency: 'NGN',
			customerEmail: EMAIL,
			amount: 250000,
			additionalFields: { description: 'E2E collection', accountName: 'Wanjiru Kamau' },
		}),
		walletNode('Get Swap Quote', 'swap', 'getQuote', { sourceCurrency: 'USD', targetCurrency: 'NGN', amount: 100 }),
		walletNode('Finalize Swap', 'swap', 'finalize', { quoteId: '={{ $json.id }}' }),
	]);
}

function cardWorkflow() {
	return chain(CARD_WORKFLOW, 'E2E card operations', [
		manualTrigger(),
		walletNode('Register Card User', 'card', 'registerUser', {
			customerEmail: CARD_EMAIL,
			firstName: 'Thabo',
			lastName: 'Nkosi',
			country: 'ZA',
			idType: 'PASSPORT',
			idNumber: 'A12345678',
			additionalFields: { city: 'Johannesburg', dateOfBirth: '1990-04-01' },
		}),
		walletNode('Create Card', 'card', 'create', {
			customerEmail: '={{ $json.customerEmail }}',
			amount: 50,
			additionalFields: { cardBrand: 'visa', reference: 'CARD-E2E-0001' },
		}),
		walletNode('Top Up Card', 'card', 'topUp', { cardId: '={{ $json.id }}', amount: 25.5 }),
		walletNode('Withdraw From Card', 'card', 'withdraw', {
			cardId: "={{ $('Create Card').item.json.id }}",
			amount: 10,
		}),
		walletNode('Freeze Card', 'card', 'freeze', { cardId: "={{ $('Create Card').item.json.id }}" }),
		walletNode('Unfreeze Card', 'card', 'unfreeze', {
			cardId: "={{ $('Create Card').item.json.id }}",
			options: { revealCardDetails: true },
		}),
		// Version 1.1, as a node added today: newest first without the Order option.
		{
			...walletNode('Card Transactions', 'card', 'getTransactions', {
				cardId: "={{ $('Create Card').item.json.id }}",
				returnAll: true,
			}),
			typeVersion: 1.1,
		},
		walletNode('Terminate Card', 'card', 'terminate', { cardId: "={{ $('Create Card').item.json.id }}" }, once),
	]);
}

/** Three customers in, three results out: one updated, one invalid input, one unknown id. */
function failureWorkflow() {
	return chain(FAILURE_WORKFLOW, 'E2E continue on fail', [
		manualTrigger(),
		walletNode('Three Customers', 'customer', 'getAll', { returnAll: false, limit: 3 }),
		walletNode(
			'Update Each',
			'customer',
			'update',
			{
				customerId: byId("={{ $itemIndex === 2 ? 'no-such-customer' : $json.id }}"),
				email: "={{ $itemIndex === 1 ? 'not-an-email' : $json.email }}",
				updateFields: { phone: '700000001' },
			},
			{ continueOnFail: true },
		),
		walletNode(
			'Wrong Key',
			'country',
			'getRequirements',
			{ countryCode: 'NG' },
			{ continueOnFail: true, executeOnce: true, credentialId: BAD_CREDENTIAL.id, credentialName: BAD_CREDENTIAL.name },
		),
	]);
}

/** The same three updates with On Error → Continue (using error output): the failures leave by the second output. */
function errorOutputWorkflow() {
	const update = walletNode(
		'Update Each',
		'customer',
		'update',
		{
			customerId: byId("={{ $itemIndex === 2 ? 'no-such-customer' : $json.id }}"),
			email: "={{ $itemIndex === 1 ? 'not-an-email' : $json.email }}",
			updateFields: { phone: '700000002' },
		},
		{ errorOutput: true },
	);
	return graph(
		ERROR_OUTPUT_WORKFLOW,
		'E2E error output',
		[manualTrigger(), walletNode('Three Customers', 'customer', 'getAll', { returnAll: false, limit: 3 }), update, node('Updated', 'n8n-nodes-base.noOp', 1, {}), node('Not Updated', 'n8n-nodes-base.noOp', 1, {})],
		[
			['Start', 'Three Customers'],
			['Three Customers', 'Update Each'],
			['Update Each', 'Updated', 0],
			['Update Each', 'Not Updated', 1],
		],
	);
}

/** Without Continue On Fail the execution stops at the failing node with the service's message. */
function stopWorkflow() {
	return chain(STOP_WORKFLOW, 'E2E stop on fail', [
		manualTrigger(),
		walletNode('Missing Transaction', 'transaction', 'get', { transactionId: 'no-such-transaction' }),
		walletNode('Never Runs', 'country', 'getRequirements', { countryCode: 'KE' }),
	]);
}

function requestsTo(sandbox: Sandbox, method: string, path: string | RegExp) {
	return sandbox.requests.filter(
		(r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
	);
}

describeE2E('all 21 operations in n8n', () => {
	let stack: Stack | undefined;

	beforeAll(async () => {
		stack = await startStack({ seed: { customers: SEEDED, beneficiaries: SEEDED }, autoIssueCards: true });
		await stack.n8n.importCredentials([
			{
				id: BAD_CREDENTIAL.id,
				name: BAD_CREDENTIAL.name,
				type: CREDENTIAL_TYPE,
				data: { apiKey: 'sk_test_wrong', baseUrl: stack.sandbox.url, webhookSecret: '' },
			},
		]);
		await stack.n8n.importWorkflows([walletWorkflow(), cardWorkflow(), failureWorkflow(), stopWorkflow(), errorOutputWorkflow()]);
	});

	afterAll(async () => {
		await stopStack(stack);
	});

	describe('wallet operations (13 of 21)', () => {
		let result: ExecutionResult;
		let sandbox: Sandbox;

		beforeAll(async () => {
			sandbox = stack!.sandbox;
			sandbox.clearRequests();
			result = await stack!.n8n.executeOk(WALLET_WORKFLOW);
		});

		it('sends every request with the credential’s key', () => {
			expect(sandbox.requests.length).toBeGreaterThan(15);
			for (const request of sandbox.requests) expect(request.headers.authorization).toBe(`Bearer ${sandbox.apiKey}`);
		});

		it('Country → Get Payout Requirements', () => {
			const [requirements] = nodeOutput(result, 'Get Requirements');
			expect(JSON.stringify(requirements)).toContain('MPESA');
			expect(requestsTo(sandbox, 'GET', '/api/v1/wallets/payout/supported-countries/KE')[0].headers.authorization).toBe(
				`Bearer ${sandbox.apiKey}`,
			);
		});

		it('Customer → Create and Update (parameters from $json)', () => {
			const [created] = nodeOutput(result, 'Create Customer');
			expect(created).toMatchObject({ firstName: 'Wanjiru', lastName: 'Kamau', email: EMAIL, countryCode: '+254' });
			const [updated] = nodeOutput(result, 'Update Customer');
			expect(updated).toMatchObject({ id: created.id, lastName: 'Kamau-Otieno', email: EMAIL });
			const [put] = requestsTo(sandbox, 'PUT', `/api/v2/customers/${String(created.id)}`);
			expect(put.body).toEqual({ email: EMAIL, lastName: 'Kamau-Otieno' });
		});

		it('Customer → Get Many: Return All pages through all 261 customers, Limit stops at 120', () => {
			const all = nodeOutput(result, 'All Customers');
			expect(all).toHaveLength(SEEDED + 1);
			expect(new Set(all.map((c) => c.id)).size).toBe(SEEDED + 1);
			expect(all[0].email).toBe(EMAIL); // newest first
			const some = nodeOutput(result, 'Some Customers');
			expect(some).toHaveLength(120);
			expect(some.map((c) => c.id)).toEqual(all.slice(0, 120).map((c) => c.id));
			// 261 in pages of at most 100 (3 requests), then 120 (2 requests).
			const lists = requestsTo(sandbox, 'GET', '/api/v2/customers');
			expect(lists).toHaveLength(5);
			for (const list of lists) expect(Number(list.query.limit)).toBeLessThanOrEqual(100);
			// Every customer item is paired with the one input item.
			expect(nodeItems(result, 'All Customers').every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(
				true,
			);
		});

		it('Beneficiary → Create (expressions through paired items) and Get Many (Return All, 261)', () => {
			const [beneficiary] = nodeOutput(result, 'Create Beneficiary');
			expect(beneficiary).toMatchObject({
				country: 'KE',
				currency: 'KES',
				status: 'SUCCESS',
				reference: 'BEN-E2E-0001',
				destination: {
					type: 'MOBILEMONEY',
					network: 'MPESA',
					accountName: 'Wanjiru Kamau-Otieno',
					accountNumber: '254712345678',
				},
			});
			const [post] = requestsTo(sandbox, 'POST', '/api/v2/beneficiaries');
			expect(post.body).toMatchObject({ customerEmail: EMAIL, country: 'KE', currency: 'KES' });
			const all = nodeOutput(result, 'All Beneficiaries');
			expect(all).toHaveLength(SEEDED + 1);
			expect(new Set(all.map((b) => b.id)).size).toBe(SEEDED + 1);
			expect(requestsTo(sandbox, 'GET', '/api/v2/beneficiaries')).toHaveLength(3);
		});

		it('Payout → Initiate and Transaction → Get', () => {
			const [beneficiary] = nodeOutput(result, 'Create Beneficiary');
			const [payout] = nodeOutput(result, 'Initiate Payout');
			expect(payout).toMatchObject({ centAmount: 1500, channel: 'payout', type: 'debit' });
			const [post] = requestsTo(sandbox, 'POST', '/api/v2/wallets/payout/initialize');
			expect(post.body).toEqual({
				amount: 1500,
				sourceWalletCurrency: 'USD',
				customerEmail: EMAIL,
				description: 'E2E payout',
				beneficiaryId: beneficiary.id,
			});
			const [transaction] = nodeOutput(result, 'Get Transaction');
			expect(transaction).toMatchObject({ id: payout.id, channel: 'payout', amount: '15.00', currency: 'USD' });
		});

		it('Payout → Initiate with an inline beneficiary from the destination form', () => {
			const [inline] = nodeOutput(result, 'Initiate Inline Payout');
			expect(inline).toMatchObject({ centAmount: 700, channel: 'payout' });
			const posts = requestsTo(sandbox, 'POST', '/api/v2/wallets/payout/initialize');
			expect(posts).toHaveLength(2);
			expect(posts[1].body).toEqual({
				amount: 700,
				sourceWalletCurrency: 'USD',
				customerEmail: EMAIL,
				description: 'E2E inline payout',
				beneficiary: {
					country: 'KE',
					currency: 'KES',
					destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'Inline Payee', accountNumber: '254700000007' },
				},
			});
		});

		it('Payout → Initiate (Legacy) and Finalize (Legacy)', () => {
			const [legacy] = nodeOutput(result, 'Initiate Legacy Payout');
			expect(legacy).toMatchObject({ reference: 'LEGACY-E2E-0001', centAmount: 2500, status: 'initiated' });
			const [post] = requestsTo(sandbox, 'POST', '/api/v1/wallets/payout/initialize');
			expect(post.body).toMatchObject({ callbackUrl: DEAD_CALLBACK, reference: 'LEGACY-E2E-0001', amount: 2500 });
			const [finalized] = nodeOutput(result, 'Finalize Legacy Payout');
			expect(finalized).toMatchObject({ id: legacy.id, status: 'pending', amount: '25.00' });
			expect(requestsTo(sandbox, 'POST', '/api/v1/wallets/payout/finalize')[0].body).toEqual({
				transactionId: legacy.id,
			});
		});

		it('Collection → Initialize', () => {
			const [collection] = nodeOutput(result, 'Initialize Collection');
			expect(collection).toMatchObject({
				// Major units in the output, minor beside them; the request in minor units.
				amount: 2500,
				centAmount: 250000,
				currency: 'NGN',
				accountName: 'Wanjiru Kamau',
				status: 'processing',
				expiryInSeconds: expect.any(Number),
			});
			expect(typeof collection.accountNumber).toBe('string');
			const [post] = requestsTo(sandbox, 'POST', '/api/v2/wallets/collections/initialize');
			expect(post.body).toMatchObject({
				country: 'NG',
				currency: 'NGN',
				customerEmail: EMAIL,
				amount: 250000,
				description: 'E2E collection',
				payload: { accountName: 'Wanjiru Kamau' },
			});
			// An empty Reference field: a derived, retry-safe reference is sent.
			expect(typeof (post.body as { reference?: unknown }).reference).toBe('string');
		});

		it('Swap → Get Quote and Finalize', () => {
			const [quote] = nodeOutput(result, 'Get Swap Quote');
			expect(quote).toMatchObject({ sourceAmount: 100, sourceCurrency: 'USD', targetCurrency: 'NGN' });
			const [swap] = nodeOutput(result, 'Finalize Swap');
			expect(swap).toMatchObject({ status: 'success', channel: 'swap', amount: 100 });
			expect(requestsTo(sandbox, 'POST', '/api/v2/wallets/finalize-swap')[0].body).toEqual({ quoteId: quote.id });
		});

		it('ran the nodes in order, with no other requests', () => {
			// The destination form checks the country's live requirements (one lookup per node run).
			const lookup = 'GET /api/v1/wallets/payout/supported-countries/KE';
			const sequence = calls(sandbox).filter((call, i, all) => call !== all[i - 1]);
			expect(sequence).toEqual([
				lookup,
				'POST /api/v2/customers',
				expect.stringMatching(/^PUT \/api\/v2\/customers\//),
				'GET /api/v2/customers',
				lookup,
				'POST /api/v2/beneficiaries',
				'GET /api/v2/beneficiaries',
				'POST /api/v2/wallets/payout/initialize',
				expect.stringMatching(/^GET \/api\/v2\/transactions\//),
				lookup,
				'POST /api/v2/wallets/payout/initialize',
				'POST /api/v1/wallets/payout/initialize',
				'POST /api/v1/wallets/payout/finalize',
				'POST /api/v2/wallets/collections/initialize',
				'POST /api/v1/wallets/initialize-swap',
				'POST /api/v2/wallets/finalize-swap',
			]);
		});
	});

	describe('card operations (8 of 21, with the card issued at once)', () => {
		let result: ExecutionResult;
		let sandbox: Sandbox;

		beforeAll(async () => {
			sandbox = stack!.sandbox;
			sandbox.clearRequests();
			result = await stack!.n8n.executeOk(CARD_WORKFLOW);
		});

		it('Card → Register Card User and Create', () => {
			const [user] = nodeOutput(result, 'Register Card User');
			expect(user).toMatchObject({ customerEmail: CARD_EMAIL, firstName: 'Thabo', country: 'ZA' });
			const [register] = requestsTo(sandbox, 'POST', '/api/v1/virtualcards/registercarduser');
			expect(register.body).toMatchObject({ idType: 'PASSPORT', idNumber: 'A12345678', dateOfBirth: '1990-04-01' });
			const [card] = nodeOutput(result, 'Create Card');
			expect(card).toMatchObject({ reference: 'CARD-E2E-0001', cardBrand: 'visa', createdStatus: 'pending' });
			expect(requestsTo(sandbox, 'POST', '/api/v1/virtualcards/create')[0].body).toMatchObject({
				customerEmail: CARD_EMAIL,
				amount: 50,
			});
		});

		it('Card → Top Up and Withdraw', () => {
			const [card] = nodeOutput(result, 'Create Card');
			const [topUp] = nodeOutput(result, 'Top Up Card');
			expect(topUp).toMatchObject({ cardId: card.id, method: 'topup', amount: 25.5, status: 'pending' });
			expect(requestsTo(sandbox, 'POST', '/api/v1/virtualcards/topup')[0].body).toMatchObject({
				cardId: card.id,
				amount: 25.5,
			});
			const [withdrawal] = nodeOutput(result, 'Withdraw From Card');
			expect(withdrawal).toMatchObject({ cardId: card.id, method: 'withdrawal', amount: 10 });
		});

		it('Card → Freeze, Unfreeze (card details masked unless revealed) and Terminate', () => {
			const [card] = nodeOutput(result, 'Create Card');
			const [frozen] = nodeOutput(result, 'Freeze Card');
			expect(frozen).toMatchObject({ id: card.id, status: 'frozen', cvv2: '***' });
			expect(String(frozen.cardNumber)).toMatch(/^\*{12}\d{4}$/);
			const [unfrozen] = nodeOutput(result, 'Unfreeze Card');
			expect(unfrozen).toMatchObject({ id: card.id, status: 'active' });
			expect(String(unfrozen.cardNumber)).toMatch(/^\d{16}$/);
			const [terminated] = nodeOutput(result, 'Terminate Card');
			expect(terminated).toMatchObject({ id: card.id, status: 'terminated' });
			expect(sandbox.state.cards.find((c) => c.id === card.id)?.status).toBe('terminated');
		});

		it('Card → Get Transactions (Return All, newest first)', () => {
			const transactions = nodeOutput(result, 'Card Transactions');
			expect(transactions.map((t) => t.method)).toEqual(['withdrawal', 'topup']);
			const [list] = requestsTo(sandbox, 'GET', /^\/api\/v1\/virtualcards\/cards\/[^/]+\/transactions$/);
			expect(list.query).toMatchObject({ order: 'DESC' });
		});
	});

	describe('failures', () => {
		it('Continue On Fail: one error item per failed item, each paired with its input', async () => {
			const { n8n, sandbox } = stack!;
			sandbox.clearRequests();
			const result = await n8n.executeOk(FAILURE_WORKFLOW);
			const input = nodeOutput(result, 'Three Customers');
			expect(input).toHaveLength(3);

			const items = nodeItems(result, 'Update Each');
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(items[0].json).toMatchObject({ id: input[0].id, phone: '700000001' });
			expect(items[1].json.error).toEqual(expect.stringContaining('Email'));
			expect(items[1].json.error).toEqual(expect.stringContaining('item 1'));
			expect(items[2].json).toMatchObject({ httpCode: '404' });
			expect(String(items[2].json.error)).toMatch(/not found/i);
			// The invalid item never reached the service.
			expect(requestsTo(sandbox, 'PUT', /^\/api\/v2\/customers\//).map((r) => r.path)).toEqual([
				`/api/v2/customers/${String(input[0].id)}`,
				'/api/v2/customers/no-such-customer',
			]);

			const [wrongKey] = nodeOutput(result, 'Wrong Key');
			expect(wrongKey).toMatchObject({ httpCode: '401', error: expect.stringContaining('Invalid API key') });
			expect(String(wrongKey.description)).toMatch(/API Key/);
			// The node sends a rejected request once: no retry in n8n or in the package.
			const rejected = sandbox.requests.filter((r) => r.headers.authorization === 'Bearer sk_test_wrong');
			expect(rejected.map((r) => r.path)).toEqual(['/api/v1/wallets/payout/supported-countries/NG']);
		});

		it('On Error → Continue (using error output): the failed items leave by the error output, with their input\'s fields; the others by the main output', async () => {
			const result = await stack!.n8n.executeOk(ERROR_OUTPUT_WORKFLOW);
			const input = nodeOutput(result, 'Three Customers');
			expect(nodeOutput(result, 'Updated').map((json) => [json.id, json.phone])).toEqual([[input[0].id, '700000002']]);
			const failed = nodeItems(result, 'Not Updated');
			expect(failed.map((item) => [item.json.id, item.json.email])).toEqual([
				[input[1].id, input[1].email],
				[input[2].id, input[2].email],
			]);
			expect(String(failed[0].json.error)).toContain('item 1');
			expect(failed[1].json).toMatchObject({ error: expect.stringMatching(/not found/i), details: { httpCode: '404' } });
		});

		it('without Continue On Fail the execution stops at the failing node with the service’s message', async () => {
			const { n8n, sandbox } = stack!;
			sandbox.clearRequests();
			const result = await n8n.execute(STOP_WORKFLOW);
			expect(result.status).toBe('error');
			expect(result.data.resultData.lastNodeExecuted).toBe('Missing Transaction');
			expect(result.data.resultData.error?.message).toMatch(/Transaction not found/);
			expect(result.data.resultData.runData['Never Runs']).toBeUndefined();
			expect(calls(sandbox)).toEqual(['GET /api/v2/transactions/no-such-transaction']);
		});
	});
});
