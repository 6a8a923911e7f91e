/**
 * The signature matrix (issue 3, section 3), each case over real HTTP through n8n-core's
 * WebhookContext: the answer's status code and whether a run started.
 */
import { verifySignature } from '../../../nodes/WalletPaymentsTrigger/signature';
import type { Answer, TriggerHarness } from '../../helpers/trigger/triggerHarness';
import {
	closeHarnesses,
	emitted,
	expectNothingSecret,
	HEADER,
	outputFor,
	payoutEvent,
	postSigned,
	SECRET,
	sign,
	startTrigger,
} from '../../helpers/trigger/fixtures';

let harness: TriggerHarness;

beforeEach(async () => {
	harness = await startTrigger();
});

afterEach(async () => {
	expectNothingSecret(harness);
	await closeHarnesses();
});

function expectStarted(answer: Answer, runs = 1): void {
	expect(answer.status).toBe(200);
	expect(answer.json).toEqual({ message: 'Workflow was started' });
	expect(harness.runs).toHaveLength(runs);
}

function expectRejected(answer: Answer, reason: RegExp): void {
	expect(answer.status).toBe(401);
	expect(answer.json).toEqual({ code: 401, message: expect.stringMatching(reason) });
	expect((answer.json as { message: string }).message).toMatch(/^Signature check failed: /);
	expect(harness.runs).toHaveLength(0);
	expect(harness.errors).toEqual([]);
}

describe('valid signatures start one run', () => {
	test('HMAC-SHA512 over the raw bytes', async () => {
		const event = payoutEvent();
		const answer = await postSigned(harness, event);
		expectStarted(answer);
		expect(harness.runs[0]).toEqual([[{ json: outputFor(event) }]]);
	});

	test('HMAC-SHA512 over the re-serialised JSON while the raw bytes are spaced differently', async () => {
		const event = payoutEvent();
		const raw = JSON.stringify(event, null, 2);
		// The provider's sample signs JSON.stringify(parsedBody), not the bytes on the wire.
		const answer = await harness.post(raw, { [HEADER]: sign(JSON.stringify(event)) });
		expectStarted(answer);
		expect(emitted(harness)).toEqual([outputFor(event)]);
	});

	test('raw bytes whose parse differs from the signed JSON only by spacing, signed over the raw bytes', async () => {
		const raw = '{ "event" : "payout.transfer.success", "data" : { "id" : "tx_9", "status" : "success" } }';
		const answer = await harness.post(raw, { [HEADER]: sign(raw) });
		expectStarted(answer);
		expect(emitted(harness)).toEqual([outputFor({ event: 'payout.transfer.success', data: { id: 'tx_9', status: 'success' } })]);
	});

	test('upper-case hex and an optional "sha512=" prefix are accepted', async () => {
		const first = JSON.stringify(payoutEvent({ id: 'tx_upper' }));
		expectStarted(await harness.post(first, { [HEADER]: sign(first).toUpperCase() }));
		const second = JSON.stringify(payoutEvent({ id: 'tx_prefix' }));
		expectStarted(await harness.post(second, { [HEADER]: `sha512=${sign(second)}` }), 2);
	});

	test('a 5 MB event', async () => {
		const event = payoutEvent();
		(event.data as Record<string, unknown>).narrative = 'x'.repeat(5 * 1024 * 1024);
		const raw = JSON.stringify(event);
		expect(raw.length).toBeGreaterThan(5 * 1024 * 1024);
		const answer = await harness.post(raw, { [HEADER]: sign(raw) });
		expectStarted(answer);
		expect(emitted(harness)[0]).toEqual(outputFor(event));
	});
});

