/**
 * Secret hygiene: the API key, the webhook signing secret, full card numbers and CVVs never
 * appear in anything the nodes produce or n8n keeps: output items, error messages and
 * descriptions, the errors' JSON, n8n's stored run data, log lines, and the trigger's answers.
 * Card details appear only when "Reveal Card Details" is on (checked, so that the scan is seen
 * to find them).
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { LoggerProxy } from 'n8n-workflow';

import { useSandbox, type SandboxFixture } from '../helpers/sandbox/sandbox';
import type { RunResult, TestCredentials } from '../helpers/n8n/runNode';
import { issueCard } from '../helpers/sandbox/operations';
import { callApi, createBeneficiary, destinationForm, idLocator, initiatePayout } from '../helpers/sandbox/walletOperations';
import type { TriggerHarness } from '../helpers/trigger/triggerHarness';
import { closeHarnesses, emitted, sign, startTrigger } from '../helpers/trigger/fixtures';

const API_KEY = 'sk_live_matrix_5e1f0c2b9a7d44_do_not_leak';
const WRONG_API_KEY = 'sk_live_wrong_3a9c7e1b2d4f66_also_secret';
const SIGNING_SECRET = 'whsec_matrix_8d2f4a6c0e1b_do_not_leak';
const EMAIL = 'card.holder@example.com';

const fixture = useSandbox({ apiKey: API_KEY, webhook: { secret: SIGNING_SECRET } });

// ---------------------------------------------------------------- what n8n keeps and logs

/** Every call to n8n's logger (the one nodes get as `this.logger`, and LoggerProxy). */
const logLines: unknown[][] = [];
const captureLogger = {
	error: (...args: unknown[]) => logLines.push(['error', ...args]),
	warn: (...args: unknown[]) => logLines.push(['warn', ...args]),
	info: (...args: unknown[]) => logLines.push(['info', ...args]),
	debug: (...args: unknown[]) => logLines.push(['debug', ...args]),
	verbose: (...args: unknown[]) => logLines.push(['verbose', ...args]),
	scoped: () => captureLogger,
};

beforeAll(() => {
	Container.set(Logger, captureLogger as unknown as Logger);
	LoggerProxy.init(captureLogger as unknown as Logger);
});

/** JSON that keeps what JSON.stringify drops from errors (message, stack, own fields). */
function serialize(value: unknown): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(value, (_key, inner: unknown) => {
		if (typeof inner === 'object' && inner !== null) {
			if (seen.has(inner)) return '[circular]';
			seen.add(inner);
		}
		if (inner instanceof Error) {
			return { ...inner, name: inner.name, message: inner.message, stack: inner.stack, cause: (inner as { cause?: unknown }).cause };
		}
		if (typeof inner === 'bigint') return String(inner);
		return inner;
	});
}

interface Scan {
	texts: string[];
	/** Which run produced the texts, for failure messages. */
	label: string;
}

const scans: Scan[] = [];

/** Everything one node run left behind: output items, the error, n8n's run data, log lines. */
function collect(label: string, result: RunResult): Scan {
	const error = result.error as (Error & { description?: string }) | undefined;
	const texts = [
		serialize(result.items),
		error?.message ?? '',
		error?.description ?? '',
		JSON.stringify(error ?? null),
		serialize(error ?? null),
		JSON.stringify(result.run),
		serialize(logLines),
	];
	logLines.length = 0;
	const scan = { texts, label };
	scans.push(scan);
	return scan;
}

interface CardSecrets {
	number: string;
	cvv: string;
}

/** The issued card numbers and CVVs of the sandbox. */
function cardSecrets(f: SandboxFixture): CardSecrets[] {
	return f.sandbox.state.cards
		.filter((card) => card.cardNumber && card.cvv2)
		.map((card) => ({ number: String(card.cardNumber), cvv: String(card.cvv2) }));
}

/**
 * JSON keys whose three digits are never a CVV: HTTP statuses in errors and outputs, and a swap
 * quote's lifetime in seconds (the sandbox's is "250", which a card's random CVV can equal).
 */
const NOT_CVV_KEYS = 'httpCode|statusCode|status|code|expirationInSec';

