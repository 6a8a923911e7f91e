/**
 * Every Wallet Payments operation that moves money or bills someone, as exactlyOnce.e2e.test.ts
 * drives them: the node's parameters (reading one item's row), how to make three rows the
 * service accepts (through the sandbox's API), the bad value item 3 gets and how the service
 * refuses it, the endpoint to inject failures on, and how to count what the service accepted
 * for a row.
 */
import type { Sandbox, SandboxState } from '../../../tooling/sandbox';

/** One item: the fields the node's expressions read. */
export type Row = Record<string, unknown>;

/** What the table needs from the test: the sandbox, its API, and numbers never used before. */
export interface OperationEnv {
	sandbox: Sandbox;
	api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
	next(): number;
}

export interface MoneyOperation {
	/** One character for workflow IDs. */
	code: string;
	/** As printed in the `exactly-once[…]` lines. */
	label: string;
	resource: string;
	operation: string;
	/** The endpoint the node POSTs each item to (for failure injection). */
	path: string;
	/** The node's parameters; `value` is the expression for the row's `field`. */
	parameters(value: string): Record<string, unknown>;
	/** Three fresh rows the service accepts. */
	rows(env: OperationEnv): Promise<Row[]>;
	/** The row field item 3 gets wrong, the wrong value, and the HTTP status that refuses it. */
	field: string;
	bad: string;
	refusedWith: '400' | '404';
	/** How many operations the service accepted for this row. */
	count(state: SandboxState, row: Row): number;
	/** Words for the lines: "503 after <item> 2 was <done>". */
	item: string;
	done: string;
	/**
	 * A new run (a schedule) with identical rows: done again, or — for what can be done only once
	 * (a payout or a quote is finalized once) — not sent, as the ID that is the item's key (named
	 * here) was sent before. The service itself refuses a second time for these, so counting what
	 * it accepted cannot tell whether the node sent it again: the requests that carry the row's
	 * `field` are counted.
	 */
	repeat: 'again' | { onceBy: string };
}

export const UNKNOWN_ID = '0e0e0e0e-0000-4000-8000-000000000000';
const CALLBACK_URL = 'https://n8n.example.com/webhook/wallet-events';

const locator = (value: string) => ({ __rl: true, mode: 'id', value });

async function beneficiary(env: OperationEnv, n: number): Promise<string> {
	const created = await env.api<{ id: string }>('POST', '/api/v2/beneficiaries', {
		country: 'KE',
		currency: 'KES',
		customerEmail: `payee${n}@example.com`,
		destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: `Payee ${n}`, accountNumber: '254712345678' },
	});
	return created.id;
}

/** Three payees, each a fresh saved beneficiary. */
async function payees(env: OperationEnv): Promise<Row[]> {
	const rows: Row[] = [];
	for (let i = 0; i < 3; i++) {
		const n = env.next();
		rows.push({ beneficiaryId: await beneficiary(env, n), amount: 1000 + n, email: `payee${n}@example.com` });
	}
	return rows;
}

const paidTo = (state: SandboxState, row: Row) =>
	state.transactions.filter((tx) => tx.kind === 'payout' && tx.beneficiaryId === row.beneficiaryId).length;

/** A registered card user (a fresh email). */
async function cardUser(env: OperationEnv): Promise<string> {
	const email = `card.holder${env.next()}@example.com`;
	await env.api('POST', '/api/v1/virtualcards/registercarduser', {
		customerEmail: email,
		firstName: 'Ada',
		lastName: 'Okafor',
		country: 'US',
		idType: 'PASSPORT',
		idNumber: 'P1234567',
	});
	return email;
}

/** Three issued, active cards of one card user, each loaded with `amount` USD. */
async function cards(env: OperationEnv, amount: number): Promise<string[]> {
	const email = await cardUser(env);
	const ids: string[] = [];
	for (let i = 0; i < 3; i++) {
		const card = await env.api<{ id: string }>('POST', '/api/v1/virtualcards/create', { customerEmail: email, amount });
		await env.sandbox.controls.completeCardCreation(card.id);
		ids.push(card.id);
	}
	return ids;
}

const cardMoney = (state: SandboxState, row: Row, method: 'topup' | 'withdrawal') =>
	state.cardTransactions.filter((tx) => tx.cardId === row.cardId && tx.method === method).length;

