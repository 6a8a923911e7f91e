/**
 * Failure matrix: every way the service (or the network) can fail, for each kind of operation
 * (read, list, money-moving). Each failure must become a NodeApiError that carries the HTTP
 * code (when there is one) and the service's own message, never a success; Continue On Fail
 * must keep every item paired and in order; a money-moving call is never sent twice. The one
 * exception is the service saying a money-moving request was already done (HTTP 409, "already
 * used"): that is what an earlier run did, so it is an output marked alreadySubmitted, not an
 * error and not a new payment.
 */
import type { IDataObject, INodeParameters, NodeApiError } from 'n8n-workflow';

import type { FailureRule, RecordedRequest } from '../../tooling/sandbox';
import { useSandbox, type SandboxFixture } from '../helpers/sandbox/sandbox';
import { issueCard } from '../helpers/sandbox/operations';
import { callApi, createBeneficiary, initiatePayout } from '../helpers/sandbox/walletOperations';

const fixture = useSandbox();

const MAYBE_DONE = /may still have been carried out/;

interface Subject {
	name: string;
	kind: 'read' | 'list' | 'money-moving';
	method: string;
	path: RegExp;
	/** Sets up what `count` successful items need; returns the parameters and the items. */
	prepare(fixture: SandboxFixture, count: number): Promise<{ parameters: INodeParameters; items: IDataObject[] }>;
}

async function newPayout(f: SandboxFixture): Promise<string> {
	const payout = await initiatePayout(f);
	return payout.id as string;
}

const subjects: Subject[] = [
	{
		name: 'Transaction → Get',
		kind: 'read',
		method: 'GET',
		path: /^\/api\/v2\/transactions\//,
		async prepare(f, count) {
			const id = await newPayout(f);
			return {
				parameters: { resource: 'transaction', operation: 'get', transactionId: '={{ $json.id }}' },
				items: Array.from({ length: count }, (_, index) => ({ id, index })),
			};
		},
	},
	{
		name: 'Customer → Get Many',
		kind: 'list',
		method: 'GET',
		path: /^\/api\/v2\/customers$/,
		async prepare(f, count) {
			await callApi(f, 'POST', '/api/v2/customers', { firstName: 'Ann', lastName: 'Doe', email: 'ann@example.com' });
			return {
				parameters: { resource: 'customer', operation: 'getAll', returnAll: false, limit: 1 },
				items: Array.from({ length: count }, (_, index) => ({ index })),
			};
		},
	},
	{
		name: 'Card → Get Many Transactions',
		kind: 'list',
		method: 'GET',
		path: /^\/api\/v1\/virtualcards\/cards\/[^/]+\/transactions$/,
		async prepare(f, count) {
			const { cardId } = await issueCard(f);
			await callApi(f, 'POST', '/api/v1/virtualcards/topup', { cardId, amount: 10, reference: 'set-up-top-up' });
			return {
				parameters: { resource: 'card', operation: 'getTransactions', cardId, returnAll: false, limit: 1 },
				items: Array.from({ length: count }, (_, index) => ({ index })),
			};
		},
	},
	{
		name: 'Payout → Initiate',
		kind: 'money-moving',
		method: 'POST',
		path: /^\/api\/v2\/wallets\/payout\/initialize$/,
		async prepare(f, count) {
			const beneficiary = await createBeneficiary(f);
			return {
				parameters: {
					resource: 'payout',
					operation: 'initiate',
					amount: 100,
					sourceWalletCurrency: 'USD',
					customerEmail: 'ann@example.com',
					description: '={{ "Item " + $json.index }}',
					beneficiaryMode: 'id',
					beneficiaryId: beneficiary.id as string,
				},
				items: Array.from({ length: count }, (_, index) => ({ index })),
			};
		},
	},
	{
		name: 'Swap → Finalize',
		kind: 'money-moving',
		method: 'POST',
		path: /^\/api\/v2\/wallets\/finalize-swap$/,
		async prepare(f, count) {
			const items: IDataObject[] = [];
			for (let index = 0; index < count; index++) {
				const quote = await callApi(f, 'POST', '/api/v1/wallets/initialize-swap', {
					sourceCurrency: 'usd',
					targetCurrency: 'ngn',
					amount: '10.00',
				});
				items.push({ quoteId: quote.id as string, index });
			}
			return { parameters: { resource: 'swap', operation: 'finalize', quoteId: '={{ $json.quoteId }}' }, items };
		},
	},
	{
		name: 'Card → Top Up',
		kind: 'money-moving',
		method: 'POST',
		path: /^\/api\/v1\/virtualcards\/topup$/,
		async prepare(f, count) {
			const { cardId } = await issueCard(f);
			return {
				parameters: { resource: 'card', operation: 'topUp', cardId, amount: 5 },
				items: Array.from({ length: count }, (_, index) => ({ index })),
			};
		},
	},
];