/** Where a secret shows in the texts, as "label: text excerpt"; empty when nowhere. */
function findings(scan: Scan, cards: CardSecrets[]): string[] {
	const found: string[] = [];
	for (const text of scan.texts) {
		for (const secret of [API_KEY, WRONG_API_KEY, SIGNING_SECRET]) {
			if (text.includes(secret)) found.push(`${scan.label}: the secret ${secret.slice(0, 12)}…`);
		}
		for (const card of cards) {
			if (text.includes(card.number)) found.push(`${scan.label}: card number …${card.number.slice(-4)}`);
			// A CVV is three digits: look for it as a value (a JSON string, or labelled), not any
			// "123", and not an HTTP status that happens to have the same digits ("httpCode":"401").
			const cvvAsValue = new RegExp(`(?<!"(?:${NOT_CVV_KEYS})"\\s*:\\s*)"${card.cvv}"|\\b(cvv2?|cvc)\\b\\W{0,4}${card.cvv}(?!\\d)`, 'i');
			const match = cvvAsValue.exec(text);
			if (match) found.push(`${scan.label}: a CVV, in …${text.slice(Math.max(0, match.index - 40), match.index + 40)}…`);
		}
	}
	return found;
}

const credentials: Partial<TestCredentials> = { webhookSecret: SIGNING_SECRET };

async function run(label: string, parameters: INodeParameters, options: Parameters<SandboxFixture['run']>[1] = {}) {
	const result = await fixture.run(parameters, { ...options, credentials: { ...credentials, ...options.credentials } });
	return { result, scan: collect(label, result) };
}

// ---------------------------------------------------------------- every operation, working

interface Setup {
	card: { cardId: string };
	beneficiaryId: string;
	payoutId: string;
	legacyPayoutId: string;
	customerId: string;
	quoteId: string;
}

async function setUp(f: SandboxFixture): Promise<Setup> {
	const card = await issueCard(f);
	await callApi(f, 'POST', '/api/v1/virtualcards/topup', { cardId: card.cardId, amount: 20, reference: 'set-up-top-up' });
	const beneficiary = await createBeneficiary(f);
	const payout = await initiatePayout(f);
	const legacy = await callApi(f, 'POST', '/api/v1/wallets/payout/initialize', {
		amount: 500,
		sourceWalletCurrency: 'USD',
		customerEmail: 'ann@example.com',
		description: 'set-up legacy payout',
		beneficiaryId: beneficiary.id as string,
		reference: 'set-up-legacy',
		callbackUrl: 'https://n8n.example.com/webhook/wallet',
	});
	const customer = await callApi(f, 'POST', '/api/v2/customers', { firstName: 'Ann', lastName: 'Doe', email: 'ann@example.com' });
	const quote = await callApi(f, 'POST', '/api/v1/wallets/initialize-swap', { sourceCurrency: 'usd', targetCurrency: 'ngn', amount: '10.00' });
	return {
		card,
		beneficiaryId: beneficiary.id as string,
		payoutId: payout.id as string,
		legacyPayoutId: legacy.id as string,
		customerId: customer.id as string,
		quoteId: quote.id as string,
	};
}

/** Working parameters of all 21 operations. */
function operations(s: Setup): Record<string, INodeParameters> {
	const { cardId } = s.card;
	return {
		'beneficiary.create': {
			country: 'KE', currency: 'KES', customerEmail: 'ann@example.com',
			destinationType: 'MOBILEMONEY',
			destinationFields: destinationForm({ network: 'MPESA', accountName: 'Ann Doe', accountNumber: '254712345679' }),
		},
		'beneficiary.getAll': { returnAll: true },
		'card.registerUser': {
			customerEmail: 'second.holder@example.com', firstName: 'Bo', lastName: 'Li', country: 'US', idType: 'PASSPORT', idNumber: 'P7654321',
		},
		'card.create': { customerEmail: EMAIL, amount: 25 },
		'card.topUp': { cardId, amount: 10 },
		'card.withdraw': { cardId, amount: 5 },
		'card.getTransactions': { cardId, returnAll: true },
		'card.freeze': { cardId },
		'card.unfreeze': { cardId },
		'card.terminate': { cardId },
		'collection.initialize': { apiVersion: 'v2', country: 'NG', currency: 'NGN', customerEmail: 'ann@example.com', amount: 250000 },
		'country.getRequirements': { countryCode: 'KE' },
		'customer.create': { firstName: 'Cid', lastName: 'Roe', email: 'cid@example.com' },
		'customer.getAll': { returnAll: true },
		'customer.update': { customerId: idLocator(s.customerId), email: 'ann.doe@example.com' },
		'payout.initiate': {
			amount: 100, sourceWalletCurrency: 'USD', customerEmail: 'ann@example.com', description: 'Invoice 1',
			beneficiaryMode: 'id', beneficiaryId: idLocator(s.beneficiaryId),
		},
		'payout.initiateLegacy': {
			amount: 100, sourceWalletCurrency: 'USD', customerEmail: 'ann@example.com', description: 'Invoice 2',
			beneficiaryId: idLocator(s.beneficiaryId), callbackUrl: 'https://n8n.example.com/webhook/wallet',
		},
		'payout.finalizeLegacy': { transactionId: s.legacyPayoutId },
		'swap.getQuote': { sourceCurrency: 'USD', targetCurrency: 'NGN', amount: 10 },
		'swap.finalize': { quoteId: s.quoteId },
		'transaction.get': { transactionId: s.payoutId },
	};
}

