/**
 * Tests of two sandbox modes that imitate real services, over real HTTP (127.0.0.1 only):
 * failure rules acting after the request was carried out (`phase: 'after'`), and references
 * that may be reused (`references: 'lenient'`).
 */
import { startSandbox, type ReferenceMode, type Sandbox } from '../../../tooling/sandbox';
import { waitFor } from '../../helpers/sandbox/waitFor';

// ---------------------------------------------------------------- helpers

interface Reply {
	status: number;
	body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

let sandbox: Sandbox;

async function api(method: string, path: string, body?: unknown, options: { auth?: string | null } = {}): Promise<Reply> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	const auth = options.auth === undefined ? `Bearer ${sandbox.apiKey}` : options.auth;
	if (auth !== null) headers.authorization = auth;
	const res = await fetch(sandbox.url + path, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	return { status: res.status, body: parsed };
}

const PAYOUT = '/api/v2/wallets/payout/initialize';
const KE_DESTINATION = { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'Jane Doe', accountNumber: '254712345678' };
const PAYOUT_BODY = { amount: 1000, sourceWalletCurrency: 'USD', customerEmail: 'payer@example.com', description: 'd' };
/** amount 1000 plus the 1% fee. */
const PAYOUT_DEBIT = 1010;

// Counting payouts needs no helper: the state keeps them, with their beneficiary, in `transactions`.
const payoutsTo = (beneficiaryId: string) =>
	sandbox.state.transactions.filter((t) => t.kind === 'payout' && t.beneficiaryId === beneficiaryId).length;
// A payout to a stored beneficiary copies its destination too, hence `beneficiaryId === null`.
const inlinePayoutsTo = (accountNumber: string) =>
	sandbox.state.transactions.filter(
		(t) => t.kind === 'payout' && t.beneficiaryId === null && t.destination.accountNumber === accountNumber,
	).length;

async function createBeneficiary(): Promise<string> {
	const res = await api('POST', '/api/v2/beneficiaries', {
		currency: 'KES',
		country: 'KE',
		customerEmail: 'payee@example.com',
		destination: KE_DESTINATION,
	});
	expect(res.status).toBe(200);
	return res.body.data.id;
}

async function registerCardUser(): Promise<void> {
	const res = await api('POST', '/api/v1/virtualcards/registercarduser', {
		customerEmail: 'holder@example.com',
		firstName: 'Ama',
		lastName: 'Mensah',
		idType: 'PASSPORT',
		idNumber: 'P1234567',
		country: 'KE',
	});
	expect(res.status).toBe(200);
}

/** A registered user with an issued, active card holding 100 USD. */
async function issuedCard(): Promise<string> {
	await registerCardUser();
	const created = await api('POST', '/api/v1/virtualcards/create', { customerEmail: 'holder@example.com', amount: 100 });
	expect(created.status).toBe(200);
	await sandbox.controls.completeCardCreation(created.body.data.id);
	return created.body.data.id;
}

beforeAll(async () => {
	sandbox = await startSandbox({ webhook: { retryDelaysMs: [] } });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.reset();
	sandbox.configure({ autoIssueCards: false, references: 'unique' });
});

// ---------------------------------------------------------------- failures after commit

describe('failure rules after commit (phase: after)', () => {
	it('answers the failure, but the payout exists and the wallet was debited', async () => {
		const beneficiaryId = await createBeneficiary();
		const before = sandbox.state.wallets.USD;
		sandbox.injectFailure({ method: 'POST', path: PAYOUT, status: 503, phase: 'after' });
		const res = await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId });
		expect(res.status).toBe(503);
		expect(res.body).toEqual({ status: false, message: 'Service Unavailable' });
		expect(payoutsTo(beneficiaryId)).toBe(1);
		expect(sandbox.state.transactions[0]).toMatchObject({ kind: 'payout', status: 'initiated', centAmount: 1000 });
		expect(sandbox.state.wallets.USD).toBe(before - PAYOUT_DEBIT);

		// The rule is used up: the retry is a second, successful payout.
		expect((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId })).status).toBe(200);
		expect(payoutsTo(beneficiaryId)).toBe(2);
		expect(sandbox.state.wallets.USD).toBe(before - 2 * PAYOUT_DEBIT);
	});

	it('skip lets the first matching requests through: item 2 of 3 fails (after commit), 1 and 3 do not', async () => {
		const beneficiaryId = await createBeneficiary();
		sandbox.injectFailure({ method: 'POST', path: PAYOUT, status: 503, phase: 'after', skip: 1 });
		const statuses: number[] = [];
		for (let i = 0; i < 3; i++) statuses.push((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId })).status);
		expect(statuses).toEqual([200, 503, 200]);
		expect(payoutsTo(beneficiaryId)).toBe(3);

		sandbox.injectFailure({ path: PAYOUT, status: 503, skip: 2 });
		for (let i = 0; i < 3; i++) statuses.push((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId })).status);
		expect(statuses.slice(3)).toEqual([200, 200, 503]);
		expect(payoutsTo(beneficiaryId)).toBe(5);
	});

	it('a skip that is not a whole number is refused', () => {
		expect(() => sandbox.injectFailure({ path: PAYOUT, status: 503, skip: 1.5 })).toThrow('skip must be a whole number, 0 or more');
	});

	it('a before rule (explicit or by default) leaves no transaction', async () => {
		const beneficiaryId = await createBeneficiary();
		const before = sandbox.state.wallets.USD;
		sandbox.injectFailure({ path: PAYOUT, status: 503, phase: 'before' });
		sandbox.injectFailure({ path: PAYOUT, status: 503 });
		expect((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId })).status).toBe(503);
		expect((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId })).status).toBe(503);
		expect(payoutsTo(beneficiaryId)).toBe(0);
		expect(sandbox.state.transactions).toHaveLength(0);
		expect(sandbox.state.wallets.USD).toBe(before);
	});

	it('drops the socket or hangs after commit, the payout existing all the same', async () => {
		const inline = { ...PAYOUT_BODY, beneficiary: { country: 'KE', currency: 'KES', destination: KE_DESTINATION } };
		const before = sandbox.state.wallets.USD;
		sandbox.injectFailure({ path: PAYOUT, status: 0, action: 'destroy', phase: 'after' });
		await expect(
			fetch(sandbox.url + PAYOUT, {
				method: 'POST',
				headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify(inline),
			}),
		).rejects.toThrow();
		expect(inlinePayoutsTo(KE_DESTINATION.accountNumber)).toBe(1);
		expect(sandbox.state.wallets.USD).toBe(before - PAYOUT_DEBIT);

		sandbox.injectFailure({ path: PAYOUT, status: 0, action: 'hang', phase: 'after' });
		await expect(
			fetch(sandbox.url + PAYOUT, {
				method: 'POST',
				headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify(inline),
				signal: AbortSignal.timeout(150),
			}),
		).rejects.toThrow();
		expect(inlinePayoutsTo(KE_DESTINATION.accountNumber)).toBe(2);
		expect(sandbox.state.wallets.USD).toBe(before - 2 * PAYOUT_DEBIT);
	});

	it('is not used up by a request that fails on its own', async () => {
		const beneficiaryId = await createBeneficiary();
		sandbox.injectFailure({ path: PAYOUT, status: 503, phase: 'after' });
		const invalid = await api('POST', PAYOUT, { ...PAYOUT_BODY, description: undefined, beneficiaryId });
		expect(invalid.status).toBe(400);
		expect(invalid.body.message).toEqual(['description is required']);
		expect((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId }, { auth: null })).status).toBe(401);
		expect((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId: 'missing' })).status).toBe(404);
		sandbox.controls.setWalletBalance('USD', 5);
		expect((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId })).body.message).toBe('Insufficient balance');
		expect(sandbox.state.transactions).toHaveLength(0);

		sandbox.controls.setWalletBalance('USD', 1_000_000);
		expect((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId })).status).toBe(503);
		expect((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId })).status).toBe(200);
		expect(payoutsTo(beneficiaryId)).toBe(2);
	});

	it('still runs the follow-up work of the request (auto-issuing a card)', async () => {
		sandbox.configure({ autoIssueCards: true });
		await registerCardUser();
		sandbox.injectFailure({ path: '/api/v1/virtualcards/create', status: 504, body: '<html>Gateway Timeout</html>', phase: 'after' });
		const res = await api('POST', '/api/v1/virtualcards/create', { customerEmail: 'holder@example.com', amount: 10 });
		expect(res.status).toBe(504);
		await waitFor(() => sandbox.state.cards[0]?.status === 'active');
		expect(sandbox.state.cards).toHaveLength(1);
		expect(sandbox.state.cards[0]).toMatchObject({ createdStatus: 'success', balanceCents: 1000 });
	});

	it('takes phase over HTTP and validates it', async () => {
		const add = await api('POST', '/__sandbox/failures', {
			path: { regex: '^/api/v2/wallets/collections' },
			status: 502,
			delayMs: 20,
			phase: 'after',
		});
		expect(add.status).toBe(200);
		const body = { country: 'NG', currency: 'NGN', customerEmail: 'buyer@example.com', amount: 1000, reference: 'c-1' };
		expect((await api('POST', '/api/v2/wallets/collections/initialize', body)).status).toBe(502);
		expect(sandbox.state.transactions).toEqual([expect.objectContaining({ kind: 'collection', reference: 'c-1' })]);

		const bad = await api('POST', '/__sandbox/failures', { path: PAYOUT, status: 503, phase: 'later' });
		expect(bad.status).toBe(400);
		expect(bad.body.message).toEqual(['phase must be before or after']);
		expect(() => sandbox.injectFailure({ path: PAYOUT, status: 503, phase: 'later' as 'after' })).toThrow(
			'phase must be before or after',
		);
	});
});

