/**
 * Event filtering, de-duplication and the output item, over real HTTP through n8n-core's
 * WebhookContext.
 */
import { DEFAULT_DEDUPE_WINDOW, eventKey, recentKeys } from '../../nodes/WalletPaymentsTrigger/dedupe';
import { WALLET_EVENTS } from '../../nodes/WalletPaymentsTrigger/events';
import { WalletPaymentsTrigger } from '../../nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node';
import type { TriggerHarness } from './harness';
import { closeHarnesses, emitted, expectNothingSecret, HEADER, payoutEvent, postSigned, sign, startTrigger } from './support';

const harnesses: TriggerHarness[] = [];
async function trigger(parameters: Parameters<typeof startTrigger>[0] = {}): Promise<TriggerHarness> {
	const harness = await startTrigger(parameters);
	harnesses.push(harness);
	return harness;
}

afterEach(async () => {
	for (const harness of harnesses.splice(0)) expectNothingSecret(harness);
	await closeHarnesses();
});

const NOT_SELECTED = { received: true, started: false, reason: 'event not selected' };
const DUPLICATE = { received: true, started: false, reason: 'duplicate delivery' };

describe('the Events field', () => {
	test('lists every event name from the provider notes, plus All Events (the default)', () => {
		const events = new WalletPaymentsTrigger().description.properties.find((p) => p.name === 'events')!;
		expect(events.default).toEqual(['*']);
		expect(WALLET_EVENTS.map((option) => option.value).sort()).toEqual(
			[
				'payout.transfer.success',
				'payout.transfer.failed',
				'beneficiary.status.changed',
				'virtualcard.transaction.debit',
				'virtualcard.transaction.credit',
				'virtualcard.transaction.reversed',
				'virtualcard.transaction.declined',
				'virtualcard.user.kyc.success',
				'virtualcard.user.kyc.failed',
				'virtualcard.created.success',
				'virtualcard.created.failed',
				'transaction.deposit.success',
				'virtualcard.topup.success',
				'virtualcard.topup.failed',
				'virtualcard.withdrawal.success',
				'virtualcard.withdrawal.failed',
			].sort(),
		);
	});
});

describe('event filtering', () => {
	test('a selected event starts a run', async () => {
		const harness = await trigger({ events: ['payout.transfer.success', 'payout.transfer.failed'] });
		const answer = await postSigned(harness, payoutEvent({ event: 'payout.transfer.failed', status: 'failed' }));
		expect(answer.status).toBe(200);
		expect(emitted(harness)).toEqual([payoutEvent({ event: 'payout.transfer.failed', status: 'failed' })]);
	});

	test('an event not selected is answered 200 and starts nothing', async () => {
		const harness = await trigger({ events: ['payout.transfer.failed'] });
		const answer = await postSigned(harness, payoutEvent({ event: 'payout.transfer.success' }));
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual(NOT_SELECTED);
		expect(harness.runs).toHaveLength(0);
		// Ignored events leave no de-duplication key behind.
		expect(recentKeys(harness.staticData())).toEqual([]);
	});

	test('a custom event name (comma-separated, spaces and case ignored) starts a run', async () => {
		const harness = await trigger({
			events: ['payout.transfer.failed'],
			customEvents: ' virtualcard.card.terminated ,  Payout.Transfer.Reversed,,',
		});
		expect((await postSigned(harness, payoutEvent({ event: 'payout.transfer.reversed', status: 'reversed' }))).status).toBe(200);
		expect((await postSigned(harness, payoutEvent({ event: 'virtualcard.card.terminated', id: 'card_1' }))).status).toBe(200);
		expect((await postSigned(harness, payoutEvent({ event: 'virtualcard.card.frozen', id: 'card_1' }))).json).toEqual(
			NOT_SELECTED,
		);
		expect(emitted(harness).map((item) => item.event)).toEqual(['payout.transfer.reversed', 'virtualcard.card.terminated']);
	});

	test('All Events (the default) starts a run for any event, listed or not', async () => {
		const harness = await trigger();
		await postSigned(harness, payoutEvent({ event: 'payout.transfer.success' }));
		await postSigned(harness, payoutEvent({ event: 'some.future.event' }));
		expect(emitted(harness).map((item) => item.event)).toEqual(['payout.transfer.success', 'some.future.event']);
	});

	test('the signature is checked before the filter: an unsigned unselected event is 401', async () => {
		const harness = await trigger({ events: ['payout.transfer.failed'] });
		expect((await harness.post(payoutEvent())).status).toBe(401);
	});
});

