/**
 * Tests of the sandbox itself, over real HTTP (127.0.0.1 only) with Node's global fetch.
 */
import { createHmac } from 'crypto';
import http from 'http';
import type { AddressInfo } from 'net';

import { isLuhnValid, startSandbox, type Sandbox } from '../../../tooling/sandbox';

// ---------------------------------------------------------------- helpers

const START = Date.parse('2030-01-01T00:00:00.000Z');
let clockMs = START;
const now = () => new Date(clockMs);
const advance = (seconds: number) => {
	clockMs += seconds * 1000;
};

interface Reply {
	status: number;
	headers: Headers;
	body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
	text: string;
}

function client(getSandbox: () => Sandbox) {
	return async function api(
		method: string,
		path: string,
		body?: unknown,
		options: { auth?: string | null; raw?: string } = {},
	): Promise<Reply> {
		const sandbox = getSandbox();
		const headers: Record<string, string> = { 'content-type': 'application/json' };
		const auth = options.auth === undefined ? `Bearer ${sandbox.apiKey}` : options.auth;
		if (auth !== null) headers.authorization = auth;
		const res = await fetch(sandbox.url + path, {
			method,
			headers,
			body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
		});
		const text = await res.text();
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = undefined;
		}
		return { status: res.status, headers: res.headers, body: parsed, text };
	};
}

interface Received {
	path: string;
	headers: http.IncomingHttpHeaders;
	raw: string;
}

/** A tiny webhook receiver answering each request with the next queued status (then 200). */
async function startReceiver(statuses: number[] = []) {
	const received: Received[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			received.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
			res.writeHead(statuses.shift() ?? 200, { connection: 'close' }).end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		statuses,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const hmac = (algorithm: string, secret: string, body: string) =>
	createHmac(algorithm, secret).update(body).digest('hex');

const KE_DESTINATION = { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'Jane Doe', accountNumber: '254712345678' };

// ---------------------------------------------------------------- main sandbox

let sandbox: Sandbox;
const api = client(() => sandbox);

beforeAll(async () => {
	sandbox = await startSandbox({ now, webhook: { retryDelaysMs: [5, 10, 15] } });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	clockMs = START;
	sandbox.reset();
	sandbox.configure({ webhook: { url: null, secret: 'whsec_sandbox', header: 'x-wallet-signature', algorithm: 'sha512' }, autoIssueCards: false });
});

async function createBeneficiary(overrides: Record<string, unknown> = {}) {
	const res = await api('POST', '/api/v2/beneficiaries', {
		currency: 'KES',
		country: 'KE',
		customerEmail: 'payee@example.com',
		destination: KE_DESTINATION,
		...overrides,
	});
	expect(res.status).toBe(200);
	return res.body.data;
}

async function legacyPayout(beneficiaryId: string, overrides: Record<string, unknown> = {}) {
	return api('POST', '/api/v1/wallets/payout/initialize', {
		amount: 5000,
		reference: 'legacy-1',
		customerEmail: 'payer@example.com',
		description: 'Invoice 7',
		beneficiaryId,
		sourceWalletCurrency: 'USD',
		callbackUrl: 'http://127.0.0.1:1/callback',
		...overrides,
	});
}

async function registerCardUser(overrides: Record<string, unknown> = {}) {
	const res = await api('POST', '/api/v1/virtualcards/registercarduser', {
		customerEmail: 'holder@example.com',
		firstName: 'Ama',
		lastName: 'Mensah',
		idType: 'PASSPORT',
		idNumber: 'P1234567',
		country: 'KE',
		...overrides,
	});
	return res;
}

/** A registered user with an issued, active card holding `amount` USD. */
async function issuedCard(amount = 100) {
	await registerCardUser();
	const created = await api('POST', '/api/v1/virtualcards/create', { customerEmail: 'holder@example.com', amount });
	expect(created.status).toBe(200);
	await sandbox.controls.completeCardCreation(created.body.data.id);
	return created.body.data.id as string;
}

// ---------------------------------------------------------------- HTTP basics

describe('HTTP basics', () => {
	it('needs a bearer API key', async () => {
		const missing = await api('GET', '/api/v2/customers', undefined, { auth: null });
		expect(missing.status).toBe(401);
		expect(missing.body).toEqual({ status: false, message: 'Authorization header is required' });
		const wrong = await api('GET', '/api/v2/customers', undefined, { auth: 'Bearer nope' });
		expect(wrong.status).toBe(401);
		expect(wrong.body.message).toBe('Invalid API key');
	});

	it('answers unknown routes with 404 Cannot METHOD path', async () => {
		const res = await api('DELETE', '/api/v2/customers');
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ status: false, message: 'Cannot DELETE /api/v2/customers' });
		expect((await api('GET', '/nothing')).body.message).toBe('Cannot GET /nothing');
	});

	it('rejects bodies that are not JSON objects', async () => {
		const malformed = await api('POST', '/api/v2/customers', undefined, { raw: '{"firstName":' });
		expect(malformed.status).toBe(400);
		expect(malformed.body.message).toBe('Malformed JSON body');
		const array = await api('POST', '/api/v2/customers', undefined, { raw: '[1]' });
		expect(array.status).toBe(400);
		expect(array.body.message).toEqual(['Request body must be a JSON object']);
	});

	it('records every API request but not control calls', async () => {
		await api('POST', '/api/v2/customers?x=1', { firstName: 'A' });
		await api('GET', '/__sandbox/state');
		expect(sandbox.requests).toHaveLength(1);
		const [recorded] = sandbox.requests;
		expect(recorded).toMatchObject({
			method: 'POST',
			path: '/api/v2/customers',
			query: { x: '1' },
			rawBody: '{"firstName":"A"}',
			body: { firstName: 'A' },
			at: new Date(START).toISOString(),
		});
		expect(recorded.headers.authorization).toBe(`Bearer ${sandbox.apiKey}`);
		sandbox.clearRequests();
		expect(sandbox.requests).toHaveLength(0);
	});
});

// ---------------------------------------------------------------- customers