const OPERATION_NAMES = Object.keys(operations({ card: { cardId: '' } } as Setup));

function withOperation(op: string, parameters: INodeParameters): INodeParameters {
	const [resource, operation] = op.split('.');
	return { resource, operation, ...parameters };
}

const totals = { runs: 0, texts: 0, findings: 0, revealed: 0 };

afterAll(() => {
	totals.runs = scans.length;
	totals.texts = scans.reduce((sum, scan) => sum + scan.texts.length, 0);
	process.stdout.write(
		`\nSecret hygiene: ${totals.runs} runs and trigger answers scanned (${totals.texts} texts: outputs, errors, ` +
			`error JSON, run data, log lines, answers) for the API key, the signing secret, card numbers and CVVs: ` +
			`${totals.findings} found outside Reveal Card Details; ${totals.revealed} revealed on purpose and detected\n`,
	);
});

function expectCleanCounted(scan: Scan, cards: CardSecrets[]): void {
	const found = findings(scan, cards);
	totals.findings += found.length;
	expect(found).toEqual([]);
}

test('the matrix runs all 21 operations', () => {
	expect(OPERATION_NAMES).toHaveLength(21);
});

test('the scan finds each secret when one is planted', () => {
	const card = { number: '4111111111111111', cvv: '737' };
	const planted = [
		`Authorization: Bearer ${API_KEY}`,
		JSON.stringify({ secret: SIGNING_SECRET }),
		`declined ${WRONG_API_KEY}`,
		JSON.stringify({ cardNumber: card.number }),
		JSON.stringify({ cvv2: card.cvv }),
		JSON.stringify({ securityCode: card.cvv }),
		'cvv: 737',
	];
	for (const text of planted) expect(findings({ label: 'planted', texts: [text] }, [card])).not.toEqual([]);
	// A three-digit number that is not labelled as a CVV is not taken for one.
	const clean = ['[HTTP 737]', 'took 737 ms', JSON.stringify({ httpCode: '737', error: 'x' }), JSON.stringify({ cvv2: '***', cardNumber: '************1111' })];
	expect(findings({ label: 'clean', texts: clean }, [card])).toEqual([]);
});

test('the log capture sees n8n’s log lines (so "none in the logs" means something)', async () => {
	const { result, scan } = await run('transaction.get unknown', {
		resource: 'transaction',
		operation: 'get',
		transactionId: 'does-not-exist',
	});
	expect(result.error?.message).toMatch(/\[HTTP 404\]/);
	const logText = scan.texts[scan.texts.length - 1];
	expect(JSON.parse(logText)).not.toEqual([]);
	expect(logText).toContain('[HTTP 404]');
});