describe('de-duplication', () => {
	test('the same event, data.id and data.status again is answered 200 and starts nothing', async () => {
		const harness = await trigger();
		const first = await postSigned(harness, payoutEvent());
		const again = await postSigned(harness, payoutEvent());
		// Differently spaced bytes of the same event are the same event.
		const spaced = JSON.stringify(payoutEvent(), null, 2);
		const third = await harness.post(spaced, { [HEADER]: sign(spaced) });
		expect(first.json).toEqual({ message: 'Workflow was started' });
		expect([again.status, third.status]).toEqual([200, 200]);
		expect(again.json).toEqual(DUPLICATE);
		expect(third.json).toEqual(DUPLICATE);
		expect(harness.runs).toHaveLength(1);
	});

	test('the same id with a new status passes; so does another event name for the same id', async () => {
		const harness = await trigger();
		await postSigned(harness, payoutEvent({ event: 'beneficiary.status.changed', id: 'ben_1', status: 'PENDING' }));
		await postSigned(harness, payoutEvent({ event: 'beneficiary.status.changed', id: 'ben_1', status: 'SUCCESS' }));
		await postSigned(harness, payoutEvent({ event: 'beneficiary.status.changed', id: 'ben_1', status: 'SUCCESS' }));
		await postSigned(harness, payoutEvent({ event: 'payout.transfer.success', id: 'ben_1', status: 'SUCCESS' }));
		expect(emitted(harness).map((item) => [item.event, (item.data as { status: string }).status])).toEqual([
			['beneficiary.status.changed', 'PENDING'],
			['beneficiary.status.changed', 'SUCCESS'],
			['payout.transfer.success', 'SUCCESS'],
		]);
	});

	test('concurrent duplicate deliveries start one run', async () => {
		const harness = await trigger();
		const answers = await Promise.all(Array.from({ length: 5 }, async () => await postSigned(harness, payoutEvent())));
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
		expect(harness.runs).toHaveLength(1);
	});

	test('events without data.id are never treated as duplicates', async () => {
		const harness = await trigger();
		const event = { event: 'virtualcard.user.kyc.success', data: { customerEmail: 'a@example.com', status: 'success' } };
		await postSigned(harness, event);
		await postSigned(harness, event);
		expect(harness.runs).toHaveLength(2);
	});

	test('the window stays bounded at its size, dropping the oldest keys', async () => {
		const harness = await trigger({ options: { dedupeWindow: 3 } });
		for (const id of ['a', 'b', 'c', 'd']) await postSigned(harness, payoutEvent({ id }));
		expect(recentKeys(harness.staticData())).toEqual(
			['b', 'c', 'd'].map((id) => eventKey('payout.transfer.success', { id, status: 'success' })),
		);
		// 'a' fell out of the window: it runs again; 'd' is still remembered.
		expect((await postSigned(harness, payoutEvent({ id: 'd' }))).json).toEqual(DUPLICATE);
		expect((await postSigned(harness, payoutEvent({ id: 'a' }))).json).toEqual({ message: 'Workflow was started' });
		expect(recentKeys(harness.staticData())).toHaveLength(3);
		expect(harness.runs).toHaveLength(5);
	});

	test('the default window keeps the last 1,000 keys', async () => {
		expect(DEFAULT_DEDUPE_WINDOW).toBe(1000);
		const harness = await trigger();
		// Fill the stored window as n8n would have persisted it, then deliver one more event.
		const staticData = harness.staticData();
		staticData.recentEventKeys = Array.from({ length: 1000 }, (_, i) =>
			eventKey('payout.transfer.success', { id: `old_${i}`, status: 'success' }),
		);
		await postSigned(harness, payoutEvent({ id: 'new' }));
		const keys = recentKeys(staticData);
		expect(keys).toHaveLength(1000);
		expect(keys[0]).toBe(eventKey('payout.transfer.success', { id: 'old_1', status: 'success' }));
		expect(keys.at(-1)).toBe(eventKey('payout.transfer.success', { id: 'new', status: 'success' }));
		expect((await postSigned(harness, payoutEvent({ id: 'old_0' }))).json).toEqual({ message: 'Workflow was started' });
		expect((await postSigned(harness, payoutEvent({ id: 'old_5' }))).json).toEqual(DUPLICATE);
	});

	test('a window of 0 turns de-duplication off', async () => {
		const harness = await trigger({ options: { dedupeWindow: 0 } });
		await postSigned(harness, payoutEvent());
		await postSigned(harness, payoutEvent());
		expect(harness.runs).toHaveLength(2);
		expect(recentKeys(harness.staticData())).toEqual([]);
	});

	test('the keys live in the workflow static data of the node, marked as changed for n8n to save', async () => {
		const harness = await trigger();
		await postSigned(harness, payoutEvent());
		expect(harness.workflow.staticData.__dataChanged).toBe(true);
		expect(harness.workflow.staticData['node:Wallet Payments Trigger']).toEqual({
			recentEventKeys: [eventKey('payout.transfer.success', { id: 'tx_001', status: 'success' })],
		});
	});
});

describe('the output item', () => {
	test('is { event, data } by default, one item per request', async () => {
		const harness = await trigger();
		await postSigned(harness, payoutEvent());
		expect(harness.runs).toEqual([[[{ json: payoutEvent() }]]]);
	});

	test('Include Headers adds the request headers without the signature header', async () => {
		const harness = await trigger({ options: { includeHeaders: true } });
		const raw = JSON.stringify(payoutEvent());
		await harness.post(raw, { [HEADER]: sign(raw), 'x-request-id': 'req-42' });
		const [item] = emitted(harness);
		expect(item.event).toBe('payout.transfer.success');
		expect(item.data).toEqual(payoutEvent().data);
		const headers = item.headers as Record<string, string>;
		expect(headers['x-request-id']).toBe('req-42');
		expect(headers['content-type']).toBe('application/json');
		expect(Object.keys(headers)).not.toContain(HEADER);
		expect(JSON.stringify(item)).not.toContain(sign(raw));
	});

	test('Include Headers drops a custom signature header too, whatever its case', async () => {
		const harness = await trigger({ signatureHeader: 'X-Provider-Signature', options: { includeHeaders: true } });
		const raw = JSON.stringify(payoutEvent());
		await harness.post(raw, { 'X-Provider-Signature': sign(raw) });
		expect(Object.keys(emitted(harness)[0].headers as object)).not.toContain('x-provider-signature');
	});
});