// ---------------------------------------------------------------- lenient references

interface ReferenceCase {
	name: string;
	/** Prepares what the endpoint needs; returns the call taking a reference. */
	setup: () => Promise<(reference: string) => Promise<Reply>>;
	/** The records carrying a reference. */
	records: (reference: string) => Array<{ id: string }>;
}

const withReference = (list: () => Array<{ id: string; reference: string }>) => (reference: string) =>
	list().filter((r) => r.reference === reference);

const collectionCase = (version: string): ReferenceCase => ({
	name: `collection (${version})`,
	setup: async () => (reference) =>
		api('POST', `/api/${version}/wallets/collections/initialize`, {
			country: 'NG',
			currency: 'NGN',
			customerEmail: 'buyer@example.com',
			amount: 1000,
			reference,
		}),
	records: withReference(() => sandbox.state.transactions),
});

const REFERENCE_CASES: ReferenceCase[] = [
	{
		name: 'legacy payout',
		setup: async () => {
			const beneficiaryId = await createBeneficiary();
			return (reference) =>
				api('POST', '/api/v1/wallets/payout/initialize', {
					amount: 5000,
					reference,
					customerEmail: 'payer@example.com',
					description: 'Invoice 7',
					beneficiaryId,
					sourceWalletCurrency: 'USD',
					callbackUrl: 'http://127.0.0.1:1/callback',
				});
		},
		records: withReference(() => sandbox.state.transactions),
	},
	collectionCase('v1'),
	collectionCase('v2'),
	{
		name: 'card create',
		setup: async () => {
			await registerCardUser();
			return (reference) =>
				api('POST', '/api/v1/virtualcards/create', { customerEmail: 'holder@example.com', amount: 10, reference });
		},
		records: withReference(() => sandbox.state.cards),
	},
	{
		name: 'card top-up',
		setup: async () => {
			const cardId = await issuedCard();
			return (reference) => api('POST', '/api/v1/virtualcards/topup', { cardId, reference, amount: 5 });
		},
		records: withReference(() => sandbox.state.cardTransactions),
	},
	{
		name: 'card withdraw',
		setup: async () => {
			const cardId = await issuedCard();
			return (reference) => api('POST', '/api/v1/virtualcards/withdraw', { cardId, reference, amount: 1 });
		},
		records: withReference(() => sandbox.state.cardTransactions),
	},
];