describe('customers', () => {
	const customer = { firstName: 'Ada', lastName: 'Okafor', email: 'Ada@Example.com', phone: '8012345678', countryCode: '234' };

	it('creates a customer', async () => {
		const res = await api('POST', '/api/v2/customers', customer);
		expect(res.status).toBe(200);
		expect(res.body.status).toBe(true);
		expect(res.body.data).toMatchObject({
			firstName: 'Ada',
			lastName: 'Okafor',
			email: 'ada@example.com',
			phone: '8012345678',
			countryCode: '+234',
			blacklisted: false,
			businessName: null,
			isDefault: false,
			companyId: sandbox.state.companyId,
			createdAt: new Date(START).toISOString(),
		});
		expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
	});

	it('validates and rejects duplicate emails', async () => {
		const invalid = await api('POST', '/api/v2/customers', { email: 'nope' });
		expect(invalid.status).toBe(400);
		expect(invalid.body.message).toEqual([
			'firstName is required',
			'lastName is required',
			'email must be a valid email address',
		]);
		await api('POST', '/api/v2/customers', customer);
		const duplicate = await api('POST', '/api/v2/customers', { ...customer, email: 'ADA@example.com' });
		expect(duplicate.status).toBe(409);
		expect(duplicate.body.message).toBe('Customer with email ada@example.com already exists');
	});

	it('updates a customer', async () => {
		const created = (await api('POST', '/api/v2/customers', customer)).body.data;
		await api('POST', '/api/v2/customers', { ...customer, email: 'other@example.com' });
		advance(5);
		const res = await api('PUT', `/api/v2/customers/${created.id}`, { email: 'ada2@example.com', countryCode: '+233' });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ email: 'ada2@example.com', countryCode: '+233', firstName: 'Ada' });
		expect(res.body.data.updatedAt).toBe(new Date(START + 5000).toISOString());
		expect((await api('PUT', `/api/v2/customers/${created.id}`, {})).body.message).toEqual(['email is required']);
		const unknown = await api('PUT', '/api/v2/customers/00000000-0000-0000-0000-000000000000', { email: 'x@y.zz' });
		expect(unknown.status).toBe(404);
		expect(unknown.body.message).toBe('Customer not found');
		const taken = await api('PUT', `/api/v2/customers/${created.id}`, { email: 'other@example.com' });
		expect(taken.status).toBe(409);
	});

	it('lists with case-insensitive substring filters', async () => {
		await api('POST', '/api/v2/customers', customer);
		await api('POST', '/api/v2/customers', { firstName: 'Kwame', lastName: 'Mensah', email: 'kwame@example.com' });
		const byName = await api('GET', '/api/v2/customers?firstName=KWA');
		expect(byName.body.data.data.map((c: { email: string }) => c.email)).toEqual(['kwame@example.com']);
		const byEmail = await api('GET', '/api/v2/customers?email=example.com&limit=1');
		expect(byEmail.body.data.data).toHaveLength(1);
		expect(byEmail.body.data.data[0].email).toBe('kwame@example.com'); // newest first
		expect(byEmail.body.data.meta).toMatchObject({ limit: 1, hasNextPage: true, hasPreviousPage: false, prevCursor: null });
		expect((await api('GET', '/api/v2/customers?phone=801')).body.data.data).toHaveLength(1);
	});

	it('bounds the limit', async () => {
		for (const limit of ['0', '101', 'abc']) {
			const res = await api('GET', `/api/v2/customers?limit=${limit}`);
			expect(res.status).toBe(400);
			expect(res.body.message).toEqual(['limit must be an integer between 1 and 100']);
		}
	});
});

// ---------------------------------------------------------------- countries, beneficiaries

describe('countries and beneficiaries', () => {
	it('serves country requirements', async () => {
		const res = await api('GET', '/api/v1/wallets/payout/supported-countries/ke');
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ code: 'KE', name: 'Kenya', dialCode: '+254' });
		expect(res.body.data.destination.MOBILEMONEY).toContainEqual({
			name: 'accountNumber',
			type: 'string',
			required: true,
			pattern: '^2547[\\d]{8}$',
		});
		const unknown = await api('GET', '/api/v1/wallets/payout/supported-countries/XX');
		expect(unknown.status).toBe(404);
		expect(unknown.body.message).toBe('Country XX is not supported');
	});

	it('adds a beneficiary', async () => {
		const data = await createBeneficiary({ reference: 'ben-1' });
		expect(data).toMatchObject({ currency: 'KES', country: 'KE', status: 'SUCCESS', reference: 'ben-1', destination: KE_DESTINATION });
		expect(Object.keys(data).sort()).toEqual(
			['createdAt', 'currency', 'country', 'destination', 'id', 'provider', 'reference', 'status', 'updatedAt'].sort(),
		);
	});

	it('validates destinations against the country descriptors', async () => {
		const post = (body: Record<string, unknown>) =>
			api('POST', '/api/v2/beneficiaries', { currency: 'KES', country: 'KE', customerEmail: 'p@example.com', ...body });
		const pattern = await post({ destination: { ...KE_DESTINATION, accountNumber: '0712345678' } });
		expect(pattern.status).toBe(400);
		expect(pattern.body.message).toEqual(['destination.accountNumber must match ^2547[\\d]{8}$']);
		const several = await post({ destination: { type: 'MOBILEMONEY', network: 'AIRTEL' } });
		expect(several.body.message).toEqual([
			'destination.network must be one of MPESA',
			'destination.accountName is required',
			'destination.accountNumber is required',
		]);
		expect((await post({ destination: { type: 'BANK' } })).body.message).toEqual(['destination.type must be one of MOBILEMONEY']);
		expect((await post({})).body.message).toEqual(['destination is required']);
		const country = await post({ country: 'US', destination: KE_DESTINATION });
		expect(country.body.message).toEqual(['Country US is not supported']);
		const currency = await post({ currency: 'NGN', destination: KE_DESTINATION });
		expect(currency.body.message).toEqual(['currency must be KES for country KE']);
		const missing = await api('POST', '/api/v2/beneficiaries', {});
		expect(missing.body.message).toEqual([
			'country is required',
			'currency is required',
			'destination is required',
			'customerEmail is required',
		]);
	});

	it('lists with status, currency, country and reference filters', async () => {
		await createBeneficiary({ reference: 'alpha-1' });
		const ng = await createBeneficiary({
			currency: 'NGN',
			country: 'NG',
			reference: 'beta-2',
			destination: { type: 'NUBAN', bankCode: '058', accountName: 'Chidi', accountNumber: '0123456789' },
		});
		await sandbox.controls.setBeneficiaryStatus(ng.id, 'FAILED');
		const list = async (query: string) =>
			(await api('GET', `/api/v2/beneficiaries${query}`)).body.data.data.map((b: { reference: string }) => b.reference);
		expect(await list('')).toEqual(['beta-2', 'alpha-1']);
		expect(await list('?status=failed')).toEqual(['beta-2']);
		expect(await list('?currency=kes')).toEqual(['alpha-1']);
		expect(await list('?country=NG')).toEqual(['beta-2']);
		expect(await list('?q=LPHA')).toEqual(['alpha-1']);
		expect((await api('GET', '/api/v2/beneficiaries?status=DONE')).status).toBe(400);
	});
});

// ---------------------------------------------------------------- payouts

