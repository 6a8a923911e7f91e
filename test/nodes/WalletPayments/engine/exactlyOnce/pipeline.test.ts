/**
 * Exactly-once for every operation that creates something (actions/exactlyOnce.ts), over real
 * HTTP against the sandbox, through n8n-core's WorkflowExecute with n8n's de-duplication store
 * (in memory here; the database-backed one runs in the e2e suite).
 *
 * How the n8n re-run paths look to the node, and how they are played here:
 * - Retry On Fail: the node runs again in the same execution (same execution ID and trigger item).
 * - Retry execution, editor re-run, a duplicated event: the node runs again in a new execution
 *   whose trigger item is the same (n8n carries the trigger's output over; a duplicate event has
 *   the same body).
 * - A new scheduled run or a new event: a new execution with another trigger item.
 * Each case counts what the sandbox really created, with the service refusing reused references
 * and with a lenient service that accepts them: the counts must be the same.
 */
import type { IDataObject, INodeParameters, NodeApiError } from 'n8n-workflow';

import { WalletPayments } from '../../../../../nodes/WalletPayments/WalletPayments.node';
import { REFERENCE_HINT } from '../../../../../nodes/WalletPayments/controls/idempotency';
import { useSandbox, type SandboxFixture } from '../../../../helpers/sandbox/sandbox';
import type { RunResult } from '../../../../helpers/n8n/runNode';
import type { ReferenceMode } from '../../../../../tooling/sandbox';
import { CARD_HOLDER, issueCard } from '../../../../helpers/sandbox/operations';
import { callApi, createBeneficiary, destinationForm, idLocator, KENYA_MOBILE_MONEY } from '../../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

interface Case {
	/** The endpoint the node POSTs each item to. */
	path: string;
	/** Sets up what the operation needs; returns its parameters and three rows, one per item. */
	setup: (f: SandboxFixture) => Promise<{ parameters: INodeParameters; rows: IDataObject[] }>;
	/** How many records of this kind the service holds. */
	count: (f: SandboxFixture) => number;
}

const CALLBACK_URL = 'https://n8n.example.com/webhook/wallet-events';
const threeBeneficiaries = async (f: SandboxFixture) =>
	await Promise.all([1, 2, 3].map(async (n) => (await createBeneficiary(f, { customerEmail: `payee${n}@example.com` })).id as string));
const payouts = (f: SandboxFixture) => f.sandbox.state.transactions.filter((tx) => tx.kind === 'payout').length;