describe('references: unique (default) and lenient', () => {
	it.each(REFERENCE_CASES.map((c) => [c.name, c] as const))(
		'%s: 409 when unique, a second record when lenient, 409 again once switched back',
		async (_name, { setup, records }) => {
			const send = await setup();
			const first = await send('ref-1');
			expect(first.status).toBe(200);
			const refused = await send('ref-1');
			expect(refused.status).toBe(409);
			expect(refused.body.message).toBe("Reference 'ref-1' has already been used");
			expect(records('ref-1')).toHaveLength(1);

			sandbox.configure({ references: 'lenient' });
			const second = await send('ref-1');
			expect(second.status).toBe(200);
			expect(second.body.data).toMatchObject({ reference: 'ref-1' });
			expect(second.body.data.id).not.toBe(first.body.data.id);
			expect(records('ref-1').map((r) => r.id)).toEqual([first.body.data.id, second.body.data.id]);

			const unique = await api('POST', '/__sandbox/config', { references: 'unique' });
			expect(unique.body.data.references).toBe('unique');
			expect((await send('ref-1')).status).toBe(409);
			expect(records('ref-1')).toHaveLength(2);
		},
	);

	it('is set over HTTP, validated, shown by GET config and kept by reset', async () => {
		expect((await api('GET', '/__sandbox/config')).body.data.references).toBe('unique');
		const bad = await api('POST', '/__sandbox/config', { references: 'loose' });
		expect(bad.status).toBe(400);
		expect(bad.body.message).toEqual(['references must be unique or lenient']);
		expect(() => sandbox.configure({ references: 'loose' as ReferenceMode })).toThrow('references must be unique or lenient');
		expect((await api('POST', '/__sandbox/config', { references: 'lenient' })).body.data.references).toBe('lenient');
		await api('POST', '/__sandbox/reset');
		expect((await api('GET', '/__sandbox/config')).body.data.references).toBe('lenient');
	});

	it('is a start option', async () => {
		const lenient = await startSandbox({ references: 'lenient' });
		try {
			const res = await fetch(`${lenient.url}/__sandbox/config`);
			const config = (await res.json()) as { data: { references: string } };
			expect(config.data.references).toBe('lenient');
		} finally {
			await lenient.close();
		}
		await expect(startSandbox({ references: 'loose' as ReferenceMode })).rejects.toThrow(
			'references must be unique or lenient',
		);
	});
});