export const MONEY_OPERATIONS: MoneyOperation[] = [
	{
		code: 'I',
		label: 'Initiate',
		resource: 'payout',
		operation: 'initiate',
		path: '/api/v2/wallets/payout/initialize',
		parameters: (value) => ({
			sourceWalletCurrency: 'USD',
			amount: '={{ $json.amount }}',
			customerEmail: '={{ $json.email }}',
			description: 'Payroll',
			beneficiaryMode: 'id',
			beneficiaryId: locator(value),
		}),
		rows: payees,
		field: 'beneficiaryId',
		bad: UNKNOWN_ID,
		refusedWith: '404',
		count: paidTo,
		item: 'payee',
		done: 'paid',
		repeat: 'again',
	},
	{
		code: 'L',
		label: 'Initiate (Legacy)',
		resource: 'payout',
		operation: 'initiateLegacy',
		path: '/api/v1/wallets/payout/initialize',
		parameters: (value) => ({
			sourceWalletCurrency: 'USD',
			amount: '={{ $json.amount }}',
			customerEmail: '={{ $json.email }}',
			description: 'Payroll',
			beneficiaryId: locator(value),
			callbackUrl: CALLBACK_URL,
		}),
		rows: payees,
		field: 'beneficiaryId',
		bad: UNKNOWN_ID,
		refusedWith: '404',
		count: paidTo,
		item: 'payee',
		done: 'paid',
		repeat: 'again',
	},
	{
		code: 'F',
		label: 'Payout → Finalize (Legacy)',
		resource: 'payout',
		operation: 'finalizeLegacy',
		path: '/api/v1/wallets/payout/finalize',
		parameters: (value) => ({ transactionId: value }),
		// Three legacy payouts, initiated (not finalized) through the API, one per fresh beneficiary.
		rows: async (env) => {
			const rows: Row[] = [];
			for (let i = 0; i < 3; i++) {
				const n = env.next();
				const payout = await env.api<{ id: string }>('POST', '/api/v1/wallets/payout/initialize', {
					amount: 1000 + n,
					reference: `legacy-${n}`,
					customerEmail: `payee${n}@example.com`,
					description: 'Payroll',
					beneficiaryId: await beneficiary(env, n),
					sourceWalletCurrency: 'USD',
					callbackUrl: CALLBACK_URL,
				});
				rows.push({ transactionId: payout.id });
			}
			return rows;
		},
		field: 'transactionId',
		bad: UNKNOWN_ID,
		refusedWith: '404',
		count: (state, row) =>
			state.transactions.filter((tx) => tx.kind === 'payout' && tx.id === row.transactionId && tx.status === 'pending').length,
		item: 'payout',
		done: 'finalized',
		repeat: { onceBy: 'the transaction ID' },
	},
	{
		code: 'S',
		label: 'Swap → Finalize',
		resource: 'swap',
		operation: 'finalize',
		path: '/api/v2/wallets/finalize-swap',
		parameters: (value) => ({ quoteId: value }),
		rows: async (env) => {
			const rows: Row[] = [];
			for (let i = 0; i < 3; i++) {
				const quote = await env.api<{ id: string }>('POST', '/api/v1/wallets/initialize-swap', {
					sourceCurrency: 'USD',
					amount: 10 + i,
					targetCurrency: 'NGN',
				});
				rows.push({ quoteId: quote.id });
			}
			return rows;
		},
		field: 'quoteId',
		bad: UNKNOWN_ID,
		refusedWith: '404',
		count: (state, row) => state.transactions.filter((tx) => tx.kind === 'swap' && tx.quoteId === row.quoteId).length,
		item: 'quote',
		done: 'swapped',
		repeat: { onceBy: 'the quote ID' },
	},
	{
		code: 'C',
		label: 'Collection → Initialize',
		resource: 'collection',
		operation: 'initialize',
		path: '/api/v2/wallets/collections/initialize',
		parameters: (value) => ({
			country: 'NG',
			currency: value,
			customerEmail: '={{ $json.email }}',
			amount: '={{ $json.amount }}',
		}),
		rows: async (env) =>
			[0, 1, 2].map(() => {
				const n = env.next();
				return { email: `payer${n}@example.com`, currency: 'NGN', amount: 250000 + n };
			}),
		// The sandbox has no XOF wallet: 400 "currency must be one of …".
		field: 'currency',
		bad: 'XOF',
		refusedWith: '400',
		count: (state, row) => state.transactions.filter((tx) => tx.kind === 'collection' && tx.customerEmail === row.email).length,
		item: 'collection',
		done: 'requested',
		repeat: 'again',
	},
	{
		code: 'K',
		label: 'Card → Create',
		resource: 'card',
		operation: 'create',
		path: '/api/v1/virtualcards/create',
		parameters: (value) => ({ customerEmail: value, amount: '={{ $json.amount }}' }),
		// Three card users, one card each.
		rows: async (env) => {
			const rows: Row[] = [];
			for (const amount of [10, 11, 12]) rows.push({ email: await cardUser(env), amount });
			return rows;
		},
		// Not a registered card user: 400 "Card user … does not exist; register the card user first".
		field: 'email',
		bad: 'not.a.card.user@example.com',
		refusedWith: '400',
		count: (state, row) => state.cards.filter((card) => card.customerEmail === row.email).length,
		item: 'card',
		done: 'created',
		repeat: 'again',
	},
	{
		code: 'T',
		label: 'Card → Top Up',
		resource: 'card',
		operation: 'topUp',
		path: '/api/v1/virtualcards/topup',
		parameters: (value) => ({ cardId: value, amount: '={{ $json.amount }}' }),
		rows: async (env) => (await cards(env, 50)).map((cardId, i) => ({ cardId, amount: 5 + i })),
		field: 'cardId',
		bad: UNKNOWN_ID,
		refusedWith: '404',
		count: (state, row) => cardMoney(state, row, 'topup'),
		item: 'top-up',
		done: 'made',
		repeat: 'again',
	},
	{
		code: 'W',
		label: 'Card → Withdraw',
		resource: 'card',
		operation: 'withdraw',
		path: '/api/v1/virtualcards/withdraw',
		parameters: (value) => ({ cardId: value, amount: '={{ $json.amount }}' }),
		rows: async (env) => (await cards(env, 100)).map((cardId, i) => ({ cardId, amount: 5 + i })),
		field: 'cardId',
		bad: UNKNOWN_ID,
		refusedWith: '404',
		count: (state, row) => cardMoney(state, row, 'withdrawal'),
		item: 'withdrawal',
		done: 'made',
		repeat: 'again',
	},
];