describe('payouts (v2)', () => {
	it('pays an existing beneficiary and debits the wallet', async () => {
		const beneficiary = await createBeneficiary();
		const before = sandbox.state.wallets.USD;
		const res = await api('POST', '/api/v2/wallets/payout/initialize', {
			amount: 10000,
			sourceWalletCurrency: 'usd',
			customerEmail: 'payer@example.com',
			description: 'Invoice 42',
			beneficiaryId: beneficiary.id,
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			type: 'debit',
			channel: 'payout',
			status: 'initiated',
			action: 'usd_account_payout',
			amount: 100,
			centAmount: 10000,
			fees: 1,
			centFees: 100,
			spotPrice: 130,
			description: 'Invoice 42',
			companyId: sandbox.state.companyId,
		});
		expect(sandbox.state.wallets.USD).toBe(before - 10100);

		const tx = await api('GET', `/api/v2/transactions/${res.body.data.id}`);
		expect(tx.body.data).toMatchObject({
			type: 'DEBIT',
			action: 'USD_ACCOUNT_PAYOUT',
			amount: '100.00',
			fees: '1.00',
			status: 'initiated',
			currency: 'USD',
			beneficiary: KE_DESTINATION,
			payoutAmount: 13000,
			payoutCurrency: 'KES',
			payoutUsdAmount: '100.00',
			failedReason: '',
			balanceBefore: (before / 100).toFixed(2),
			balanceAfter: ((before - 10100) / 100).toFixed(2),
		});
	});

	it('pays an inline beneficiary validated like Add beneficiary', async () => {
		const base = { amount: 500, sourceWalletCurrency: 'USD', customerEmail: 'p@example.com', description: 'd' };
		const ok = await api('POST', '/api/v2/wallets/payout/initialize', {
			...base,
			beneficiary: { country: 'KE', currency: 'KES', destination: KE_DESTINATION },
		});
		expect(ok.status).toBe(200);
		const bad = await api('POST', '/api/v2/wallets/payout/initialize', {
			...base,
			beneficiary: { country: 'KE', currency: 'KES', destination: { ...KE_DESTINATION, accountNumber: '1' } },
		});
		expect(bad.status).toBe(400);
		expect(bad.body.message).toEqual(['beneficiary.destination.accountNumber must match ^2547[\\d]{8}$']);
	});

	it('validates the request', async () => {
		const beneficiary = await createBeneficiary();
		const both = await api('POST', '/api/v2/wallets/payout/initialize', {
			amount: 1.5,
			beneficiaryId: beneficiary.id,
			beneficiary: { country: 'KE' },
		});
		expect(both.status).toBe(400);
		expect(both.body.message).toEqual([
			'amount must be a positive integer',
			'sourceWalletCurrency is required',
			'customerEmail is required',
			'description is required',
			'Provide exactly one of beneficiaryId and beneficiary',
		]);
		const neither = await api('POST', '/api/v2/wallets/payout/initialize', {
			amount: 100,
			sourceWalletCurrency: 'XYZ',
			customerEmail: 'p@example.com',
			description: 'd',
		});
		expect(neither.body.message).toEqual([
			'sourceWalletCurrency must be one of USD, NGN, KES, GHS, ZAR, EUR, GBP',
			'Provide exactly one of beneficiaryId and beneficiary',
		]);
		const unknown = await api('POST', '/api/v2/wallets/payout/initialize', {
			amount: 100,
			sourceWalletCurrency: 'USD',
			customerEmail: 'p@example.com',
			description: 'd',
			beneficiaryId: 'missing',
		});
		expect(unknown.status).toBe(404);
		expect(unknown.body.message).toBe('Beneficiary not found');
	});

	it('refuses a payout the wallet cannot cover', async () => {
		const beneficiary = await createBeneficiary();
		sandbox.controls.setWalletBalance('USD', 1000);
		const res = await api('POST', '/api/v2/wallets/payout/initialize', {
			amount: 1000,
			sourceWalletCurrency: 'USD',
			customerEmail: 'p@example.com',
			description: 'd',
			beneficiaryId: beneficiary.id,
		});
		expect(res.status).toBe(400);
		expect(res.body.message).toBe('Insufficient balance');
		expect(sandbox.state.wallets.USD).toBe(1000);
	});

	it('settles and fails payouts through controls (refunding a failure)', async () => {
		const beneficiary = await createBeneficiary();
		const pay = async () =>
			(
				await api('POST', '/api/v2/wallets/payout/initialize', {
					amount: 1000,
					sourceWalletCurrency: 'USD',
					customerEmail: 'p@example.com',
					description: 'd',
					beneficiaryId: beneficiary.id,
				})
			).body.data.id as string;
		const first = await pay();
		const settled = await sandbox.controls.settlePayout(first);
		expect(settled.event).toBe('payout.transfer.success');
		expect(settled.data).toMatchObject({ id: first, amount: '10.00', fees: '0.10', status: 'success', action: 'usd_account_payout' });
		await expect(sandbox.controls.settlePayout(first)).rejects.toThrow('Payout is not in flight (status success)');

		const second = await pay();
		const balance = sandbox.state.wallets.USD;
		const failed = await sandbox.controls.failPayout(second, 'Account closed');
		expect(failed.data).toMatchObject({ status: 'failed', failedReason: 'Account closed' });
		expect(sandbox.state.wallets.USD).toBe(balance + 1010);
		expect((await api('GET', `/api/v2/transactions/${second}`)).body.data.failedReason).toBe('Account closed');
		await expect(sandbox.controls.settlePayout('nope')).rejects.toMatchObject({ status: 404 });
	});
});

