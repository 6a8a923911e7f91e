/**
 * Places (issue #64, point 3): a Retry of a failed execution never pays again a row that execution
 * sent, whatever was edited since. Without a key of the user's, an item's key is made from its
 * request, so an edit of the description or the amount makes new keys; its place (what started the
 * run, its position, the item it was given) stays, and a Retry gives the node the same items.
 * Over real HTTP against the sandbox, with the store as n8n keeps it.
 */
import type { INodeParameters } from 'n8n-workflow';

import { processedValues } from '../../../helpers/n8n/deduplication';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, payoutToSaved } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();
const PAYOUT_PATH = '/api/v2/wallets/payout/initialize';
const posts = () => fixture.apiRequests().filter((r) => r.method === 'POST' && r.path === PAYOUT_PATH);
const paid = () => fixture.sandbox.state.transactions.filter((t) => t.kind === 'payout').length;
const rows = [
	{ invoice: 'INV-81', amount: '10' },
	{ invoice: 'INV-82', amount: '20' },
	{ invoice: 'INV-83', amount: '30' },
	{ invoice: 'INV-84', amount: '40' },
];
const TRIGGER = { body: 'payouts 2026-12-06' };
// One at a time, so that the sandbox's failures land on the rows named.
const ONE_AT_A_TIME = { batching: { itemsPerBatch: 1 } };

let pay: INodeParameters;
beforeEach(async () => {
	const beneficiary = await createBeneficiary(fixture);
	pay = payoutToSaved(String(beneficiary.id), { description: '={{ $json.invoice }}', ...ONE_AT_A_TIME });
});

/** The first run: row 2 carried out but answered 503 (unknown), row 3 refused (400), the others accepted. */
async function firstRun() {
	fixture.sandbox.injectFailure({ method: 'POST', path: PAYOUT_PATH, status: 503, phase: 'after', skip: 1 });
	fixture.sandbox.injectFailure({ method: 'POST', path: PAYOUT_PATH, status: 400, skip: 2, body: { status: false, message: 'Insufficient balance' } });
	const result = await fixture.run(pay, { items: rows, trigger: TRIGGER, continueOnFail: true });
	expect(result.items.map((item) => (item.json.error === undefined ? 'sent' : 'failed'))).toEqual(['sent', 'failed', 'failed', 'sent']);
	expect(paid()).toBe(3); // rows 1, 2 (its answer lost) and 4
	fixture.sandbox.clearFailures();
}

test('a Retry after the description was edited: the rows that execution sent are not sent again (accepted, or unknown where its answer was lost); the refused row is sent', async () => {
	await firstRun();
	const edited = { ...pay, description: '={{ "Invoice " + $json.invoice }}' };
	const retry = await fixture.run(edited, { items: rows, trigger: TRIGGER, mode: 'retry' });
	expect(retry.error).toBeUndefined();
	expect(retry.items.map((item) => [item.json.alreadySubmitted ?? false, item.json.outcome ?? 'sent'])).toEqual([
		[true, 'accepted'],
		[true, 'unknown'],
		[false, 'sent'],
		[true, 'accepted'],
	]);
	expect(paid()).toBe(4); // row 3 only: every row once
	expect(posts().at(-1)?.body).toMatchObject({ description: 'Invoice INV-83' });
});

test('the amount expression edited: not paid again; Allow Resend sends them on purpose', async () => {
	await firstRun();
	const doubled = { ...pay, amount: '={{ $json.amount * 2 }}' };
	const retry = await fixture.run(doubled, { items: rows, trigger: TRIGGER, mode: 'retry' });
	expect(retry.items.map((item) => item.json.alreadySubmitted ?? false)).toEqual([true, true, false, true]);
	expect(paid()).toBe(4);
	const resent = await fixture.run({ ...doubled, duplicateProtection: { allowResend: true } }, { items: rows, trigger: TRIGGER, mode: 'retry' });
	expect(resent.items.map((item) => item.json.alreadySubmitted ?? false)).toEqual([false, false, false, false]);
	expect(paid()).toBe(8);
});

test('other rows, or another start, are not held back by a place: a changed row and a new trigger are sent', async () => {
	await fixture.run(pay, { items: rows.slice(0, 2), trigger: TRIGGER });
	expect(paid()).toBe(2);
	// The same start, the second row changed (a new input at that position): sent.
	const changed = await fixture.run(pay, { items: [rows[0], { ...rows[1], amount: '25' }], trigger: TRIGGER });
	expect(changed.items.map((item) => item.json.alreadySubmitted ?? false)).toEqual([true, false]);
	// Another start (the next day's schedule): both sent.
	const nextDay = await fixture.run(pay, { items: rows.slice(0, 2), trigger: { body: 'payouts 2026-12-07' } });
	expect(nextDay.items.map((item) => item.json.alreadySubmitted ?? false)).toEqual([false, false]);
	expect(paid()).toBe(5);
});

test('a row refused by the service leaves no place: fixed and run again, it is sent', async () => {
	fixture.sandbox.injectFailure({ method: 'POST', path: PAYOUT_PATH, status: 400, body: { status: false, message: 'Insufficient balance' } });
	await fixture.run(pay, { items: rows.slice(0, 1), trigger: TRIGGER, continueOnFail: true });
	expect(paid()).toBe(0);
	expect(processedValues('test-workflow', 'wallet-node').filter((value) => value.startsWith('n8n-place:'))).toEqual([]);
	const again = await fixture.run({ ...pay, description: 'fixed' }, { items: rows.slice(0, 1), trigger: TRIGGER });
	expect(again.items[0].json.alreadySubmitted).toBeUndefined();
	expect(paid()).toBe(1);
});

test('a user key (Row ID and Period) needs no place: none is written', async () => {
	const keyed = { ...pay, duplicateProtection: { rowId: '={{ $json.invoice }}', period: '2026-12' } };
	await fixture.run(keyed, { items: rows.slice(0, 2), trigger: TRIGGER });
	expect(processedValues('test-workflow', 'wallet-node').filter((value) => value.startsWith('n8n-place:'))).toEqual([]);
});

test('only a Retry looks at places: run again after an edit (not a Retry), the new requests are sent', async () => {
	await fixture.run(pay, { items: rows.slice(0, 2), trigger: TRIGGER });
	const edited = await fixture.run({ ...pay, description: 'Another purpose' }, { items: rows.slice(0, 2), trigger: TRIGGER });
	expect(edited.items.map((item) => item.json.alreadySubmitted ?? false)).toEqual([false, false]);
	expect(paid()).toBe(4);
});