describe('latency', () => {
	afterEach(() => sandbox.configure({ latency: { fixedMs: 0 } }));

	it('adds the fixed wait (and no more than the jitter) to every API answer, and records start and end', async () => {
		sandbox.configure({ latency: { fixedMs: 120, jitterMs: 40 } });
		const started = Date.now();
		const res = await api('GET', '/api/v2/customers');
		const took = Date.now() - started;
		expect(res.status).toBe(200);
		expect(took).toBeGreaterThanOrEqual(115);
		const [recorded] = sandbox.requests.slice(-1);
		expect(recorded.finishedMs! - recorded.startedMs!).toBeGreaterThanOrEqual(115);
	});

	it('is validated, over HTTP too', async () => {
		expect(() => sandbox.configure({ latency: { fixedMs: -1 } })).toThrow('latency must be { fixedMs, jitterMs? } in milliseconds, 0 to 60000');
		const res = await fetch(`${sandbox.url}/__sandbox/config`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ latency: { fixedMs: 50, jitterMs: 10 } }),
		});
		expect(((await res.json()) as { data: { latency: unknown } }).data.latency).toEqual({ fixedMs: 50, jitterMs: 10 });
	});
});

describe('settlement after a delay', () => {
	afterEach(() => sandbox.configure({ settlement: { delayMs: null } }));
	const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
	const statusOf = async (id: string) => (await api('GET', `/api/v2/transactions/${id}`)).body.data.status;

	it('payouts settle by themselves; a rule fails one beneficiary’s and reverses another’s, refunding the wallet', async () => {
		const [ok, failing, reversing] = [await createBeneficiary(), await createBeneficiary(), await createBeneficiary()];
		sandbox.configure({
			settlement: {
				delayMs: 150,
				rules: [
					{ beneficiaryId: failing, outcome: 'failed', reason: 'Account closed' },
					{ beneficiaryId: reversing, outcome: 'reversed', reason: 'Returned by the bank' },
				],
			},
		});
		const before = sandbox.state.wallets.USD;
		const ids: string[] = [];
		for (const beneficiaryId of [ok, failing, reversing]) {
			const res = await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId });
			ids.push(res.body.data.id);
		}
		expect(await Promise.all(ids.map(statusOf))).toEqual(['initiated', 'initiated', 'initiated']);
		await wait(250);
		expect(await Promise.all(ids.map(statusOf))).toEqual(['success', 'failed', 'success']);
		await wait(200);
		expect(await Promise.all(ids.map(statusOf))).toEqual(['success', 'failed', 'reversed']);
		expect((await api('GET', `/api/v2/transactions/${ids[1]}`)).body.data.failedReason).toBe('Account closed');
		expect(sandbox.state.wallets.USD).toBe(before - PAYOUT_DEBIT);
		expect(sandbox.deliveries.map((d) => d.event).sort()).toEqual([]); // no webhook URL configured in this suite
	});

	it('a control settles it first: the automatic settlement then does nothing', async () => {
		const beneficiaryId = await createBeneficiary();
		sandbox.configure({ settlement: { delayMs: 100 } });
		const id = (await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId })).body.data.id;
		await sandbox.controls.failPayout(id, 'by hand');
		await wait(200);
		expect(await statusOf(id)).toBe('failed');
	});

	it('a refused rule turns the payout down when it is sent, with or without a delay: HTTP 400, nothing created, nothing debited', async () => {
		const [ok, refused] = [await createBeneficiary(), await createBeneficiary()];
		for (const delayMs of [null, 100]) {
			sandbox.configure({ settlement: { delayMs, rules: [{ beneficiaryId: refused, outcome: 'refused', reason: 'Invalid account number' }] } });
			const before = { usd: sandbox.state.wallets.USD, payouts: sandbox.state.transactions.length };
			const res = await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId: refused });
			expect([res.status, res.body.status, res.body.message]).toEqual([400, false, 'Invalid account number']);
			expect([sandbox.state.wallets.USD, sandbox.state.transactions.length]).toEqual([before.usd, before.payouts]);
			expect((await api('POST', PAYOUT, { ...PAYOUT_BODY, beneficiaryId: ok })).status).toBe(200);
		}
	});

	it('is validated', () => {
		expect(() => sandbox.configure({ settlement: { delayMs: -5 } })).toThrow(/settlement must be/);
		expect(() => sandbox.configure({ settlement: { delayMs: 10, rules: [{ outcome: 'failed' } as never] } })).toThrow(/settlement must be/);
	});
});