describe('payouts (legacy two-step)', () => {
	it('requires every field', async () => {
		const res = await api('POST', '/api/v1/wallets/payout/initialize', { amount: 2147483648 });
		expect(res.status).toBe(400);
		expect(res.body.message).toEqual([
			'amount must be a positive integer of at most 2147483647',
			'reference is required',
			'customerEmail is required',
			'description is required',
			'beneficiaryId is required',
			'sourceWalletCurrency is required',
			'callbackUrl is required',
		]);
	});

	it('initializes, then finalizes once with string amounts', async () => {
		const beneficiary = await createBeneficiary();
		const init = await legacyPayout(beneficiary.id);
		expect(init.status).toBe(200);
		expect(init.body.data).toMatchObject({ status: 'initiated', amount: 50, centAmount: 5000, reference: 'legacy-1' });
		const before = sandbox.state.wallets.USD;
		advance(60);
		const fin = await api('POST', '/api/v1/wallets/payout/finalize', { transactionId: init.body.data.id });
		expect(fin.status).toBe(200);
		expect(fin.body.data).toMatchObject({ status: 'pending', amount: '50.00', fees: '0.50', spotPrice: '130', centAmount: 5000 });
		expect(sandbox.state.wallets.USD).toBe(before - 5050);
		const again = await api('POST', '/api/v1/wallets/payout/finalize', { transactionId: init.body.data.id });
		expect(again.status).toBe(400);
		expect(again.body.message).toBe('Payout has already been finalized');
		const reused = await legacyPayout(beneficiary.id);
		expect(reused.status).toBe(409);
		expect(reused.body.message).toBe("Reference 'legacy-1' has already been used");
		const unknown = await api('POST', '/api/v1/wallets/payout/finalize', { transactionId: 'missing' });
		expect(unknown.status).toBe(404);
		expect((await api('POST', '/api/v1/wallets/payout/finalize', {})).body.message).toEqual(['transactionId is required']);
	});

	it('expires after the finalize window', async () => {
		const beneficiary = await createBeneficiary();
		const init = await legacyPayout(beneficiary.id);
		await expect(sandbox.controls.settlePayout(init.body.data.id)).rejects.toThrow('Payout has not been finalized');
		advance(241);
		const fin = await api('POST', '/api/v1/wallets/payout/finalize', { transactionId: init.body.data.id });
		expect(fin.status).toBe(400);
		expect(fin.body.message).toBe('Payout has expired');
		expect((await api('GET', `/api/v2/transactions/${init.body.data.id}`)).body.data.status).toBe('expired');
	});
});

// ---------------------------------------------------------------- collections

describe('collections', () => {
	const body = { country: 'NG', currency: 'NGN', customerEmail: 'buyer@example.com', amount: 250000 };

	it.each(['v1', 'v2'])('initializes a collection (%s)', async (version) => {
		const res = await api('POST', `/api/${version}/wallets/collections/initialize`, {
			...body,
			reference: 'col-1',
			payload: { type: 'Wema Bank', accountName: 'Shop Ltd' },
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			type: 'credit',
			channel: 'collection',
			status: 'processing',
			action: 'deposit_ngn',
			currency: 'NGN',
			amount: 250000,
			reference: 'col-1',
			bankName: 'Wema Bank',
			accountName: 'Shop Ltd',
			expiryInSeconds: 1800,
			expiryDate: new Date(START + 1800 * 1000).toISOString(),
		});
		expect(res.body.data.accountNumber).toMatch(/^\d{10}$/);
	});

	it('validates, defaults the bank and rejects reused references', async () => {
		const invalid = await api('POST', '/api/v2/wallets/collections/initialize', { amount: 0, payload: { type: 5 } });
		expect(invalid.body.message).toEqual([
			'country is required',
			'currency is required',
			'customerEmail is required',
			'amount must be a positive integer',
			'payload.type must be a string',
		]);
		const first = await api('POST', '/api/v2/wallets/collections/initialize', { ...body, reference: 'same' });
		expect(first.body.data.bankName).toBe('Sandbox Bank');
		const second = await api('POST', '/api/v1/wallets/collections/initialize', { ...body, reference: 'same' });
		expect(second.status).toBe(409);
	});

	it('credits the wallet when paid, and cannot be paid after expiry', async () => {
		const first = (await api('POST', '/api/v2/wallets/collections/initialize', body)).body.data;
		const before = sandbox.state.wallets.NGN;
		const paid = await sandbox.controls.markCollectionPaid(first.id);
		expect(paid.event).toBe('transaction.deposit.success');
		expect(paid.data).toMatchObject({ id: first.id, amount: '2500.00', status: 'success', accountNumber: first.accountNumber });
		expect(sandbox.state.wallets.NGN).toBe(before + 250000);
		const tx = (await api('GET', `/api/v2/transactions/${first.id}`)).body.data;
		expect(tx).toMatchObject({ type: 'CREDIT', action: 'DEPOSIT_NGN', status: 'success', amount: '2500.00' });

		const late = (await api('POST', '/api/v2/wallets/collections/initialize', body)).body.data;
		advance(1801);
		await expect(sandbox.controls.markCollectionPaid(late.id)).rejects.toThrow('Collection has expired');
	});

	it('takes a partial payment: that much credited, the event says what was paid, the collection still open', async () => {
		const open = (await api('POST', '/api/v2/wallets/collections/initialize', body)).body.data;
		const before = sandbox.state.wallets.NGN;
		const part = await sandbox.controls.markCollectionPaid(open.id, 100000);
		expect(part.data).toMatchObject({ id: open.id, amount: '1000.00', centAmount: 100000, status: 'success', reference: open.reference });
		expect(sandbox.state.wallets.NGN).toBe(before + 100000);
		expect((await api('GET', `/api/v2/transactions/${open.id}`)).body.data).toMatchObject({ status: 'processing' });
		await expect(sandbox.controls.markCollectionPaid(open.id, 0)).rejects.toThrow();
	});
});

// ---------------------------------------------------------------- swaps

describe('swaps', () => {
	it('quotes and finalizes a swap once', async () => {
		const quote = await api('POST', '/api/v1/wallets/initialize-swap', { sourceCurrency: 'usd', targetCurrency: 'NGN', amount: '10' });
		expect(quote.status).toBe(200);
		expect(quote.body.data).toMatchObject({
			sourceAmount: 10,
			targetAmount: 15000,
			fee: 0.05,
			usdAmount: 10,
			sourceCurrency: 'USD',
			targetCurrency: 'NGN',
			conversionRate: { amount: 1500, currency: 'NGN' },
			expiration: new Date(START + 250 * 1000).toISOString(),
			expirationInSec: '250',
		});
		const usd = sandbox.state.wallets.USD;
		const ngn = sandbox.state.wallets.NGN;
		const swap = await api('POST', '/api/v2/wallets/finalize-swap', { quoteId: quote.body.data.id });
		expect(swap.status).toBe(200);
		expect(swap.body.data).toMatchObject({
			amount: 10,
			centAmount: 1000,
			fees: 0.05,
			centFees: 5,
			spotPrice: '1500',
			action: 'swap_usd_ngn',
			type: 'debit',
			status: 'success',
			channel: 'swap',
			balanceAfter: (usd - 1005) / 100,
		});
		expect(sandbox.state.wallets.USD).toBe(usd - 1005);
		expect(sandbox.state.wallets.NGN).toBe(ngn + 1500000);
		const again = await api('POST', '/api/v2/wallets/finalize-swap', { quoteId: quote.body.data.id });
		expect(again.status).toBe(409);
		expect(again.body.message).toBe('Quote has already been used');
		const tx = (await api('GET', `/api/v2/transactions/${swap.body.data.id}`)).body.data;
		expect(tx).toMatchObject({ action: 'SWAP_USD_NGN', payoutCurrency: 'NGN', payoutAmount: 15000, exchangeRate: '1500' });
	});

	it('expires quotes with the clock', async () => {
		const quote = await api('POST', '/api/v1/wallets/initialize-swap', { sourceCurrency: 'USD', targetCurrency: 'KES', amount: 5 });
		advance(250);
		advance(1);
		const res = await api('POST', '/api/v2/wallets/finalize-swap', { quoteId: quote.body.data.id });
		expect(res.status).toBe(400);
		expect(res.body.message).toBe('Quote has expired');
		expect((await api('POST', '/api/v2/wallets/finalize-swap', { quoteId: 'nope' })).status).toBe(404);
	});

	it('validates the quote request', async () => {
		const res = await api('POST', '/api/v1/wallets/initialize-swap', { sourceCurrency: 'usd', targetCurrency: 'USD', amount: '-1' });
		expect(res.body.message).toEqual(['amount must be a positive number', 'sourceCurrency and targetCurrency must differ']);
		const missing = await api('POST', '/api/v1/wallets/initialize-swap', {});
		expect(missing.body.message).toEqual(['sourceCurrency is required', 'targetCurrency is required', 'amount is required']);
	});
});