describe('working operations', () => {
	test('all 21 operations, card details masked: no secret anywhere', async () => {
		const setup = await setUp(fixture);
		const all = operations(setup);
		const outputs: IDataObject[] = [];
		for (const op of OPERATION_NAMES) {
			const { result, scan } = await run(op, withOperation(op, all[op]));
			expect({ op, error: result.error?.message }).toEqual({ op, error: undefined });
			outputs.push(...result.items.map((item) => item.json));
			expectCleanCounted(scan, cardSecrets(fixture));
		}
		// The card outputs did carry the (masked) card: the scan looked at real card data.
		const [card] = cardSecrets(fixture);
		expect(outputs).toContainEqual(expect.objectContaining({ id: setup.card.cardId, cardNumber: `************${card.number.slice(-4)}`, cvv2: '***' }));
	});

	test.each(['freeze', 'unfreeze', 'terminate'])('Card → %s with Reveal Card Details on: the details DO appear (the scan finds them)', async (operation) => {
		const { cardId } = await issueCard(fixture);
		if (operation === 'unfreeze') await callApi(fixture, 'POST', '/api/v1/virtualcards/freeze', { cardId });
		const { result, scan } = await run(`card.${operation} revealed`, {
			resource: 'card',
			operation,
			cardId,
			options: { revealCardDetails: true },
		});
		expect(result.error).toBeUndefined();
		const cards = cardSecrets(fixture);
		const found = findings(scan, cards);
		expect(found).toEqual(expect.arrayContaining([expect.stringMatching(/card number/), expect.stringMatching(/a CVV/)]));
		totals.revealed++;
		// Only card details: no key or signing secret even then.
		expect(found.filter((finding) => /the secret/.test(finding))).toEqual([]);
	});
});

// ---------------------------------------------------------------- every operation, failing

