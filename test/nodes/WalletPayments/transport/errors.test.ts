import type { INode, NodeApiError } from 'n8n-workflow';

import { errorFromResponse, retryAfterSeconds } from '../../../../nodes/WalletPayments/transport/errors';
import { useSandbox } from '../../../helpers/sandbox/sandbox';

const fixture = useSandbox();

const createCustomer = {
	resource: 'customer',
	operation: 'create',
	firstName: '={{ $json.first }}',
	lastName: 'Doe',
	email: '={{ $json.email }}',
};
const listCustomers = { resource: 'customer', operation: 'getAll', returnAll: true };

describe('API failures become NodeApiErrors with the service’s message and HTTP code', () => {
	const cases: Array<[string, { status: number; body?: unknown; headers?: Record<string, string> }, RegExp, RegExp]> = [
		['400 with a string message', { status: 400, body: { status: false, message: 'email is invalid' } }, /^email is invalid \[HTTP 400\]$/, /rejected the request/],
		['400 with an array of messages', { status: 400, body: { status: false, message: ['firstName is required', 'email must be an email'] } }, /^firstName is required; email must be an email \[HTTP 400\]$/, /rejected/],
		['401', { status: 401, body: { status: false, message: 'Invalid API key' } }, /^Invalid API key \[HTTP 401\]$/, /API Key and the Base URL/],
		['403', { status: 403, body: { status: false, message: 'Forbidden' } }, /^Forbidden \[HTTP 403\]$/, /API Key and the Base URL/],
		['404', { status: 404, body: { status: false, message: 'Customer not found' } }, /^Customer not found \[HTTP 404\]$/, /ID does not exist/],
		['429 with Retry-After', { status: 429, body: { status: false, message: 'Too many requests' }, headers: { 'retry-after': '30' } }, /^Too many requests \[HTTP 429\]$/, /after 30 seconds/],
		['500', { status: 500, body: { status: false, message: 'Internal error' } }, /^Internal error \[HTTP 500\]$/, /service had a problem/],
		['a 200 whose status is false', { status: 200, body: { status: false, message: 'Customer could not be created' } }, /^Customer could not be created \[HTTP 200\]$/, /without success/],
		['an HTML body', { status: 502, body: '<html><body>Bad gateway</body></html>' }, /not JSON \[HTTP 502\]$/, /service had a problem/],
	];

	test.each(cases)('%s', async (_name, failure, message, description) => {
		fixture.sandbox.injectFailure({ method: 'POST', path: '/api/v2/customers', ...failure });
		const result = await fixture.run(createCustomer, { items: [{ first: 'Ann', email: 'ann@example.com' }] });
		const error = result.error as NodeApiError;
		expect(error).toBeDefined();
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toMatch(message);
		expect(error.description).toMatch(description);
		expect(error.httpCode).toBe(String(failure.status));
		expect(result.items).toEqual([]);
	});

	test('429 with Retry-After as an HTTP date: the message gives the seconds to wait, not the date', async () => {
		const retryAt = new Date(Date.now() + 120_000).toUTCString();
		fixture.sandbox.injectFailure({ method: 'POST', path: '/api/v2/customers', status: 429, body: { status: false, message: 'Too many requests' }, headers: { 'retry-after': retryAt } });
		const result = await fixture.run(createCustomer, { items: [{ first: 'Ann', email: 'ann@example.com' }] });
		const error = result.error as NodeApiError;
		expect(error.message).toMatch(/^Too many requests \[HTTP 429\]$/);
		expect(error.description).not.toContain('GMT');
		const seconds = Number(/Try again after (\d+) seconds\./.exec(error.description ?? '')?.[1]);
		expect(seconds).toBeGreaterThanOrEqual(110);
		expect(seconds).toBeLessThanOrEqual(120);
		// A POST is never sent again, whatever the wait.
		expect(fixture.apiRequests()).toHaveLength(1);
	});

	test('a refused connection names the problem and the endpoint', async () => {
		const result = await fixture.run(listCustomers, { credentials: { baseUrl: 'http://127.0.0.1:9' } });
		expect(result.error?.message).toBe('Could not connect to the service (connection refused) (GET /api/v2/customers)');
		expect(result.error?.description).toMatch(/Base URL/);
	});

	test('a Base URL without http(s) is refused before any request', async () => {
		const result = await fixture.run(listCustomers, { credentials: { baseUrl: 'api.example.com' } });
		expect(result.error?.message).toMatch(/Base URL .* must start with http/);
		expect(fixture.apiRequests()).toHaveLength(0);
	});
});