// ---------------------------------------------------------------- cards

describe('virtual cards', () => {
	it('registers card users with country rules', async () => {
		const ok = await registerCardUser();
		expect(ok.status).toBe(200);
		expect(ok.body.data).toMatchObject({ customerEmail: 'holder@example.com', kycStatus: 'pending', country: 'KE' });
		expect(Object.keys(ok.body.data).sort()).toEqual(
			['country', 'createdAt', 'customerEmail', 'firstName', 'id', 'kycStatus', 'lastName', 'updatedAt'],
		);
		expect((await registerCardUser()).status).toBe(409);
		const ng = await registerCardUser({ customerEmail: 'ng@example.com', country: 'Nigeria' });
		expect(ng.body.message).toEqual(['bvn is required for card users in Nigeria']);
		const gh = await registerCardUser({ customerEmail: 'gh@example.com', country: 'GH', dateOfBirth: '1990-02-30' });
		expect(gh.body.message).toEqual(['dateOfBirth must be a valid date in yyyy-mm-dd format']);
		const ghMissing = await registerCardUser({ customerEmail: 'gh@example.com', country: 'gh' });
		expect(ghMissing.body.message).toEqual(['dateOfBirth is required for card users in Ghana']);
		expect((await registerCardUser({ customerEmail: 'gh@example.com', country: 'GH', dateOfBirth: '1990-02-28' })).status).toBe(200);
		const missing = await api('POST', '/api/v1/virtualcards/registercarduser', {});
		expect(missing.body.message).toEqual([
			'customerEmail is required',
			'firstName is required',
			'lastName is required',
			'idType is required',
			'idNumber is required',
			'country is required',
		]);
	});

	it('creates a pending card and issues it by control', async () => {
		const unknown = await api('POST', '/api/v1/virtualcards/create', { customerEmail: 'who@example.com', amount: 10 });
		expect(unknown.status).toBe(400);
		expect(unknown.body.message).toBe('Card user who@example.com does not exist; register the card user first');
		await registerCardUser();
		for (const amount of [2, 2501, 'ten']) {
			const res = await api('POST', '/api/v1/virtualcards/create', { customerEmail: 'holder@example.com', amount });
			expect(res.body.message).toEqual(['amount must be a number between 3 and 2500']);
		}
		const created = await api('POST', '/api/v1/virtualcards/create', { customerEmail: 'holder@example.com', amount: '25', reference: 'card-1' });
		expect(created.status).toBe(200);
		expect(created.body.message).toBe('Card creation in progress');
		expect(Object.keys(created.body.data).sort()).toEqual(
			['cardBrand', 'cardType', 'cardUserId', 'createdAt', 'createdStatus', 'customerId', 'id', 'reference', 'updatedAt'],
		);
		expect(created.body.data).toMatchObject({ createdStatus: 'pending', customerId: null, cardType: 'virtual', cardBrand: 'visa' });
		const reused = await api('POST', '/api/v1/virtualcards/create', { customerEmail: 'holder@example.com', amount: 5, reference: 'card-1' });
		expect(reused.status).toBe(409);

		const cardId = created.body.data.id;
		const pendingTopup = await api('POST', '/api/v1/virtualcards/topup', { cardId, reference: 't0', amount: 5 });
		expect(pendingTopup.body.message).toBe('Card has not been issued yet');

		const issued = await sandbox.controls.completeCardCreation(cardId);
		expect(issued.event).toBe('virtualcard.created.success');
		const card = sandbox.state.cards[0];
		expect(card.cardNumber).toMatch(/^4\d{15}$/);
		expect(isLuhnValid(card.cardNumber!)).toBe(true);
		const frozen = await api('POST', '/api/v1/virtualcards/freeze', { cardId });
		expect(frozen.body.data).toMatchObject({
			status: 'frozen',
			createdStatus: 'success',
			balance: 25,
			last4: card.cardNumber!.slice(-4),
			valid: '01/2033',
			cardName: 'Ama Mensah',
			customerEmail: 'holder@example.com',
		});
		expect(frozen.body.data.cvv2).toMatch(/^\d{3}$/);
		expect(Object.keys(frozen.body.data.billingAddress).sort()).toEqual(['city', 'country', 'countryCode', 'street', 'zipCode']);
		await expect(sandbox.controls.completeCardCreation(cardId)).rejects.toThrow('Card creation is not pending');
	});

	it('issues cards right after answering when autoIssueCards is on', async () => {
		sandbox.configure({ autoIssueCards: true });
		await registerCardUser();
		const created = await api('POST', '/api/v1/virtualcards/create', { customerEmail: 'holder@example.com', amount: 10 });
		expect(created.body.data.createdStatus).toBe('pending');
		await sandbox.idle();
		await new Promise((resolve) => setImmediate(resolve));
		expect(sandbox.state.cards[0]).toMatchObject({ createdStatus: 'success', status: 'active', balanceCents: 1000 });
	});

	it('fails card creation and KYC by control', async () => {
		const user = (await registerCardUser()).body.data;
		const created = (await api('POST', '/api/v1/virtualcards/create', { customerEmail: 'holder@example.com', amount: 10 })).body.data;
		const failed = await sandbox.controls.failCardCreation(created.id, 'Issuer down');
		expect(failed).toMatchObject({ event: 'virtualcard.created.failed', data: { cardId: created.id, status: 'failed', reason: 'Issuer down', amount: 10 } });
		expect((await sandbox.controls.completeKyc('HOLDER@example.com')).data).toMatchObject({ id: user.id, status: 'success' });
		const kyc = await sandbox.controls.failKyc(user.id, 'Blurry photo');
		expect(kyc).toMatchObject({ event: 'virtualcard.user.kyc.failed', data: { status: 'failed', reason: 'Blurry photo' } });
		const refused = await api('POST', '/api/v1/virtualcards/create', { customerEmail: 'holder@example.com', amount: 10 });
		expect(refused.body.message).toBe('Card user holder@example.com failed KYC');
	});

	it('tops up and withdraws, moving the balance when settled', async () => {
		const cardId = await issuedCard(20);
		const topup = await api('POST', '/api/v1/virtualcards/topup', { cardId, reference: 5001, amount: '12.5' });
		expect(topup.status).toBe(200);
		expect(topup.body.data).toMatchObject({
			amount: 12.5,
			centAmount: 1250,
			type: 'credit',
			method: 'topup',
			status: 'pending',
			currency: 'usd',
			reference: '5001',
			cardId,
		});
		expect((await api('POST', '/api/v1/virtualcards/topup', { cardId, reference: '5001', amount: 5 })).status).toBe(409);
		expect((await api('POST', '/api/v1/virtualcards/topup', { cardId, reference: 'x', amount: 2501 })).status).toBe(400);
		const missing = await api('POST', '/api/v1/virtualcards/topup', { cardId: 'nope', reference: 'y', amount: 5 });
		expect(missing.status).toBe(404);
		expect(missing.body.message).toBe('Card not found');

		const tooMuch = await api('POST', '/api/v1/virtualcards/withdraw', { cardId, reference: 'w1', amount: 21 });
		expect(tooMuch.body.message).toBe('Insufficient card balance');
		const withdraw = await api('POST', '/api/v1/virtualcards/withdraw', { cardId, reference: 'w1', amount: 15 });
		expect(withdraw.body.data).toMatchObject({ amount: 15, centAmount: 1500, type: 'debit', method: 'withdrawal', status: 'pending' });
		// 20 - 15 pending leaves 5 available.
		expect((await api('POST', '/api/v1/virtualcards/withdraw', { cardId, reference: 'w2', amount: 6 })).body.message).toBe(
			'Insufficient card balance',
		);
		expect((await api('POST', '/api/v1/virtualcards/withdraw', { cardId, reference: 'w3', amount: 1.5 })).body.message).toEqual([
			'amount must be a positive integer of at most 2147483647',
		]);

		const results = await sandbox.controls.settleCardTransactions(cardId);
		expect(results.map((r) => r.event)).toEqual(['virtualcard.transaction.credit', 'virtualcard.transaction.debit']);
		expect(results[0].data).toMatchObject({ cardId, reference: '5001', status: 'success', amount: 12.5, narrative: 'Card top-up' });
		expect(sandbox.state.cards[0].balanceCents).toBe(2000 + 1250 - 1500);

		const list = await api('GET', `/api/v1/virtualcards/cards/${cardId}/transactions`);
		expect(list.body.data.cardTransactions).toEqual([
			expect.objectContaining({ amount: '12.50', centAmount: '1250', status: 'success', method: 'topup', narrative: 'Card top-up' }),
			expect.objectContaining({ amount: '15.00', centAmount: '1500', status: 'success', method: 'withdrawal' }),
		]);

		const reversed = await sandbox.controls.cardTransactionEvent(topup.body.data.id, 'reversed', 'Chargeback');
		expect(reversed.event).toBe('virtualcard.transaction.reversed');
		expect(sandbox.state.cards[0].balanceCents).toBe(2000 - 1500);
		await expect(sandbox.controls.cardTransactionEvent(topup.body.data.id, 'declined')).rejects.toThrow(
			'Only a pending card transaction can be declined',
		);
	});

	it('moves between active, frozen and terminated', async () => {
		const cardId = await issuedCard();
		const call = async (action: string) => api('POST', `/api/v1/virtualcards/${action}`, { cardId });
		expect((await call('unfreeze')).body.message).toBe('Card is not frozen');
		expect((await call('freeze')).body.data.status).toBe('frozen');
		expect((await call('freeze')).body.message).toBe('Card is already frozen');
		expect((await api('POST', '/api/v1/virtualcards/topup', { cardId, reference: 'r', amount: 5 })).body.message).toBe('Card is frozen');
		expect((await call('unfreeze')).body.data.status).toBe('active');
		expect((await call('terminate')).body.data.status).toBe('terminated');
		expect((await call('terminate')).body.message).toBe('Card is already terminated');
		expect((await call('freeze')).body.message).toBe('Card is terminated');
		expect((await call('unfreeze')).body.message).toBe('Card is terminated');
		expect((await api('POST', '/api/v1/virtualcards/freeze', {})).body.message).toEqual(['cardId is required']);
		expect((await api('POST', '/api/v1/virtualcards/freeze', { cardId: 'x' })).status).toBe(404);
	});

	it('pages card transactions with page, take and order', async () => {
		const cardId = await issuedCard();
		for (let i = 1; i <= 25; i++) {
			advance(1);
			await api('POST', '/api/v1/virtualcards/topup', { cardId, reference: `r${i}`, amount: 3 + i });
		}
		const page = async (query: string) => (await api('GET', `/api/v1/virtualcards/cards/${cardId}/transactions${query}`)).body.data;
		const first = await page('');
		expect(first.cardTransactions.map((t: { reference: string }) => t.reference)).toEqual(
			Array.from({ length: 10 }, (_, i) => `r${i + 1}`),
		);
		expect(first.meta).toEqual({ page: 1, take: 10, itemCount: 25, pageCount: 3, hasPreviousPage: false, hasNextPage: true });
		const last = await page('?page=3&take=10&order=DESC');
		expect(last.cardTransactions.map((t: { reference: string }) => t.reference)).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
		expect(last.meta).toMatchObject({ page: 3, hasPreviousPage: true, hasNextPage: false });
		expect((await page('?page=9')).cardTransactions).toEqual([]);
		for (const query of ['?take=101', '?page=0', '?order=UP']) {
			expect((await api('GET', `/api/v1/virtualcards/cards/${cardId}/transactions${query}`)).status).toBe(400);
		}
		expect((await api('GET', '/api/v1/virtualcards/cards/missing/transactions')).status).toBe(404);
	});
});