describe.each(OPERATION_NAMES)('%s failing', (op) => {
	async function parameters(): Promise<INodeParameters> {
		return withOperation(op, operations(await setUp(fixture))[op]);
	}

	test('a wrong API key (the service’s own 401)', async () => {
		const { result, scan } = await run(`${op} wrong key`, await parameters(), { credentials: { apiKey: WRONG_API_KEY } });
		expect(result.error?.message).toMatch(/\[HTTP 401\]$/);
		expectCleanCounted(scan, cardSecrets(fixture));
	});

	test('a 401 whose message echoes the key, and a 500 that quotes the card number, with Continue On Fail', async () => {
		const base = await parameters();
		const [card] = cardSecrets(fixture);
		fixture.sandbox.injectFailure({ path: /^\/api\//, status: 401, body: { status: false, message: `Invalid API key ${API_KEY} (Bearer ${API_KEY})` } });
		fixture.sandbox.injectFailure({ path: /^\/api\//, status: 500, body: { status: false, message: `Card ${card.number} cvv2 ${card.cvv} declined; signing secret ${SIGNING_SECRET}` } });
		const { result, scan } = await run(`${op} echoing service`, base, { items: [{}, {}], continueOnFail: true });
		// Reads send their items at the same time: which item meets which failure is arrival order.
		const errorByCode = new Map(result.items.map((item) => [item.json.httpCode, String(item.json.error)]));
		expect([...errorByCode.keys()].sort()).toEqual(['401', '500']);
		expect(errorByCode.get('401')).toMatch(/^Invalid API key \[redacted\] \(Bearer \[redacted\]\) \[HTTP 401\]$/);
		expect(errorByCode.get('500')).toContain(`Card ************${card.number.slice(-4)} `);
		expectCleanCounted(scan, cardSecrets(fixture));
	});

	test('network failures: refused and dropped connections', async () => {
		const base = await parameters();
		const refused = await run(`${op} refused`, base, { credentials: { baseUrl: 'http://127.0.0.1:9' } });
		expect(refused.result.error?.message).toMatch(/^Could not connect to the service/);
		expectCleanCounted(refused.scan, cardSecrets(fixture));

		fixture.sandbox.injectFailure({ path: /^\/api\//, status: 0, action: 'destroy' });
		const dropped = await run(`${op} dropped`, base);
		expect(dropped.result.error?.message).toMatch(/^Could not reach the service/);
		expectCleanCounted(dropped.scan, cardSecrets(fixture));
	});
});

describe('other failures', () => {
	test('a timeout (money-moving): no secret in the error, the run data or the logs', async () => {
		const { cardId } = await issueCard(fixture);
		fixture.sandbox.injectFailure({ path: '/api/v1/virtualcards/topup', status: 0, action: 'hang' });
		const { result, scan } = await run('card.topUp timeout', { resource: 'card', operation: 'topUp', cardId, amount: 10 }, { credentials: { timeout: 1 } });
		expect(result.error?.message).toMatch(/^The service did not answer in time/);
		expectCleanCounted(scan, cardSecrets(fixture));
	});

	test('refused input: no secret in the validation errors', async () => {
		const { cardId } = await issueCard(fixture);
		const { result, scan } = await run('card.topUp bad input', { resource: 'card', operation: 'topUp', cardId, amount: 1 }, { items: [{}, {}], continueOnFail: true });
		expect(result.items.map((item) => item.json.error)).toEqual([expect.stringMatching(/^Invalid "Amount \(USD\)"/), expect.stringMatching(/\(item 1\)$/)]);
		expectCleanCounted(scan, cardSecrets(fixture));
	});
});

// ---------------------------------------------------------------- the trigger's answers

describe('Wallet Payments Trigger answers', () => {
	let harness: TriggerHarness;
	const triggerCredentials = (): TestCredentials => ({ apiKey: API_KEY, baseUrl: fixture.sandbox.url, webhookSecret: SIGNING_SECRET });

	afterEach(async () => await closeHarnesses());

	function triggerScan(label: string): Scan {
		const texts = [
			...harness.answers.map((answer) => answer.body),
			...harness.errors.map((error) => serialize(error)),
			serialize(harness.runs),
			serialize(logLines),
		];
		logLines.length = 0;
		const scan = { label, texts };
		scans.push(scan);
		return scan;
	}

	const event = { event: 'virtualcard.created.success', data: { id: 'evt-1', cardId: 'card-1', status: 'success', amount: 50 } };

	test('signed, unsigned, wrongly signed, forged, malformed and headers-included deliveries', async () => {
		harness = await startTrigger({ options: { includeHeaders: true } }, triggerCredentials());
		const raw = JSON.stringify(event);
		const answers = [
			await harness.post(raw, { 'x-wallet-signature': sign(raw, SIGNING_SECRET), authorization: `Bearer ${API_KEY}`, 'x-api-key': API_KEY }),
			await harness.post(raw, {}),
			await harness.post(raw, { 'x-wallet-signature': sign(raw, 'whsec_someone_else') }),
			await harness.post(raw, { 'x-wallet-signature': sign(raw, SIGNING_SECRET, 'sha256') }),
			await harness.post('{"event": "payout.transfer.success", "data": ', { 'x-wallet-signature': sign('{"event"', SIGNING_SECRET) }),
			await harness.post(JSON.stringify({ event: 'x', data: { secret: 'none' } }), { 'x-wallet-signature': 'not-hex' }),
		];
		expect(answers.map((answer) => answer.status)).toEqual([200, 401, 401, 401, 422, 401]);
		expect(emitted(harness)).toHaveLength(1);
		expectCleanCounted(triggerScan('trigger deliveries'), cardSecrets(fixture));
		// No digest of the secret in any answer either (it would let anyone check guesses).
		for (const answer of harness.answers) expect(answer.body).not.toMatch(/[0-9a-f]{64}/i);
	});

	test('a trigger whose credential lacks the signing secret answers without leaking the API key', async () => {
		harness = await startTrigger({}, { apiKey: API_KEY, baseUrl: fixture.sandbox.url });
		const raw = JSON.stringify(event);
		const answer = await harness.post(raw, { 'x-wallet-signature': sign(raw, SIGNING_SECRET) });
		expect(answer.status).toBe(500);
		await expect(harness.activate()).rejects.toThrow(/Webhook Signing Secret/);
		expectCleanCounted(triggerScan('trigger without secret'), cardSecrets(fixture));
	});

	test('events the sandbox signs and delivers itself (card issued, card top-up settled)', async () => {
		harness = await startTrigger({}, triggerCredentials());
		fixture.sandbox.configure({ webhook: { url: harness.url } });
		try {
			const { cardId } = await issueCard(fixture);
			const topUp = await callApi(fixture, 'POST', '/api/v1/virtualcards/topup', { cardId, amount: 10, reference: 'trigger-top-up' });
			await fixture.sandbox.controls.settleCardTransaction(topUp.id as string);
			await fixture.sandbox.idle();
		} finally {
			fixture.sandbox.configure({ webhook: { url: '' } });
		}
		expect(emitted(harness).map((json) => json.event)).toEqual(['virtualcard.created.success', 'virtualcard.transaction.credit']);
		expectCleanCounted(triggerScan('trigger sandbox events'), cardSecrets(fixture));
	});
});
