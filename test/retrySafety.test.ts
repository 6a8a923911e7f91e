import type { IDataObject, INodeParameters, NodeApiError } from 'n8n-workflow';

import { WalletPayments } from '../nodes/WalletPayments/WalletPayments.node';
import { REFERENCE_HINT } from '../nodes/WalletPayments/helpers/reference';
import { useSandbox, type SandboxFixture } from './helpers/sandbox';
import { CARD_HOLDER, derivedReference, issueCard } from './operations/support';
import { createBeneficiary, idLocator } from './operations/wallet-support';

const fixture = useSandbox();

interface Case {
	/** Sets up what the operation needs and returns its parameters (reference left empty). */
	parameters: (fixture: SandboxFixture) => Promise<INodeParameters>;
	/** How many records of this kind exist: proves a retried item did not do it twice. */
	count: (fixture: SandboxFixture) => number;
}

/** Every operation that moves money and carries a reference. */
const cases: Record<string, Case> = {
	'Payout → Initiate (Legacy)': {
		parameters: async (f) => ({
			resource: 'payout',
			operation: 'initiateLegacy',
			amount: 1050,
			sourceWalletCurrency: 'USD',
			customerEmail: 'ann@example.com',
			description: 'Invoice 42',
			beneficiaryId: idLocator((await createBeneficiary(f)).id as string),
			callbackUrl: 'https://n8n.example.com/webhook/wallet-events',
		}),
		count: (f) => f.sandbox.state.transactions.filter((tx) => tx.kind === 'payout').length,
	},
	'Collection → Initialize': {
		parameters: async () => ({ resource: 'collection', operation: 'initialize', country: 'NG', currency: 'NGN', customerEmail: 'ann@example.com', amountUnit: 'major', amount: 2500 }),
		count: (f) => f.sandbox.state.transactions.filter((tx) => tx.kind === 'collection').length,
	},
	'Card → Create': {
		parameters: async (f) => {
			await issueCard(f);
			return { resource: 'card', operation: 'create', customerEmail: CARD_HOLDER.customerEmail, amount: 10 };
		},
		count: (f) => f.sandbox.state.cards.length,
	},
	'Card → Top Up': {
		parameters: async (f) => ({ resource: 'card', operation: 'topUp', cardId: (await issueCard(f)).cardId, amount: 20 }),
		count: (f) => f.sandbox.state.cardTransactions.filter((tx) => tx.method === 'topup').length,
	},
	'Card → Withdraw': {
		parameters: async (f) => ({ resource: 'card', operation: 'withdraw', cardId: (await issueCard(f, 100)).cardId, amount: 5 }),
		count: (f) => f.sandbox.state.cardTransactions.filter((tx) => tx.method === 'withdrawal').length,
	},
};

describe.each(Object.entries(cases))('%s with Retry On Fail', (_name, { parameters, count }) => {
	test('a retried item resends the same derived reference and is refused as already submitted: it cannot pay twice', async () => {
		const params = await parameters(fixture);
		const before = count(fixture);
		fixture.sandbox.clearRequests();

		const first = await fixture.run(params, { executionId: 'exec-9', nodeId: 'money-node' });
		expect(first.error).toBeUndefined();
		// n8n's Retry On Fail runs the node again for the same item within the same execution.
		const retry = await fixture.run(params, { executionId: 'exec-9', nodeId: 'money-node' });

		const reference = derivedReference('exec-9', 0, 'money-node');
		const references = fixture.apiRequests().map((request) => (request.body as IDataObject).reference);
		expect(references).toEqual([reference, reference]);
		const error = retry.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('409');
		expect(error.message).toBe(`Already submitted: Reference '${reference}' has already been used [HTTP 409]`);
		expect(error.description).toContain(`Reference "${reference}" was already submitted`);
		expect(count(fixture)).toBe(before + 1);

		// Another execution is another payment, with another reference.
		const next = await fixture.run(params, { executionId: 'exec-10', nodeId: 'money-node' });
		expect(next.error).toBeUndefined();
		expect((fixture.apiRequests()[2].body as IDataObject).reference).toBe(derivedReference('exec-10', 0, 'money-node'));
		expect(count(fixture)).toBe(before + 2);
	});
});

test('every reference field of a money-moving operation explains the derived reference; Payout → Initiate warns against Retry On Fail', () => {
	const properties = new WalletPayments().description.properties;
	const referenceFields = [
		...properties.filter((property) => property.name === 'reference'),
		...properties.flatMap((property) =>
			(property.options ?? []).filter((option) => (option as { name?: string }).name === 'reference').map((option) => ({ ...option, displayOptions: property.displayOptions })),
		),
	] as Array<{ hint?: string; displayOptions?: { show?: { resource?: string[]; operation?: string[] } } }>;
	const withHint = referenceFields
		.filter((field) => field.hint === REFERENCE_HINT)
		.map((field) => `${field.displayOptions?.show?.resource?.[0]}.${field.displayOptions?.show?.operation?.[0]}`)
		.sort();
	expect(withHint).toEqual(['card.create', 'card.topUp', 'card.withdraw', 'collection.initialize', 'payout.initiateLegacy']);

	const notice = properties.find((property) => property.type === 'notice' && property.displayOptions?.show?.operation?.includes('initiate'));
	expect(notice?.displayName).toMatch(/^Do not turn on Retry On Fail for this operation: the API takes no reference here, so a retried request could pay twice/);
});