/** Every operation that creates something at the service. */
const cases: Record<string, Case> = {
	'Payout → Initiate': {
		path: '/api/v2/wallets/payout/initialize',
		setup: async (f) => ({
			parameters: {
				resource: 'payout',
				operation: 'initiate',
				amount: '={{ $json.amount }}',
				sourceWalletCurrency: 'USD',
				customerEmail: 'ann@example.com',
				description: 'Payroll',
				beneficiaryMode: 'id',
				beneficiaryId: idLocator('={{ $json.beneficiaryId }}'),
			},
			rows: (await threeBeneficiaries(f)).map((beneficiaryId, i) => ({ beneficiaryId, amount: 1000 + i })),
		}),
		count: payouts,
	},
	'Payout → Initiate (Legacy)': {
		path: '/api/v1/wallets/payout/initialize',
		setup: async (f) => ({
			parameters: {
				resource: 'payout',
				operation: 'initiateLegacy',
				amount: '={{ $json.amount }}',
				sourceWalletCurrency: 'USD',
				customerEmail: 'ann@example.com',
				description: 'Payroll',
				beneficiaryId: idLocator('={{ $json.beneficiaryId }}'),
				callbackUrl: CALLBACK_URL,
			},
			rows: (await threeBeneficiaries(f)).map((beneficiaryId, i) => ({ beneficiaryId, amount: 1000 + i })),
		}),
		count: payouts,
	},
	'Payout → Finalize (Legacy)': {
		path: '/api/v1/wallets/payout/finalize',
		setup: async (f) => {
			const rows: IDataObject[] = [];
			for (const beneficiaryId of await threeBeneficiaries(f)) {
				const payout = await callApi(f, 'POST', '/api/v1/wallets/payout/initialize', {
					amount: 1000,
					reference: `legacy-${beneficiaryId}`,
					customerEmail: 'ann@example.com',
					description: 'Payroll',
					beneficiaryId,
					sourceWalletCurrency: 'USD',
					callbackUrl: CALLBACK_URL,
				});
				rows.push({ transactionId: payout.id });
			}
			return { parameters: { resource: 'payout', operation: 'finalizeLegacy', transactionId: '={{ $json.transactionId }}' }, rows };
		},
		count: (f) => f.sandbox.state.transactions.filter((tx) => tx.kind === 'payout' && tx.status === 'pending').length,
	},
	'Swap → Finalize': {
		path: '/api/v2/wallets/finalize-swap',
		setup: async (f) => {
			const rows: IDataObject[] = [];
			for (let i = 0; i < 3; i++) {
				const quote = await callApi(f, 'POST', '/api/v1/wallets/initialize-swap', { sourceCurrency: 'usd', amount: '10', targetCurrency: 'ngn' });
				rows.push({ quoteId: quote.id });
			}
			return { parameters: { resource: 'swap', operation: 'finalize', quoteId: '={{ $json.quoteId }}' }, rows };
		},
		count: (f) => f.sandbox.state.transactions.filter((tx) => tx.kind === 'swap').length,
	},
	'Collection → Initialize': {
		path: '/api/v2/wallets/collections/initialize',
		setup: async () => ({
			parameters: {
				resource: 'collection',
				operation: 'initialize',
				country: 'NG',
				currency: 'NGN',
				customerEmail: '={{ $json.email }}',
				amount: 250000,
			},
			rows: [1, 2, 3].map((n) => ({ email: `payer${n}@example.com` })),
		}),
		count: (f) => f.sandbox.state.transactions.filter((tx) => tx.kind === 'collection').length,
	},
	'Card → Create': {
		path: '/api/v1/virtualcards/create',
		setup: async (f) => {
			await issueCard(f);
			return {
				parameters: { resource: 'card', operation: 'create', customerEmail: CARD_HOLDER.customerEmail, amount: '={{ $json.amount }}' },
				rows: [{ amount: 10 }, { amount: 11 }, { amount: 12 }],
			};
		},
		// issueCard created one card itself.
		count: (f) => f.sandbox.state.cards.length - 1,
	},
	'Card → Top Up': {
		path: '/api/v1/virtualcards/topup',
		setup: async (f) => {
			const { cardId } = await issueCard(f);
			return { parameters: { resource: 'card', operation: 'topUp', cardId, amount: '={{ $json.amount }}' }, rows: [{ amount: 5 }, { amount: 6 }, { amount: 7 }] };
		},
		count: (f) => f.sandbox.state.cardTransactions.filter((tx) => tx.method === 'topup').length,
	},
	'Card → Withdraw': {
		path: '/api/v1/virtualcards/withdraw',
		setup: async (f) => {
			const { cardId } = await issueCard(f, 100);
			return { parameters: { resource: 'card', operation: 'withdraw', cardId, amount: '={{ $json.amount }}' }, rows: [{ amount: 1 }, { amount: 2 }, { amount: 3 }] };
		},
		count: (f) => f.sandbox.state.cardTransactions.filter((tx) => tx.method === 'withdrawal').length,
	},
	'Beneficiary → Create': {
		path: '/api/v2/beneficiaries',
		setup: async () => ({
			parameters: {
				resource: 'beneficiary',
				operation: 'create',
				country: 'KE',
				currency: 'KES',
				customerEmail: 'ann@example.com',
				destinationType: 'MOBILEMONEY',
				destinationFields: destinationForm({ ...KENYA_MOBILE_MONEY, accountName: '={{ $json.name }}' }),
			},
			rows: [{ name: 'Ann Doe' }, { name: 'Bob Doe' }, { name: 'Cy Doe' }],
		}),
		count: (f) => f.sandbox.state.beneficiaries.length,
	},
};

const posts = (path: string) => fixture.apiRequests().filter((r) => r.method === 'POST' && r.path === path);
const outputs = (result: RunResult) => result.items.map((item) => item.json);