describe('bad signatures are answered 401 and start nothing', () => {
	test('signed with another secret', async () => {
		const event = payoutEvent();
		const raw = JSON.stringify(event);
		const answer = await postSigned(harness, event, { secret: 'whsec_someone_else' });
		expectRejected(answer, /does not match the request body/);
		// Neither the expected nor the received digest is echoed back.
		expect(answer.text).not.toContain(sign(raw));
		expect(answer.text).not.toContain(sign(raw, 'whsec_someone_else'));
	});

	test('no signature header', async () => {
		expectRejected(await harness.post(payoutEvent()), /x-wallet-signature header is missing or empty/);
	});

	test('an empty signature header', async () => {
		expectRejected(await harness.post(payoutEvent(), { [HEADER]: '' }), /missing or empty/);
	});

	test.each([
		['not hex', 'z'.repeat(128)],
		['one character short', sign('{}').slice(0, 127)],
		['one byte short', sign('{}').slice(0, 126)],
		['one byte too long', `${sign('{}')}00`],
		['hex with a space inside', `${sign('{}').slice(0, 64)} ${sign('{}').slice(65)}`],
		['a prefix naming the other algorithm', `sha256=${sign('{}')}`],
		['two values', `${sign('{}')}, ${sign('{}')}`],
	])('a malformed signature header: %s', async (_case, value) => {
		expectRejected(await harness.post(payoutEvent(), { [HEADER]: value }), /not a hex HMAC-SHA512 digest/);
	});

	test('a tampered body', async () => {
		const event = payoutEvent();
		const signature = sign(JSON.stringify(event));
		const tampered = JSON.stringify({ ...event, data: { ...(event.data as object), amount: '25000.00' } });
		expectRejected(await harness.post(tampered, { [HEADER]: signature }), /does not match/);
	});

	test('a SHA-256 signature while SHA-512 is set', async () => {
		const raw = JSON.stringify(payoutEvent());
		expectRejected(await harness.post(raw, { [HEADER]: sign(raw, SECRET, 'sha256') }), /not a hex HMAC-SHA512 digest/);
		expectRejected(
			await harness.post(raw, { [HEADER]: `sha256=${sign(raw, SECRET, 'sha256')}` }),
			/not a hex HMAC-SHA512 digest/,
		);
	});

	test('an empty body, unsigned or signed over other bytes', async () => {
		expectRejected(await harness.post(''), /missing or empty/);
		expectRejected(await harness.post('', { [HEADER]: sign('{}') }), /does not match/);
	});

	test('a non-JSON body that is not signed', async () => {
		expectRejected(
			await harness.post('event=payout.transfer.success', { 'content-type': 'text/plain', [HEADER]: sign('x') }),
			/does not match/,
		);
	});

	test('a 5 MB body signed with another secret', async () => {
		const raw = JSON.stringify({ event: 'payout.transfer.success', data: { id: 'big', narrative: 'x'.repeat(5 * 1024 * 1024) } });
		expectRejected(await harness.post(raw, { [HEADER]: sign(raw, 'whsec_someone_else') }), /does not match/);
	});
});

describe('signed bodies that are not events start nothing', () => {
	test('an empty body with a valid signature is answered 400', async () => {
		const answer = await harness.post('', { [HEADER]: sign('') });
		expect(answer.status).toBe(400);
		expect(answer.json).toEqual({ code: 400, message: expect.stringContaining('not a wallet payments event') });
		expect(harness.runs).toHaveLength(0);
	});

	test('a signed non-JSON text body is answered 400', async () => {
		const raw = 'event=payout.transfer.success&id=1';
		const answer = await harness.post(raw, { 'content-type': 'text/plain', [HEADER]: sign(raw) });
		expect(answer.status).toBe(400);
		expect(harness.runs).toHaveLength(0);
	});

	test('a body sent as JSON that does not parse is refused by n8n before the node runs (422)', async () => {
		const raw = '{"event": "payout.transfer.success", "data": {';
		const answer = await harness.post(raw, { [HEADER]: sign(raw) });
		expect(answer.status).toBe(422);
		expect(harness.runs).toHaveLength(0);
		expect(harness.answers.at(-1)?.nodeCalled).toBe(false);
	});

	test.each([
		['an array', [payoutEvent()]],
		['no event name', { data: { id: '1' } }],
		['an empty event name', { event: ' ', data: { id: '1' } }],
		['data that is not an object', { event: 'payout.transfer.success', data: 'tx_1' }],
		['no data', { event: 'payout.transfer.success' }],
	])('a signed JSON body with %s is answered 400', async (_case, body) => {
		const answer = await postSigned(harness, JSON.stringify(body));
		expect(answer.status).toBe(400);
		expect(harness.runs).toHaveLength(0);
	});
});