interface Failure {
	name: string;
	/** The sandbox's reply; absent for a refused connection. */
	rule?: Omit<FailureRule, 'method' | 'path'>;
	/** The error message (without the endpoint for network failures). */
	message: RegExp;
	/** The HTTP code the error carries; undefined when no answer came. */
	httpCode?: string;
	/** The description, by kind of operation. */
	description: (kind: Subject['kind']) => RegExp;
	/** Needs the credential's 1-second timeout. */
	timeout?: boolean;
	/** Nothing reaches the sandbox. */
	refused?: boolean;
	/** For a money-moving operation, the answer means an earlier run did it (alreadySubmitted). */
	doneBefore?: boolean;
	/** For a read (GET), the node waits and asks once more: the second answer is a success. */
	readRetried?: boolean;
}

const rejected = () => /rejected the request/;
const credentialProblem = () => /Check the API Key and the Base URL/;
const serverProblem = (kind: Subject['kind']) =>
	kind === 'money-moving' ? /service had a problem\. The request may still have been carried out/ : /service had a problem\. Try again later/;

const failures: Failure[] = [
	{
		name: '400 with a string message',
		rule: { status: 400, body: { status: false, message: 'amount is invalid' } },
		message: /^amount is invalid \[HTTP 400\]$/, httpCode: '400', description: rejected,
	},
	{
		name: '400 with an array of messages',
		rule: { status: 400, body: { status: false, message: ['amount must be a positive integer', 'customerEmail is required'] } },
		message: /^amount must be a positive integer; customerEmail is required \[HTTP 400\]$/, httpCode: '400', description: rejected,
	},
	{
		name: '401',
		rule: { status: 401, body: { status: false, message: 'Invalid API key' } },
		message: /^Invalid API key \[HTTP 401\]$/, httpCode: '401', description: credentialProblem,
	},
	{
		name: '403',
		rule: { status: 403, body: { status: false, message: 'This key may not do that' } },
		message: /^This key may not do that \[HTTP 403\]$/, httpCode: '403', description: credentialProblem,
	},
	{
		name: '404',
		rule: { status: 404, body: { status: false, message: 'Transaction not found' } },
		message: /^Transaction not found \[HTTP 404\]$/, httpCode: '404', description: () => /ID does not exist/,
	},
	{
		name: '409',
		rule: { status: 409, body: { status: false, message: "Reference 'abc' has already been used" } },
		message: /^(Already submitted: )?Reference 'abc' has already been used \[HTTP 409\]$/, httpCode: '409',
		description: () => /already (submitted|done)\b.*Nothing new was created/,
		doneBefore: true,
	},
	{
		name: '422',
		rule: { status: 422, body: { status: false, message: 'Unprocessable entity: currency not enabled' } },
		message: /^Unprocessable entity: currency not enabled \[HTTP 422\]$/, httpCode: '422', description: rejected,
	},
	{
		// Longer than a read waits (60 s): answered at once, with the wait in the description.
		name: '429 with a Retry-After too long to wait',
		rule: { status: 429, body: { status: false, message: 'Too many requests' }, headers: { 'retry-after': '120' } },
		message: /^Too many requests \[HTTP 429\]$/, httpCode: '429', description: () => /Try again after 120 seconds/,
	},
	{
		name: '429 without Retry-After',
		rule: { status: 429, body: { status: false, message: 'Too many requests' } },
		message: /^Too many requests \[HTTP 429\]$/, httpCode: '429', description: () => /Rate limited by the service\. Try again later/,
		readRetried: true,
	},
	{
		name: '500',
		rule: { status: 500, body: { status: false, message: 'Internal server error' } },
		message: /^Internal server error \[HTTP 500\]$/, httpCode: '500', description: serverProblem,
	},
	{
		name: '502',
		rule: { status: 502, body: { status: false, message: 'Bad gateway' } },
		message: /^Bad gateway \[HTTP 502\]$/, httpCode: '502', description: serverProblem,
	},
	{
		name: '503',
		rule: { status: 503, body: { status: false, message: 'Service unavailable' }, headers: { 'retry-after': '120' } },
		message: /^Service unavailable \[HTTP 503\]$/, httpCode: '503', description: serverProblem,
	},
	{
		name: 'a timeout',
		rule: { status: 0, action: 'hang' },
		timeout: true,
		message: /^The service did not answer in time \((GET|POST) \/api\//,
		description: (kind) => (kind === 'money-moving' ? MAYBE_DONE : /Check the Base URL/),
	},
	{
		name: 'a refused connection',
		refused: true,
		message: /^Could not connect to the service \(connection refused\) \((GET|POST) \/api\//,
		description: (kind) => (kind === 'money-moving' ? MAYBE_DONE : /Check the Base URL/),
	},
	{
		name: 'a dropped connection',
		rule: { status: 0, action: 'destroy' },
		message: /^Could not reach the service \((GET|POST) \/api\//,
		description: (kind) => (kind === 'money-moving' ? MAYBE_DONE : /Check the Base URL/),
	},
	{
		name: 'an HTML body',
		rule: { status: 502, body: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>' },
		message: /^The service answered HTTP 502 with a body that is not JSON \[HTTP 502\]$/, httpCode: '502', description: serverProblem,
	},
	{
		name: 'an HTML body with 200 (a proxy’s login page)',
		rule: { status: 200, body: '<!doctype html><html><body>Please sign in</body></html>' },
		message: /^The service answered HTTP 200 with a body that is not JSON \[HTTP 200\]$/, httpCode: '200',
		description: (kind) => (kind === 'money-moving' ? MAYBE_DONE : /answered without success/),
	},
	{
		name: 'an empty body',
		rule: { status: 200, body: '' },
		message: /^The service answered HTTP 200 with an empty or unexpected body \[HTTP 200\]$/, httpCode: '200',
		description: (kind) => (kind === 'money-moving' ? MAYBE_DONE : /answered without success/),
	},
	{
		name: 'malformed JSON',
		rule: { status: 200, body: '{"status": true, "data": {"id": ' },
		message: /^The service answered HTTP 200 with a body that is not JSON \[HTTP 200\]$/, httpCode: '200',
		description: (kind) => (kind === 'money-moving' ? MAYBE_DONE : /answered without success/),
	},
	{
		name: 'a 200 with status: false',
		rule: { status: 200, body: { status: false, message: 'Insufficient wallet balance' } },
		message: /^Insufficient wallet balance \[HTTP 200\]$/, httpCode: '200', description: () => /answered without success/,
	},
];

const CLOSED_PORT_URL = 'http://127.0.0.1:9';
const totals = { checked: 0, successes: 0, alreadySubmitted: 0, readRetried: 0, requests: 0, batches: 0, batchItems: 0, batchFailed: 0, batchPaired: 0, moneyItems: 0, moneyRequests: 0 };

afterAll(() => {
	process.stdout.write(
		`\nFailure matrix: ${totals.checked} failures checked (${failures.length} kinds × ${subjects.length} operations): ` +
			`${totals.checked - totals.alreadySubmitted - totals.readRetried} clear NodeApiErrors, ${totals.alreadySubmitted} outputs marked already submitted, ` +
			`${totals.readRetried} rate-limited reads asked again and answered, ${totals.successes} reported as success, ` +
			`${totals.requests} requests sent (only those reads twice). ` +
			`Continue On Fail: ${totals.batches} batches, ${totals.batchItems} items, ${totals.batchFailed} failing, ` +
			`${totals.batchPaired} outputs paired in order; money-moving: ${totals.moneyRequests} requests for ${totals.moneyItems} items\n`,
	);
});

describe.each(subjects.map((subject) => [subject.name, subject] as const))('%s', (_name, subject) => {
	test.each(failures.map((failure) => [failure.name, failure] as const))('%s', async (_failure, failure) => {
		const { parameters, items } = await subject.prepare(fixture, 1);
		if (failure.rule) fixture.sandbox.injectFailure({ method: subject.method, path: subject.path, ...failure.rule });
		const credentials = {
			...(failure.timeout ? { timeout: 1 } : {}),
			...(failure.refused ? { baseUrl: CLOSED_PORT_URL } : {}),
		};
		const result = await fixture.run(parameters, { items, credentials });
		const sent = fixture.apiRequests();
		totals.requests += sent.length;
		totals.checked++;

		if (failure.readRetried && subject.kind !== 'money-moving') {
			// A read asked again after the wait: one answer, a success, from the second request.
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
			expect(sent).toHaveLength(2);
			totals.readRetried++;
			return;
		}
		if (failure.doneBefore && subject.kind === 'money-moving') {
			// Done by an earlier run: one output that says so, with the service's words; no new payment.
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual([
				expect.objectContaining({ alreadySubmitted: true, sent: true, outcome: 'accepted', message: expect.stringMatching(new RegExp(failure.message.source.replace('^', ''))) }),
			]);
			expect(sent).toHaveLength(1);
			totals.alreadySubmitted++;
			return;
		}
		// Never a success.
		expect(result.items).toEqual([]);
		const error = result.error as NodeApiError;
		expect(error?.name).toBe('NodeApiError');
		expect(error.message).toMatch(failure.message);
		expect(error.description).toMatch(failure.description(subject.kind));
		expect(error.httpCode ?? undefined).toBe(failure.httpCode);
		// Sent once (never retried), or not at all when the connection was refused.
		totals.successes += result.items.length;
		expect(sent).toHaveLength(failure.refused ? 0 : 1);
		for (const request of sent) expect(`${request.method} ${request.path}`).toMatch(new RegExp(`^${subject.method} `));
	});

	test('Continue On Fail: 100 items, every third failing in a different way, give 100 paired outputs in order', async () => {
		const count = 100;
		const { parameters, items } = await subject.prepare(fixture, count);
		// The answering failures in turn; a hanging one in the first money-moving batch only (each
		// costs the 1-second timeout).
		const kinds = failures.filter((failure) => failure.rule && !failure.timeout);
		const hang = failures.find((failure) => failure.timeout)!;
		const planned = new Map<number, Failure>();
		for (let index = 2; index < count; index += 3) planned.set(index, kinds[((index - 2) / 3) % kinds.length]);
		if (subject === subjects.find((s) => s.kind === 'money-moving')) planned.set(count - 1 - ((count - 1 - 2) % 3), hang);

		// Each item sends one request (a rate-limited read a second one, right after), so the
		// n-th item's request is known: fail it as planned the moment the sandbox records it
		// (before the sandbox acts on it).
		const requests = fixture.sandbox.requests;
		const push = requests.push;
		let seen = 0;
		let retryNext = false;
		requests.push = function (this: RecordedRequest[], ...recorded: RecordedRequest[]) {
			for (const request of recorded) {
				if (retryNext) {
					retryNext = false;
					continue;
				}
				const failure = planned.get(seen++);
				if (failure && request.path.startsWith('/api/')) {
					fixture.sandbox.injectFailure({ method: request.method, path: request.path, ...failure.rule! });
					retryNext = failure.readRetried === true && subject.kind !== 'money-moving';
				}
			}
			return push.apply(this, recorded);
		};
		try {
			const result = await fixture.run(
				// One item at a time, so that the n-th request is item n's (batching is tested apart).
				subject.kind === 'money-moving' ? parameters : { ...parameters, batching: { itemsPerBatch: 1 } },
				{ items, continueOnFail: true, credentials: { timeout: 1 } },
			);
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(count);
			expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
			for (const [index, item] of result.items.entries()) {
				const failure = planned.get(index);
				if (failure?.readRetried && subject.kind !== 'money-moving') {
					expect(item.json.error).toBeUndefined();
				} else if (failure?.doneBefore && subject.kind === 'money-moving') {
					expect(item.json).toMatchObject({ alreadySubmitted: true, sent: true, outcome: 'accepted' });
					expect(String(item.json.message)).toMatch(new RegExp(failure.message.source.replace('^', '')));
				} else if (failure) {
					expect(String(item.json.error)).toMatch(failure.message);
					expect(String(item.json.description)).toMatch(failure.description(subject.kind));
					if (failure.httpCode) expect(item.json.httpCode).toBe(failure.httpCode);
				} else {
					expect(item.json.error).toBeUndefined();
					expect(item.json.id ?? item.json.email).toBeDefined();
				}
			}
			// One request per item (a rate-limited read: two): nothing else was sent twice, nothing skipped.
			const sent = fixture.apiRequests();
			const retriedReads = subject.kind === 'money-moving' ? 0 : [...planned.values()].filter((f) => f.readRetried).length;
			expect(sent).toHaveLength(count + retriedReads);
			if (subject.kind === 'money-moving') {
				const bodies = sent.map((request) => request.rawBody);
				expect(new Set(bodies).size).toBe(count);
				totals.moneyItems += count;
				totals.moneyRequests += sent.length;
			}
			totals.batches++;
			totals.batchItems += count;
			totals.batchFailed += planned.size;
			totals.batchPaired += result.items.filter((item, index) => (item.pairedItem as { item: number }).item === index).length;
		} finally {
			requests.push = push;
		}
	});
});
