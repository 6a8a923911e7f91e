/**
 * Event filtering, de-duplication and the output item, over real HTTP through n8n-core's
 * WebhookContext.
 */
import { DEFAULT_DEDUPE_WINDOW } from '../../../nodes/WalletPaymentsTrigger/dedupe';
import { WALLET_EVENTS } from '../../../nodes/WalletPaymentsTrigger/events';
import { WalletPaymentsTrigger } from '../../../nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node';
import type { TriggerHarness } from '../../helpers/trigger/triggerHarness';
import { closeHarnesses, emitted, expectNothingSecret, HEADER, outputFor, payoutEvent, postSigned, sign, startTrigger } from '../../helpers/trigger/fixtures';

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
		expect(emitted(harness)).toEqual([outputFor(payoutEvent({ event: 'payout.transfer.failed', status: 'failed' }))]);
	});

	test('an event not selected is answered 200 and starts nothing', async () => {
		const harness = await trigger({ events: ['payout.transfer.failed'] });
		const answer = await postSigned(harness, payoutEvent({ event: 'payout.transfer.success' }));
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual(NOT_SELECTED);
		expect(harness.runs).toHaveLength(0);
		// Ignored events leave no de-duplication key behind: selected later, the event runs.
		const selecting = await trigger({ events: ['payout.transfer.failed'] });
		await postSigned(selecting, payoutEvent({ event: 'payout.transfer.success' }));
		expect(selecting.runs).toHaveLength(0);
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

	test('a delivery whose run n8n could not start (500 after the trigger ran) does not hold the event: the next delivery starts its run', async () => {
		const harness = await trigger();
		harness.failNext([500], 'notStarted');
		const first = await postSigned(harness, payoutEvent());
		expect(first.status).toBe(500);
		expect(harness.runs).toHaveLength(0);
		const second = await postSigned(harness, payoutEvent());
		expect(second.status).toBe(200);
		expect(harness.runs).toHaveLength(1);
		// Now the run started: a third delivery is a duplicate.
		expect((await postSigned(harness, payoutEvent())).json).toEqual(DUPLICATE);
		expect(harness.runs).toHaveLength(1);
	});

	test('copies arriving while a delivery waits for its run to start: when it does not start, one copy starts it; one run in all', async () => {
		const harness = await trigger();
		harness.failNext([500], 'notStarted');
		const answers = await Promise.all(Array.from({ length: 5 }, async () => await postSigned(harness, payoutEvent())));
		expect(harness.runs).toHaveLength(1);
		// Every copy answered 200 is either the run that started or a duplicate of it.
		expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
		expect(answers.filter((answer) => answer.status === 500)).toHaveLength(1);
	});

	test('events without data.id are never treated as duplicates', async () => {
		const harness = await trigger();
		const event = { event: 'virtualcard.user.kyc.success', data: { customerEmail: 'a@example.com', status: 'success' } };
		await postSigned(harness, event);
		await postSigned(harness, event);
		expect(harness.runs).toHaveLength(2);
	});

	test('a second, third… distinct event repeated is a duplicate too (not only the first the workflow saw)', async () => {
		const harness = await trigger();
		for (const id of ['tx_a', 'tx_b', 'tx_c']) {
			for (let copy = 0; copy < 5; copy++) await postSigned(harness, payoutEvent({ id }));
		}
		expect(emitted(harness).map((item) => (item.data as { id: string }).id)).toEqual(['tx_a', 'tx_b', 'tx_c']);
	});

	test('20 events × 5 copies sent at the same moment start 20 runs', async () => {
		const harness = await trigger();
		const deliveries = Array.from({ length: 20 }, (_, n) => Array.from({ length: 5 }, () => payoutEvent({ id: `tx_${n}` }))).flat();
		const answers = await Promise.all(deliveries.map(async (event) => await postSigned(harness, event)));
		expect(answers.every((answer) => answer.status === 200)).toBe(true);
		expect(harness.runs).toHaveLength(20);
		expect(new Set(emitted(harness).map((item) => item.eventKey)).size).toBe(20);
	});

	test('the window stays bounded at its size, dropping the oldest keys', async () => {
		const harness = await trigger({ options: { dedupeWindow: 3 } });
		for (const id of ['a', 'b', 'c', 'd']) await postSigned(harness, payoutEvent({ id }));
		// 'a' fell out of the window: it runs again; 'd' is still remembered.
		expect((await postSigned(harness, payoutEvent({ id: 'd' }))).json).toEqual(DUPLICATE);
		expect((await postSigned(harness, payoutEvent({ id: 'a' }))).json).toEqual({ message: 'Workflow was started' });
		// Recording 'a' again dropped 'b'.
		expect((await postSigned(harness, payoutEvent({ id: 'b' }))).json).toEqual({ message: 'Workflow was started' });
		expect((await postSigned(harness, payoutEvent({ id: 'c' }))).json).toEqual({ message: 'Workflow was started' });
		expect(harness.runs).toHaveLength(7);
	});

	test('the default window is 1,000 events', async () => {
		expect(DEFAULT_DEDUPE_WINDOW).toBe(1000);
		const harness = await trigger();
		for (let n = 0; n <= 1000; n++) await postSigned(harness, payoutEvent({ id: `old_${n}` }));
		expect((await postSigned(harness, payoutEvent({ id: 'old_5' }))).json).toEqual(DUPLICATE);
		expect((await postSigned(harness, payoutEvent({ id: 'old_0' }))).json).toEqual({ message: 'Workflow was started' });
	});

	test('a window of 0 turns de-duplication off', async () => {
		const harness = await trigger({ options: { dedupeWindow: 0 } });
		await postSigned(harness, payoutEvent());
		await postSigned(harness, payoutEvent());
		expect(harness.runs).toHaveLength(2);
	});

	test('two triggers (workflows) keep their own keys: an event repeated to another workflow runs there', async () => {
		const first = await trigger();
		const second = await trigger();
		await postSigned(first, payoutEvent());
		await postSigned(second, payoutEvent());
		expect([first.runs.length, second.runs.length]).toEqual([1, 1]);
	});

	test('nothing is written to the workflow static data (n8n does not save it for a webhook that starts a run)', async () => {
		const harness = await trigger();
		await postSigned(harness, payoutEvent());
		expect(harness.workflow.staticData.__dataChanged).toBe(false);
	});
});

describe('the output item', () => {
	test('is { event, data } by default, one item per request', async () => {
		const harness = await trigger();
		await postSigned(harness, payoutEvent());
		expect(harness.runs).toEqual([[[{ json: outputFor(payoutEvent()) }]]]);
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