// ---------------------------------------------------------------- failure injection

describe('failure injection', () => {
	it('fails matching requests `times` times, before auth, and records them', async () => {
		sandbox.injectFailure({ path: '/api/v2/customers', method: 'get', status: 503, times: 2 });
		const first = await api('GET', '/api/v2/customers', undefined, { auth: null });
		expect(first.status).toBe(503);
		expect(first.body).toEqual({ status: false, message: 'Service Unavailable' });
		expect((await api('POST', '/api/v2/customers', {})).status).toBe(400); // other method
		expect((await api('GET', '/api/v2/customers')).status).toBe(503);
		expect((await api('GET', '/api/v2/customers')).status).toBe(200);
		expect(sandbox.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'GET']);
	});

	it('sends raw string bodies and headers as given', async () => {
		sandbox.injectFailure({ path: /^\/api\/v2\/customers/, status: 502, body: '<html>Bad gateway</html>' });
		sandbox.injectFailure({ path: '/api/v2/beneficiaries', status: 200, body: '{"status": tru' });
		sandbox.injectFailure({ path: '/api/v2/transactions/x', status: 500, body: '' });
		sandbox.injectFailure({ path: '/api/v2/wallets/finalize-swap', status: 429, body: { status: false, message: 'Slow down' }, headers: { 'retry-after': '1' } });
		const html = await api('GET', '/api/v2/customers?limit=1');
		expect(html.status).toBe(502);
		expect(html.text).toBe('<html>Bad gateway</html>');
		expect(html.headers.get('content-type')).toContain('text/html');
		expect((await api('GET', '/api/v2/beneficiaries')).text).toBe('{"status": tru');
		expect((await api('GET', '/api/v2/transactions/x')).text).toBe('');
		const limited = await api('POST', '/api/v2/wallets/finalize-swap', {});
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('1');
		expect(limited.body.message).toBe('Slow down');
	});

	it('hangs, drops the connection, or delays', async () => {
		sandbox.injectFailure({ path: '/api/v2/customers', status: 0, action: 'hang' });
		await expect(
			fetch(`${sandbox.url}/api/v2/customers`, { signal: AbortSignal.timeout(150) }),
		).rejects.toThrow();
		sandbox.injectFailure({ path: '/api/v2/customers', status: 0, action: 'destroy' });
		await expect(fetch(`${sandbox.url}/api/v2/customers`)).rejects.toThrow();
		sandbox.injectFailure({ path: '/api/v2/customers', status: 500, delayMs: 80 });
		const started = Date.now();
		expect((await api('GET', '/api/v2/customers')).status).toBe(500);
		expect(Date.now() - started).toBeGreaterThanOrEqual(75);
		expect((await api('GET', '/api/v2/customers')).status).toBe(200);
	});

	it('is configurable over HTTP, regex paths included', async () => {
		const add = await api('POST', '/__sandbox/failures', { path: { regex: '^/api/v2/custom' }, status: 500, times: 'Infinity' });
		expect(add.status).toBe(200);
		expect((await api('GET', '/api/v2/customers')).status).toBe(500);
		expect((await api('GET', '/api/v2/customers')).status).toBe(500);
		await api('DELETE', '/__sandbox/failures');
		expect((await api('GET', '/api/v2/customers')).status).toBe(200);
		const bad = await api('POST', '/__sandbox/failures', { path: 5 });
		expect(bad.status).toBe(400);
		expect(bad.body.message).toEqual(['path must be a string or { "regex": "..." }', 'status must be a number']);
	});
});

