/**
 * Over real HTTP: the sandbox signs and delivers its events (with retries) to the trigger's
 * webhook URL, served by the harness through n8n-core's WebhookContext.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox, type ControlResult, type Sandbox } from '../../../tooling/sandbox';
import type { TriggerHarness } from '../../helpers/trigger/triggerHarness';
import { closeHarnesses, emitted, expectNothingSecret, outputFor, startTrigger } from '../../helpers/trigger/fixtures';

const SANDBOX_SECRET = 'whsec_sandbox';
let sandbox: Sandbox;
let harness: TriggerHarness;

beforeAll(async () => {
	sandbox = await startSandbox({ webhook: { retryDelaysMs: [10, 20, 40] } });
});
afterAll(async () => await sandbox?.close());

/** A trigger wired as a user would: the sandbox-wide webhook URL (the dashboard setting). */
async function wire(parameters: INodeParameters = {}, secret = SANDBOX_SECRET, dashboard = true): Promise<TriggerHarness> {
	harness = await startTrigger(parameters, { apiKey: sandbox.apiKey, baseUrl: sandbox.url, webhookSecret: secret });
	// '' clears the URL (SandboxConfigPatch's type does not admit null).
	sandbox.configure({ webhook: { url: dashboard ? harness.url : '' } });
	return harness;
}

beforeEach(() => {
	sandbox.reset();
	sandbox.configure({
		webhook: { url: '', secret: SANDBOX_SECRET, header: 'x-wallet-signature', algorithm: 'sha512', retryDelaysMs: [10, 20, 40] },
	});
});

afterEach(async () => {
	if (harness) expectNothingSecret(harness);
	await closeHarnesses();
});