describe('Continue On Fail', () => {
	test('a mixed batch gives exactly one output per input, paired and in order', async () => {
		// Item 0 fails at the service (injected once), item 1 fails validation and sends nothing.
		const items = [
			{ first: 'Ann', email: 'ann@example.com' },
			{ first: 'Bob', email: 'not-an-email' },
			{ first: 'Cid', email: 'cid@example.com' },
			{ first: 'Dee', email: 'dee@example.com' },
		];
		fixture.sandbox.injectFailure({ method: 'POST', path: '/api/v2/customers', status: 500, body: { status: false, message: 'Boom' } });
		const result = await fixture.run(createCustomer, { items, continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(result.items[0].json).toEqual({ error: 'Boom [HTTP 500]', description: expect.any(String), httpCode: '500' });
		expect(result.items[1].json.error).toBe('Invalid "Email": "not-an-email" does not look like an email address (name@example.com) (item 1)');
		expect(result.items[2].json).toMatchObject({ firstName: 'Cid', email: 'cid@example.com' });
		expect(result.items[3].json).toMatchObject({ firstName: 'Dee', email: 'dee@example.com' });
		// The invalid item never reached the service; the failed one was not retried.
		expect(fixture.apiRequests().map((request) => (request.body as { email: string }).email)).toEqual([
			'ann@example.com',
			'cid@example.com',
			'dee@example.com',
		]);
	});

	test('without Continue On Fail the first failure stops the node and names the item', async () => {
		const result = await fixture.run(createCustomer, {
			items: [
				{ first: 'Ann', email: 'ann@example.com' },
				{ first: '', email: 'bob@example.com' },
			],
		});
		expect(result.error?.message).toBe('Invalid "First Name": is required and cannot be blank (item 1)');
		expect(fixture.apiRequests()).toHaveLength(1);
	});
});

describe('retryAfterSeconds: the one reader of Retry-After', () => {
	test('seconds, as given (rounded up when not whole)', () => {
		expect(retryAfterSeconds({ 'retry-after': '30' })).toBe(30);
		expect(retryAfterSeconds({ 'retry-after': ' 0 ' })).toBe(0);
		expect(retryAfterSeconds({ 'retry-after': 5 })).toBe(5);
		expect(retryAfterSeconds({ 'retry-after': '1.5' })).toBe(2);
	});

	test('an HTTP date: the seconds until then, 0 when it is past', () => {
		const seconds = retryAfterSeconds({ 'retry-after': new Date(Date.now() + 45_000).toUTCString() });
		expect(seconds).toBeGreaterThanOrEqual(43);
		expect(seconds).toBeLessThanOrEqual(45);
		expect(retryAfterSeconds({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' })).toBe(0);
	});

	test('missing or unreadable: undefined', () => {
		expect(retryAfterSeconds({})).toBeUndefined();
		expect(retryAfterSeconds({ 'retry-after': '' })).toBeUndefined();
		expect(retryAfterSeconds({ 'retry-after': 'soon' })).toBeUndefined();
		expect(retryAfterSeconds({ 'retry-after': ['30'] })).toBeUndefined();
	});
});

describe('card numbers in the service’s words, and the request’s own reference', () => {
	const node = { id: 'n', name: 'Pay', type: 'walletPayments', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
	// Found by a random derived reference in the unit suite: its hex held the Luhn-valid run 1896252077433.
	const reference = 'n8n-e1896252077433b44baf9079';
	const refused = (message: string) =>
		errorFromResponse(node, { statusCode: 409, body: { status: false, message }, headers: {} }, { method: 'POST', endpoint: '/payout', movesMoney: true, reference });

	test('the reference is shown whole, though it holds a run of digits that passes the Luhn check', () => {
		expect(refused(`Reference '${reference}' has already been used`).message).toContain(`Reference '${reference}' has already been used`);
	});

	test('a card number beside it is still cut to its last four digits', () => {
		const message = refused(`Reference '${reference}' was used with card 4111111111111111`).message;
		expect(message).toContain(reference);
		expect(message).toContain('************1111');
		expect(message).not.toContain('4111111111111111');
	});

	test('without a reference, the same run of digits is treated as a card number', () => {
		const error = errorFromResponse(node, { statusCode: 400, body: { status: false, message: 'bad e1896252077433b' }, headers: {} }, { method: 'POST', endpoint: '/payout', movesMoney: true });
		expect(error.message).toContain('*********7433');
	});
});