// ---------------------------------------------------------------- webhooks and controls

describe('webhooks', () => {
	it('signs the exact raw body and delivers to the callbackUrl and the webhook url', async () => {
		const receiver = await startReceiver();
		try {
			sandbox.configure({ webhook: { url: `${receiver.url}/hook` } });
			const beneficiary = await createBeneficiary();
			const init = await legacyPayout(beneficiary.id, { callbackUrl: `${receiver.url}/callback` });
			await api('POST', '/api/v1/wallets/payout/finalize', { transactionId: init.body.data.id });
			const result = await sandbox.controls.settlePayout(init.body.data.id);
			expect(result.deliveries.map((d) => [d.url, d.status, d.attempt])).toEqual(
				expect.arrayContaining([
					[`${receiver.url}/callback`, 200, 1],
					[`${receiver.url}/hook`, 200, 1],
				]),
			);
			expect(receiver.received.map((r) => r.path).sort()).toEqual(['/callback', '/hook']);
			for (const request of receiver.received) {
				expect(request.headers['x-wallet-signature']).toBe(hmac('sha512', 'whsec_sandbox', request.raw));
				expect(request.headers['content-type']).toBe('application/json');
				const parsed = JSON.parse(request.raw);
				expect(parsed.event).toBe('payout.transfer.success');
				expect(parsed.data).toEqual({
					id: init.body.data.id,
					fees: '0.50',
					type: 'debit',
					amount: '50.00',
					action: 'usd_account_payout',
					status: 'success',
					channel: 'payout',
					reference: 'legacy-1',
					companyId: sandbox.state.companyId,
					callbackUrl: `${receiver.url}/callback`,
					failedReason: '',
				});
			}
		} finally {
			await receiver.close();
		}
	});

	it('retries anything but 200 and records each attempt', async () => {
		const receiver = await startReceiver([500, 404]);
		try {
			sandbox.configure({ webhook: { url: receiver.url } });
			const beneficiary = await createBeneficiary();
			const result = await sandbox.controls.setBeneficiaryStatus(beneficiary.id, 'PENDING');
			expect(result.event).toBe('beneficiary.status.changed');
			expect(result.deliveries.map((d) => [d.attempt, d.status])).toEqual([
				[1, 500],
				[2, 404],
				[3, 200],
			]);
			expect(sandbox.deliveries).toHaveLength(3);
			expect(new Set(receiver.received.map((r) => r.raw)).size).toBe(1); // same bytes each time
			expect(sandbox.deliveries[0]).toMatchObject({ event: 'beneficiary.status.changed', url: receiver.url, body: receiver.received[0].raw });
		} finally {
			await receiver.close();
		}
	});

	it('gives up after three retries and records network errors', async () => {
		const receiver = await startReceiver([500, 500, 500, 500, 500]);
		const closed = await startReceiver();
		await closed.close();
		try {
			sandbox.configure({ webhook: { url: receiver.url } });
			const beneficiary = await createBeneficiary({ callbackUrl: closed.url });
			const pending = sandbox.controls.setBeneficiaryStatus(beneficiary.id, 'FAILED');
			await sandbox.idle();
			const result = await pending;
			const byUrl = (url: string) => result.deliveries.filter((d) => d.url === url);
			expect(byUrl(receiver.url).map((d) => d.status)).toEqual([500, 500, 500, 500]);
			expect(byUrl(closed.url)).toHaveLength(4);
			expect(byUrl(closed.url)[0].error).toMatch(/ECONNREFUSED/);
			expect(receiver.received).toHaveLength(4);
		} finally {
			await receiver.close();
		}
	});

	it('takes webhook settings at run time over HTTP', async () => {
		const receiver = await startReceiver();
		try {
			const config = await api('POST', '/__sandbox/config', {
				webhook: { url: receiver.url, secret: 'other', header: 'X-Sig', algorithm: 'sha256' },
			});
			expect(config.body.data.webhook).toMatchObject({ url: receiver.url, header: 'x-sig', algorithm: 'sha256' });
			await registerCardUser();
			const res = await api('POST', '/__sandbox/completeKyc', { cardUser: 'holder@example.com' });
			expect(res.status).toBe(200);
			expect(res.body.data.event).toBe('virtualcard.user.kyc.success');
			expect(receiver.received[0].headers['x-sig']).toBe(hmac('sha256', 'other', receiver.received[0].raw));
			expect((await api('POST', '/__sandbox/config', { webhook: { algorithm: 'md5' } })).status).toBe(400);
		} finally {
			await receiver.close();
		}
	});
});