describe.each(['unique', 'lenient'] as ReferenceMode[])('with a service whose references are %s', (references) => {
	beforeEach(() => fixture.sandbox.configure({ references }));

	describe.each(Object.entries(cases))('%s', (_name, { path, setup, count }) => {
		test('Retry On Fail after a 503 on item 2 of 3 that was carried out (one at a time): each item done once, item 2 reported unknown', async () => {
			const { parameters: own, rows } = await setup(fixture);
			// Items per Batch 1: item 3 is not yet sent when item 2 fails (concurrentSends.test.ts has the default).
			const parameters = { ...own, batching: { itemsPerBatch: 1 } };
			const before = count(fixture);
			fixture.sandbox.injectFailure({ method: 'POST', path, status: 503, phase: 'after', skip: 1 });

			const first = await fixture.run(parameters, { items: rows, executionId: 'exec-1' });
			const error = first.error as NodeApiError;
			expect(error.httpCode).toBe('503');
			expect(error.description).toMatch(/will not be sent again by a re-run of this node/);
			expect(count(fixture)).toBe(before + 2);

			const retry = await fixture.run(parameters, { items: rows, executionId: 'exec-1' });
			expect(retry.error).toBeUndefined();
			expect(outputs(retry).map((json) => [json.alreadySubmitted ?? false, json.outcome ?? 'sent'])).toEqual([
				[true, 'accepted'],
				[true, 'unknown'],
				[false, 'sent'],
			]);
			expect(outputs(retry)[1].message).toMatch(/may have been carried out\. Check with Transaction → Get/);
			expect(retry.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(posts(path)).toHaveLength(3);
			expect(count(fixture)).toBe(before + 3);
		});

		test('a 503 before anything was done: the retry does not resend item 2 (unknown); Allow Resend does, once', async () => {
			const { parameters, rows } = await setup(fixture);
			const before = count(fixture);
			fixture.sandbox.injectFailure({ method: 'POST', path, status: 503, skip: 1 });

			expect((await fixture.run(parameters, { items: rows, executionId: 'exec-2' })).error).toBeDefined();
			const retry = await fixture.run(parameters, { items: rows, executionId: 'exec-2' });
			expect(outputs(retry)[1]).toMatchObject({ alreadySubmitted: true, sent: false, outcome: 'unknown' });
			expect(count(fixture)).toBe(before + 2);

			// The user checked: item 2 was not done. Allow Resend sends what is not accepted… and
			// the items already accepted too, so it is used on the one row.
			const resend = await fixture.run({ ...parameters, duplicateProtection: { allowResend: true } }, { items: [rows[1]], trigger: { resend: 1 } });
			expect(resend.error).toBeUndefined();
			expect(count(fixture)).toBe(before + 3);
		});

		test('the same run again (Retry execution, the editor, a repeated event) sends nothing; a new run with identical rows does (a Finalize: does not)', async () => {
			const { parameters, rows } = await setup(fixture);
			const before = count(fixture);
			const trigger = { event: 'payroll.ready', id: 'evt-1' };

			expect((await fixture.run(parameters, { items: rows, trigger, executionId: 'exec-3' })).error).toBeUndefined();
			for (const executionId of ['exec-4', 'exec-5']) {
				const again = await fixture.run(parameters, { items: rows, trigger, executionId });
				expect(again.error).toBeUndefined();
				expect(outputs(again).map((json) => [json.alreadySubmitted, json.sent, json.outcome])).toEqual(
					rows.map(() => [true, false, 'accepted']),
				);
			}
			expect(posts(path)).toHaveLength(3);
			expect(count(fixture)).toBe(before + 3);

			const nextTick = await fixture.run(parameters, { items: rows, trigger: { ...trigger, id: 'evt-2' } });
			expect(nextTick.error).toBeUndefined();
			if (_name.includes('Finalize')) {
				// A payout or a quote is finalized once: its ID is the key, so no later run sends it.
				expect(outputs(nextTick).map((json) => [json.alreadySubmitted, json.sent, json.outcome])).toEqual(
					rows.map(() => [true, false, 'accepted']),
				);
				expect(posts(path)).toHaveLength(3);
				expect(count(fixture)).toBe(before + 3);
				return;
			}
			expect(outputs(nextTick).some((json) => json.alreadySubmitted)).toBe(false);
			expect(count(fixture)).toBe(before + 6);
		});
	});
});

describe('a business failure on item 3 of 3, then Retry execution (twice), then the data fixed', () => {
	const legacy = cases['Payout → Initiate (Legacy)'];
	const current = cases['Payout → Initiate'];
	const UNKNOWN = '0e0e0e0e-0000-4000-8000-000000000000';

	test.each([
		['Payout → Initiate', current],
		['Payout → Initiate (Legacy)', legacy],
	])('%s: exactly one payout per payee', async (_name, { setup, count }) => {
		const { parameters, rows } = await setup(fixture);
		const fixedId = rows[2].beneficiaryId;
		rows[2] = { ...rows[2], beneficiaryId: UNKNOWN };
		const trigger = { body: 'three payees' };

		const first = await fixture.run(parameters, { items: rows, trigger, executionId: 'exec-10' });
		expect((first.error as NodeApiError).httpCode).toBe('404');
		expect(count(fixture)).toBe(2);
		for (const executionId of ['exec-11', 'exec-12']) {
			const retry = await fixture.run(parameters, { items: rows, trigger, executionId });
			expect((retry.error as NodeApiError).httpCode).toBe('404');
		}
		expect(count(fixture)).toBe(2);

		// The user fixes row 3 (in n8n: the saved workflow's mapping) and retries again.
		const fixedRows = [rows[0], rows[1], { ...rows[2], beneficiaryId: fixedId }];
		const fixed = await fixture.run(parameters, { items: fixedRows, trigger, executionId: 'exec-13' });
		expect(fixed.error).toBeUndefined();
		expect(outputs(fixed).map((json) => json.alreadySubmitted ?? false)).toEqual([true, true, false]);
		expect(count(fixture)).toBe(3);
		const paidTo = fixture.sandbox.state.transactions.filter((tx) => tx.kind === 'payout').map((tx) => tx.beneficiaryId).sort();
		expect(paidTo).toEqual([rows[0].beneficiaryId, rows[1].beneficiaryId, fixedId].sort());
	});

	test('Continue On Fail, then a later run with the failed row fixed: the paid rows are skipped by their Idempotency Key', async () => {
		const { parameters, rows } = await current.setup(fixture);
		const keyed = { ...parameters, duplicateProtection: { idempotencyKey: '={{ $json.invoice }}' } };
		const invoices = rows.map((row, i) => ({ ...row, invoice: `INV-${i + 1}` }));
		const broken = [invoices[0], invoices[1], { ...invoices[2], beneficiaryId: UNKNOWN }];

		const first = await fixture.run(keyed, { items: broken, continueOnFail: true, trigger: { upload: 'monday.csv' } });
		expect(first.error).toBeUndefined();
		expect(outputs(first)[2]).toMatchObject({ httpCode: '404' });
		expect(current.count(fixture)).toBe(2);

		// A later, different run (a new upload) sends all three rows again, row 3 fixed.
		const later = await fixture.run(keyed, { items: invoices, trigger: { upload: 'monday-fixed.csv' } });
		expect(later.error).toBeUndefined();
		expect(outputs(later).map((json) => [json.alreadySubmitted ?? false, json.idempotencyKey ?? null])).toEqual([
			[true, 'INV-1'],
			[true, 'INV-2'],
			[false, null],
		]);
		expect(current.count(fixture)).toBe(3);
	});
});

test('Beneficiary → Create run again outputs the beneficiary the first run created (found by its reference)', async () => {
	const { parameters, rows } = await cases['Beneficiary → Create'].setup(fixture);
	const first = await fixture.run(parameters, { items: rows });
	const again = await fixture.run(parameters, { items: rows });
	expect(again.error).toBeUndefined();
	expect(outputs(again).map((json) => [json.alreadySubmitted, json.id, json.reference])).toEqual(
		outputs(first).map((json) => [true, json.id, json.reference]),
	);
	expect(fixture.sandbox.state.beneficiaries).toHaveLength(3);
});

test.each(['Payout → Finalize (Legacy)', 'Swap → Finalize'])('%s: the same ID twice in one run is sent once; the other item reports it already submitted', async (name) => {
	const { path, setup, count } = cases[name];
	const { parameters, rows } = await setup(fixture);
	const result = await fixture.run(parameters, { items: [rows[0], rows[1], rows[0]] });
	expect(result.error).toBeUndefined();
	expect(outputs(result).map((json) => [json.alreadySubmitted ?? false, json.outcome ?? 'sent'])).toEqual([
		[false, 'sent'],
		[false, 'sent'],
		[true, 'accepted'],
	]);
	expect(posts(path)).toHaveLength(2);
	expect(count(fixture)).toBe(2);
});

test('two deliveries of one trigger event (same eventKey, other headers) are one run: nothing is paid twice', async () => {
	const { parameters, rows } = await cases['Payout → Initiate'].setup(fixture);
	const event = { event: 'payroll.ready', data: { id: 'evt-9' }, eventKey: '["payroll.ready","evt-9",null]' };
	expect((await fixture.run(parameters, { items: rows, trigger: { ...event, headers: { 'x-request-id': 'a' } } })).error).toBeUndefined();
	const again = await fixture.run(parameters, { items: rows, trigger: { ...event, headers: { 'x-request-id': 'b' } } });
	expect(outputs(again).map((json) => json.alreadySubmitted)).toEqual([true, true, true]);
	// Another event with the same rows is another run.
	const next = await fixture.run(parameters, { items: rows, trigger: { ...event, eventKey: '["payroll.ready","evt-10",null]' } });
	expect(outputs(next).some((json) => json.alreadySubmitted)).toBe(false);
	expect(payouts(fixture)).toBe(6);
});

describe('pre-flight: every item is checked before the first request', () => {
	test('a bad row 3 stops the run before row 1 is paid', async () => {
		const { parameters, rows } = await cases['Payout → Initiate'].setup(fixture);
		rows[2] = { ...rows[2], amount: -5 };
		const result = await fixture.run(parameters, { items: rows });
		expect(result.error?.message).toBe('Invalid "Amount (Minor Units)": must be greater than zero, not -5 (item 2)');
		expect(fixture.apiRequests()).toHaveLength(0);
	});

	test('with Continue On Fail the bad row becomes its error item, in order, and the others are paid', async () => {
		const { parameters, rows } = await cases['Payout → Initiate'].setup(fixture);
		rows[1] = { ...rows[1], amount: 'ten' };
		const result = await fixture.run(parameters, { items: rows, continueOnFail: true });
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(outputs(result)[1].error).toMatch(/^Invalid "Amount \(Minor Units\)": must be a number/);
		expect(payouts(fixture)).toBe(2);
	});
});

describe('the store', () => {
	test('nothing is sent when n8n cannot record the key (fail closed)', async () => {
		const { parameters, rows } = await cases['Card → Top Up'].setup(fixture);
		// A workflow without an ID cannot use n8n's store; the node refuses rather than risk a repeat.
		const result = await fixture.run(parameters, { items: rows.slice(0, 1), workflowId: '' });
		expect(result.error?.message).toBe('Save the workflow first: nothing was sent');
		expect(fixture.apiRequests()).toHaveLength(0);
	});
});

test('every operation that creates something offers Duplicate Protection; every Reference field explains its default', () => {
	const properties = new WalletPayments().description.properties;
	const guarded = properties
		.filter((property) => property.name === 'duplicateProtection')
		.map((property) => `${property.displayOptions?.show?.resource?.[0]}.${property.displayOptions?.show?.operation?.[0]}`)
		.sort();
	expect(guarded).toEqual([
		'beneficiary.create',
		'card.create',
		'card.topUp',
		'card.withdraw',
		'collection.initialize',
		'payout.finalizeLegacy',
		'payout.initiate',
		'payout.initiateLegacy',
		'swap.finalize',
	]);
	const operationOf = (property: (typeof properties)[number]) =>
		`${property.displayOptions?.show?.resource?.[0]}.${property.displayOptions?.show?.operation?.[0]}`;
	const referenceHints = properties
		.filter((property) => guarded.includes(operationOf(property)))
		.flatMap((property) => [property, ...((property.options ?? []) as Array<{ name?: string; hint?: string }>)])
		.filter((field) => (field as { name?: string }).name === 'reference')
		.map((field) => (field as { hint?: string }).hint);
	// Every operation that takes a reference: legacy payout, collection, beneficiary, card create, top-up, withdraw.
	expect(referenceHints).toHaveLength(6);
	expect(new Set(referenceHints)).toEqual(new Set([REFERENCE_HINT]));
	expect(properties.some((property) => property.type === 'notice' && /Retry On Fail/.test(property.displayName))).toBe(false);
});