async function api(method: 'GET' | 'POST', path: string, body?: IDataObject): Promise<IDataObject> {
	const response = await fetch(`${sandbox.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = (await response.json()) as IDataObject;
	if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
	return json.data as IDataObject;
}

const KENYA = {
	country: 'KE',
	currency: 'KES',
	destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'Ann Doe', accountNumber: '254712345678' },
};

async function payout(): Promise<string> {
	const tx = await api('POST', '/api/v2/wallets/payout/initialize', {
		amount: 1500,
		sourceWalletCurrency: 'USD',
		customerEmail: 'ann@example.com',
		description: 'Invoice 7',
		beneficiary: KENYA,
	});
	return tx.id as string;
}

async function issuedCard(): Promise<string> {
	await api('POST', '/api/v1/virtualcards/registercarduser', {
		customerEmail: 'card.holder@example.com',
		firstName: 'Ada',
		lastName: 'Okafor',
		country: 'US',
		idType: 'PASSPORT',
		idNumber: 'P1234567',
	});
	const card = await api('POST', '/api/v1/virtualcards/create', {
		customerEmail: 'card.holder@example.com',
		amount: 50,
		reference: 'card-ref-1',
	});
	return card.id as string;
}

/** The control delivered its event once, answered 200, and the trigger emitted exactly it. */
function expectDeliveredAndEmitted(result: ControlResult, event: string): IDataObject {
	expect(result.event).toBe(event);
	expect(result.deliveries.map((d) => ({ url: d.url, attempt: d.attempt, status: d.status }))).toEqual([
		{ url: harness.url, attempt: 1, status: 200 },
	]);
	const sent = JSON.parse(result.deliveries[0].body) as IDataObject;
	expect(emitted(harness)).toEqual([outputFor({ event, data: sent.data })]);
	expect(sent.data).toEqual(JSON.parse(JSON.stringify(result.data)));
	return sent.data as IDataObject;
}

describe('each sandbox control reaches the trigger', () => {
	test('settle a payout: payout.transfer.success', async () => {
		await wire();
		const id = await payout();
		const data = expectDeliveredAndEmitted(await sandbox.controls.settlePayout(id), 'payout.transfer.success');
		expect(data).toMatchObject({ id, status: 'success', amount: '15.00' });
	});

	test('fail a payout: payout.transfer.failed', async () => {
		await wire();
		const id = await payout();
		const data = expectDeliveredAndEmitted(
			await sandbox.controls.failPayout(id, 'Account closed'),
			'payout.transfer.failed',
		);
		expect(data).toMatchObject({ id, status: 'failed', failedReason: 'Account closed' });
	});

	test('change a beneficiary’s status: beneficiary.status.changed, via the beneficiary’s callbackUrl', async () => {
		await wire({}, SANDBOX_SECRET, false);
		const beneficiary = await api('POST', '/api/v2/beneficiaries', {
			...KENYA,
			customerEmail: 'ann@example.com',
			callbackUrl: harness.url,
		});
		const pending = await sandbox.controls.setBeneficiaryStatus(beneficiary.id as string, 'PENDING');
		const data = expectDeliveredAndEmitted(pending, 'beneficiary.status.changed');
		expect(data).toMatchObject({ id: beneficiary.id, status: 'PENDING' });
		// The same beneficiary moving on is a new event.
		await sandbox.controls.setBeneficiaryStatus(beneficiary.id as string, 'SUCCESS');
		expect(emitted(harness).map((item) => (item.data as IDataObject).status)).toEqual(['PENDING', 'SUCCESS']);
	});

	test('a legacy payout’s callbackUrl receives its settlement', async () => {
		await wire({}, SANDBOX_SECRET, false);
		const beneficiary = await api('POST', '/api/v2/beneficiaries', { ...KENYA, customerEmail: 'ann@example.com' });
		const tx = await api('POST', '/api/v1/wallets/payout/initialize', {
			amount: 2000,
			reference: 'legacy-1',
			customerEmail: 'ann@example.com',
			description: 'Legacy payout',
			beneficiaryId: beneficiary.id as string,
			sourceWalletCurrency: 'USD',
			callbackUrl: harness.url,
		});
		await api('POST', '/api/v1/wallets/payout/finalize', { transactionId: tx.id as string });
		const data = expectDeliveredAndEmitted(await sandbox.controls.settlePayout(tx.id as string), 'payout.transfer.success');
		expect(data).toMatchObject({ id: tx.id, status: 'success', callbackUrl: harness.url });
	});

	test('complete a card creation: virtualcard.created.success', async () => {
		await wire();
		const cardId = await issuedCard();
		const data = expectDeliveredAndEmitted(
			await sandbox.controls.completeCardCreation(cardId),
			'virtualcard.created.success',
		);
		expect(data).toMatchObject({ id: cardId, cardId, status: 'success', amount: 50 });
	});

	test('fail a card creation: virtualcard.created.failed', async () => {
		await wire();
		const cardId = await issuedCard();
		const data = expectDeliveredAndEmitted(
			await sandbox.controls.failCardCreation(cardId, 'Issuer unavailable'),
			'virtualcard.created.failed',
		);
		expect(data).toMatchObject({ cardId, status: 'failed', reason: 'Issuer unavailable' });
	});

	test('settle a card top-up and a withdrawal: virtualcard.transaction.credit / debit', async () => {
		await wire({ events: ['virtualcard.transaction.credit', 'virtualcard.transaction.debit'] });
		const cardId = await issuedCard();
		await sandbox.controls.completeCardCreation(cardId); // not selected: answered 200, no run
		expect(harness.runs).toHaveLength(0);
		const topUp = await api('POST', '/api/v1/virtualcards/topup', { cardId, reference: 'top-1', amount: 20 });
		const withdrawal = await api('POST', '/api/v1/virtualcards/withdraw', { cardId, reference: 'wd-1', amount: 5 });
		const credit = await sandbox.controls.settleCardTransaction(topUp.id as string);
		const debit = await sandbox.controls.settleCardTransaction(withdrawal.id as string);
		expect(credit.event).toBe('virtualcard.transaction.credit');
		expect(debit.event).toBe('virtualcard.transaction.debit');
		expect(emitted(harness)).toEqual([
			outputFor({ event: 'virtualcard.transaction.credit', data: JSON.parse(credit.deliveries[0].body).data }),
			outputFor({ event: 'virtualcard.transaction.debit', data: JSON.parse(debit.deliveries[0].body).data }),
		]);
		expect(emitted(harness).map((item) => item.data)).toMatchObject([
			{ id: topUp.id, cardId, status: 'success', amount: 20 },
			{ id: withdrawal.id, cardId, status: 'success', amount: 5 },
		]);
		// The transactions now read `success` in the card's list.
		const list = await api('GET', `/api/v1/virtualcards/cards/${cardId}/transactions`);
		expect((list.cardTransactions as IDataObject[]).map((t) => t.status)).toEqual(['success', 'success']);
	});

	test('mark a collection paid: transaction.deposit.success', async () => {
		await wire();
		const collection = await api('POST', '/api/v2/wallets/collections/initialize', {
			country: 'NG',
			currency: 'NGN',
			customerEmail: 'payer@example.com',
			amount: 500000,
			reference: 'col-1',
			description: 'Order 9',
			payload: { type: 'Sandbox Bank', accountName: 'Ada Okafor' },
		});
		const data = expectDeliveredAndEmitted(
			await sandbox.controls.markCollectionPaid(collection.id as string),
			'transaction.deposit.success',
		);
		expect(data).toMatchObject({ id: collection.id, status: 'success', centAmount: 500000, currency: 'NGN' });
	});

	test('KYC and card transaction outcomes reach the trigger too', async () => {
		await wire();
		const cardId = await issuedCard();
		await sandbox.controls.completeCardCreation(cardId);
		const topUp = await api('POST', '/api/v1/virtualcards/topup', { cardId, reference: 'top-2', amount: 10 });
		await sandbox.controls.cardTransactionEvent(topUp.id as string, 'declined', 'Risk check');
		await sandbox.controls.completeKyc('card.holder@example.com');
		expect(emitted(harness).map((item) => item.event)).toEqual([
			'virtualcard.created.success',
			'virtualcard.transaction.declined',
			'virtualcard.user.kyc.success',
		]);
	});
});

describe('retries and signatures over real HTTP', () => {
	test('n8n answers 500 first: the sandbox retries, the second attempt starts exactly one run', async () => {
		await wire();
		harness.failNext([500]);
		const result = await sandbox.controls.settlePayout(await payout());
		expect(result.deliveries.map((d) => [d.attempt, d.status])).toEqual([
			[1, 500],
			[2, 200],
		]);
		expect(sandbox.deliveries).toHaveLength(2);
		// Both attempts carried the same bytes and signature.
		expect(new Set(result.deliveries.map((d) => `${d.body}|${d.signature}`)).size).toBe(1);
		expect(harness.runs).toHaveLength(1);
		expect(harness.answers.map((answer) => [answer.status, answer.nodeCalled])).toEqual([
			[500, false],
			[200, true],
		]);
	});

	test('a run started but the 200 was lost (500 after the node ran): the retry is a duplicate, one run', async () => {
		await wire();
		harness.failNext([500], 'answerLost');
		const result = await sandbox.controls.settlePayout(await payout());
		expect(result.deliveries.map((d) => d.status)).toEqual([500, 200]);
		expect(harness.runs).toHaveLength(1);
		expect(JSON.parse(harness.answers[1].body)).toEqual({ received: true, started: false, reason: 'duplicate delivery' });
	});

	test('every attempt failing: four attempts (1 + 3 retries), no run', async () => {
		await wire();
		harness.failNext([503, 503, 503, 503]);
		const result = await sandbox.controls.settlePayout(await payout());
		expect(result.deliveries.map((d) => [d.attempt, d.status])).toEqual([
			[1, 503],
			[2, 503],
			[3, 503],
			[4, 503],
		]);
		expect(harness.runs).toHaveLength(0);
	});

	test('the sandbox signing with another secret: every attempt is answered 401, no run', async () => {
		await wire({}, 'whsec_not_the_sandbox_secret');
		const result = await sandbox.controls.settlePayout(await payout());
		expect(result.deliveries.map((d) => d.status)).toEqual([401, 401, 401, 401]);
		expect(harness.runs).toHaveLength(0);
	});

	test('SHA-256 and a custom header on both sides', async () => {
		await wire({ signatureAlgorithm: 'sha256', signatureHeader: 'X-Pay-Signature' }, 'whsec_custom');
		sandbox.configure({ webhook: { secret: 'whsec_custom', header: 'x-pay-signature', algorithm: 'sha256' } });
		const id = await payout();
		expectDeliveredAndEmitted(await sandbox.controls.settlePayout(id), 'payout.transfer.success');
	});

	test('an event not selected is acknowledged with 200 so the sandbox does not retry it', async () => {
		await wire({ events: ['payout.transfer.failed'] });
		const result = await sandbox.controls.settlePayout(await payout());
		expect(result.deliveries.map((d) => d.status)).toEqual([200]);
		expect(harness.runs).toHaveLength(0);
	});
});