describe('HTTP control endpoints', () => {
	it('runs controls and exposes state, requests and deliveries', async () => {
		const created = await api('POST', '/api/v2/wallets/collections/initialize', {
			country: 'NG',
			currency: 'NGN',
			customerEmail: 'buyer@example.com',
			amount: 1000,
		});
		const paid = await api('POST', '/__sandbox/markCollectionPaid', { transactionId: created.body.data.id });
		expect(paid.status).toBe(200);
		expect(paid.body.data).toMatchObject({ event: 'transaction.deposit.success', deliveries: [] });
		const again = await api('POST', '/__sandbox/markCollectionPaid', { transactionId: created.body.data.id });
		expect(again.status).toBe(400);
		expect((await api('POST', '/__sandbox/settlePayout', { transactionId: 'nope' })).status).toBe(404);
		expect((await api('POST', '/__sandbox/settlePayout', {})).body.message).toEqual(['transactionId is required']);
		expect((await api('POST', '/__sandbox/nothing', {})).status).toBe(404);

		const state = (await api('GET', '/__sandbox/state')).body.data;
		expect(state.transactions[0]).toMatchObject({ id: created.body.data.id, status: 'success' });
		expect((await api('GET', '/__sandbox/requests')).body.data).toHaveLength(1);
		expect((await api('GET', '/__sandbox/deliveries')).body.data).toEqual([]);
		await api('POST', '/__sandbox/setWalletBalance', { currency: 'usd', amount: 5 });
		expect(sandbox.state.wallets.USD).toBe(5);
		await api('POST', '/__sandbox/reset');
		expect(sandbox.state.transactions).toHaveLength(0);
		expect(sandbox.requests).toHaveLength(0);
		expect(sandbox.state.wallets.USD).toBe(1_000_000_000);
	});
});

// ---------------------------------------------------------------- cursor paging over seeded data

describe('cursor paging (250 seeded records)', () => {
	let seeded: Sandbox;
	const seededApi = client(() => seeded);

	beforeAll(async () => {
		seeded = await startSandbox({ seed: { customers: 250, beneficiaries: 250 } });
	});

	afterAll(async () => {
		await seeded.close();
	});

	beforeEach(() => seeded.reset());

	const idsOf = (page: { data: Array<{ id: string }> }) => page.data.map((r) => r.id);

	async function walk(path: string, query: string, direction: 'next' | 'prev', start: string | null) {
		const pages: Array<{ data: Array<{ id: string }>; meta: Record<string, unknown> }> = [];
		let cursor = start;
		do {
			const sep = query ? '&' : '';
			const cursorParam = cursor ? `${sep}${direction}Cursor=${cursor}` : '';
			const res = await seededApi('GET', `${path}?${query}${cursorParam}`);
			expect(res.status).toBe(200);
			pages.push(res.body.data);
			cursor = res.body.data.meta[`${direction}Cursor`];
		} while (cursor);
		return pages;
	}

	it('walks every customer exactly once, newest first, both ways', async () => {
		const pages = await walk('/api/v2/customers', 'limit=100', 'next', null);
		expect(pages.map((p) => p.data.length)).toEqual([100, 100, 50]);
		expect(pages[0].meta).toMatchObject({ limit: 100, hasNextPage: true, hasPreviousPage: false, prevCursor: null });
		expect(pages[2].meta).toMatchObject({ hasNextPage: false, hasPreviousPage: true, nextCursor: null });
		const ids = pages.flatMap(idsOf);
		expect(ids).toEqual([...seeded.state.customers].reverse().map((c) => c.id));

		const back = await walk('/api/v2/customers', 'limit=100', 'prev', pages[2].meta.prevCursor as string);
		expect(back.map(idsOf)).toEqual([idsOf(pages[1]), idsOf(pages[0])]);
	});

	it('neither repeats nor skips when a record is created between pages', async () => {
		const first = (await seededApi('GET', '/api/v2/customers')).body.data;
		expect(first.data).toHaveLength(50); // default limit
		const created = await seededApi('POST', '/api/v2/customers', { firstName: 'New', lastName: 'Comer', email: 'new@example.com' });
		const rest = await walk('/api/v2/customers', '', 'next', first.meta.nextCursor);
		const ids = [...idsOf(first), ...rest.flatMap(idsOf)];
		expect(ids).toHaveLength(250);
		expect(new Set(ids).size).toBe(250);
		expect(ids).not.toContain(created.body.data.id);
		const backToFirst = await seededApi('GET', `/api/v2/customers?prevCursor=${rest[0].meta.prevCursor}`);
		expect(idsOf(backToFirst.body.data)).toEqual(idsOf(first));
		expect(backToFirst.body.data.meta.hasPreviousPage).toBe(true); // the new record is newer
		const newest = await seededApi('GET', `/api/v2/customers?prevCursor=${backToFirst.body.data.meta.prevCursor}`);
		expect(idsOf(newest.body.data)).toEqual([created.body.data.id]);
	});

	it('pages filtered beneficiaries and rejects bad cursors', async () => {
		const pages = await walk('/api/v2/beneficiaries', 'status=SUCCESS&limit=40', 'next', null);
		const items = pages.flatMap((p) => p.data) as Array<{ id: string; status?: string }>;
		const expected = seeded.state.beneficiaries.filter((b) => b.status === 'SUCCESS');
		expect(items).toHaveLength(expected.length);
		expect(new Set(items.map((b) => b.id)).size).toBe(expected.length);
		expect(items.every((b) => b.status === 'SUCCESS')).toBe(true);
		const bad = await seededApi('GET', '/api/v2/beneficiaries?nextCursor=garbage');
		expect(bad.status).toBe(400);
		expect(bad.body.message).toEqual(['nextCursor is not a valid cursor']);
		const both = await seededApi('GET', `/api/v2/beneficiaries?nextCursor=${pages[0].meta.nextCursor}&prevCursor=x`);
		expect(both.status).toBe(400);
	});
});