describe('settings', () => {
	test('SHA-256 when chosen: a SHA-256 signature passes, a SHA-512 one does not', async () => {
		const sha256 = await startTrigger({ signatureAlgorithm: 'sha256' });
		const raw = JSON.stringify(payoutEvent());
		const good = await sha256.post(raw, { [HEADER]: sign(raw, SECRET, 'sha256') });
		expect(good.status).toBe(200);
		const bad = await sha256.post(JSON.stringify(payoutEvent({ id: 'tx_2' })), { [HEADER]: sign(raw) });
		expect(bad.status).toBe(401);
		expect(bad.json).toEqual({ code: 401, message: expect.stringContaining('not a hex HMAC-SHA256 digest') });
		expect(sha256.runs).toHaveLength(1);
		expectNothingSecret(sha256);
	});

	test('a custom header name (any case) is read; the default header then is not', async () => {
		const custom = await startTrigger({ signatureHeader: 'X-Provider-Signature' });
		const raw = JSON.stringify(payoutEvent());
		const rejected = await custom.post(raw, { [HEADER]: sign(raw) });
		expect(rejected.status).toBe(401);
		expect(rejected.json).toEqual({ code: 401, message: expect.stringContaining('x-provider-signature header is missing') });
		const accepted = await custom.post(raw, { 'x-provider-signature': sign(raw) });
		expect(accepted.status).toBe(200);
		expect(custom.runs).toHaveLength(1);
	});

	test('Verify Signature off: unsigned events run (the unsafe opt-out)', async () => {
		const open = await startTrigger({ verifySignature: false });
		const answer = await open.post(payoutEvent());
		expect(answer.status).toBe(200);
		expect(open.runs).toHaveLength(1);
	});
});

describe('verifySignature (unit)', () => {
	const body = { event: 'e', data: { id: '1' } };
	const base = { headerName: HEADER, secret: SECRET, algorithm: 'sha512' as const };

	test('says which bytes were signed', () => {
		const spaced = JSON.stringify(body, null, 1);
		expect(verifySignature({ ...base, header: sign(spaced), rawBody: Buffer.from(spaced), parsedBody: body })).toEqual({
			valid: true,
			signedOver: 'raw',
		});
		expect(
			verifySignature({ ...base, header: sign(JSON.stringify(body)), rawBody: Buffer.from(spaced), parsedBody: body }),
		).toEqual({ valid: true, signedOver: 'json' });
	});

	test('falls back to the parsed body when n8n gives no raw body', () => {
		expect(verifySignature({ ...base, header: sign(JSON.stringify(body)), rawBody: undefined, parsedBody: body })).toEqual({
			valid: true,
			signedOver: 'json',
		});
		expect(verifySignature({ ...base, header: sign('x'), rawBody: undefined, parsedBody: undefined }).valid).toBe(false);
	});

	test('a single-element header array is read; the reason never holds a digest', () => {
		const raw = JSON.stringify(body);
		expect(verifySignature({ ...base, header: [sign(raw)], rawBody: raw, parsedBody: body }).valid).toBe(true);
		const wrong = verifySignature({ ...base, header: sign(raw, 'other'), rawBody: raw, parsedBody: body });
		expect(wrong).toEqual({ valid: false, reason: 'the signature does not match the request body' });
	});
});
