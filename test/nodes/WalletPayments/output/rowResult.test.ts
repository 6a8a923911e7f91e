/**
 * A row's result (issue #56, point 2): with Include Input Fields each output item is a line of a
 * reconciliation file, one per input row, whatever became of it; in an approved run a row the
 * preview showed refused stops nothing. Over real HTTP against the sandbox.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { rowResult } from '../../../../nodes/WalletPayments/output/rowResult';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, payoutToSaved } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

const PAYOUT_PATH = '/api/v2/wallets/payout/initialize';
const posts = () => fixture.apiRequests().filter((r) => r.method === 'POST' && r.path.includes('/payout/'));

test('each kind of row has its result, and a reason where there is one', () => {
	expect(rowResult({ settled: true, finalStatus: 'success' })).toEqual({ result: 'paid' });
	expect(rowResult({ settled: true, finalStatus: 'failed', failedReason: 'Account closed' })).toEqual({ result: 'failed', reason: 'Account closed' });
	expect(rowResult({ settled: true, finalStatus: 'reversed' })).toEqual({ result: 'failed', reason: 'reversed' });
	expect(rowResult({ settled: false, waitError: 'not final after 300 s' })).toEqual({ result: 'sent', reason: 'not final after 300 s' });
	expect(rowResult({ id: 't1', status: 'processing' })).toEqual({ result: 'sent' });
	expect(rowResult({ alreadySubmitted: true, outcome: 'accepted', sentOn: '2026-11-01' })).toEqual({ result: 'already submitted' });
	expect(rowResult({ alreadySubmitted: true, outcome: 'unknown', message: 'check it' })).toEqual({ result: 'unknown', reason: 'check it' });
	expect(rowResult({ error: 'Amount is bad (item 1)' })).toEqual({ result: 'refused', reason: 'Amount is bad (item 1)' });
	expect(rowResult({ error: 'Bad request [HTTP 400]' }, 'refused')).toEqual({ result: 'refused', reason: 'Bad request [HTTP 400]' });
	expect(rowResult({ error: 'The service did not answer in time' }, 'unknown')).toEqual({ result: 'unknown', reason: 'The service did not answer in time' });
	expect(rowResult({ error: 'Invalid account number [HTTP 400]' }, 'declined')).toEqual({ result: 'failed', reason: 'Invalid account number [HTTP 400]' });
});

describe('an approved run with a refused row, Include Input Fields on', () => {
	const rows = [
		{ invoice: 'INV-31', payee: 'Ann', amount: '100' },
		{ invoice: 'INV-32', payee: 'Bo', amount: 'ten' },
		{ invoice: 'INV-33', payee: 'Cy', amount: '250' },
	];
	const pay = (beneficiaryId: string, extra: INodeParameters): INodeParameters =>
		payoutToSaved(beneficiaryId, { description: '={{ $json.invoice }}', duplicateProtection: { idempotencyKey: '={{ $json.invoice }}' }, includeInputFields: true, ...extra });
	const fingerprintOf = async (beneficiaryId: string, items: IDataObject[]) =>
		(await fixture.run(pay(beneficiaryId, { previewOnly: true }), { items })).items.at(-1)!.json.fingerprint as string;

	test('the others are sent; every row comes out as a line with its own columns, its result and its key', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const approvedFingerprint = await fingerprintOf(beneficiary.id as string, rows);
		const paid = await fixture.run(pay(beneficiary.id as string, { approvedFingerprint }), { items: rows });
		expect(paid.error).toBeUndefined();
		expect(posts()).toHaveLength(2);
		expect(paid.items.map((i) => [i.json.invoice, i.json.payee, i.json.result, i.json.idempotencyKey])).toEqual([
			['INV-31', 'Ann', 'sent', 'INV-31'],
			['INV-32', 'Bo', 'refused', undefined],
			['INV-33', 'Cy', 'sent', 'INV-33'],
		]);
		expect(paid.items[1].json.reason).toBe('Invalid "Amount (Major Units)": must be a number, but the value is the text "ten" (item 1)');
		expect(paid.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);

		// Run again: the sent rows are already submitted (with their day), the refused one refused again.
		const again = await fixture.run(pay(beneficiary.id as string, { approvedFingerprint }), { items: rows });
		expect(again.items.map((i) => [i.json.result, i.json.sentOn !== undefined])).toEqual([
			['already submitted', true],
			['refused', false],
			['already submitted', true],
		]);
		expect(posts()).toHaveLength(2);
	});

	test('a row refused in the preview and fixed before the run is not what was approved: nothing sent', async () => {
		const beneficiary = await createBeneficiary(fixture, { customerEmail: 'fixed@example.com' });
		const approvedFingerprint = await fingerprintOf(beneficiary.id as string, rows);
		const fixed = rows.map((row) => (row.invoice === 'INV-32' ? { ...row, amount: '10' } : row));
		const refused = await fixture.run(pay(beneficiary.id as string, { approvedFingerprint }), { items: fixed });
		expect(refused.error?.message).toContain('Nothing was sent: these rows are not the approved ones');
		expect(posts()).toHaveLength(0);
	});

	test('a row the service declines at sending comes out failed with its reason, and the rows after it are paid', async () => {
		const beneficiary = await createBeneficiary(fixture, { customerEmail: 'declined@example.com' });
		const valid = rows.map((row) => ({ ...row, amount: '10', invoice: `${row.invoice}-D` }));
		const approvedFingerprint = await fingerprintOf(beneficiary.id as string, valid);
		fixture.sandbox.injectFailure({ method: 'POST', path: PAYOUT_PATH, status: 400, skip: 1, body: { status: false, message: 'Invalid account number' } });
		const paid = await fixture.run(pay(beneficiary.id as string, { approvedFingerprint, batching: { itemsPerBatch: 1 } }), { items: valid });
		expect(paid.error).toBeUndefined();
		expect(posts()).toHaveLength(3);
		expect(paid.items.map((i) => [i.json.invoice, i.json.result, i.json.reason])).toEqual([
			['INV-31-D', 'sent', undefined],
			['INV-32-D', 'failed', 'Invalid account number [HTTP 400]'],
			['INV-33-D', 'sent', undefined],
		]);
		// Its key was let go: run again (the account fixed at the service), only that row is sent.
		const again = await fixture.run(pay(beneficiary.id as string, { approvedFingerprint }), { items: valid });
		expect(again.items.map((i) => i.json.result)).toEqual(['already submitted', 'sent', 'already submitted']);
		expect(posts()).toHaveLength(4);
	});

	test('a refusal about the whole run (the credential, the rate) still stops it: nothing new starts', async () => {
		const beneficiary = await createBeneficiary(fixture, { customerEmail: 'rate@example.com' });
		const valid = rows.map((row) => ({ ...row, amount: '10', invoice: `${row.invoice}-R` }));
		const approvedFingerprint = await fingerprintOf(beneficiary.id as string, valid);
		fixture.sandbox.injectFailure({ method: 'POST', path: PAYOUT_PATH, status: 429, skip: 1, headers: { 'Retry-After': '30' } });
		const stopped = await fixture.run(pay(beneficiary.id as string, { approvedFingerprint, batching: { itemsPerBatch: 1 } }), { items: valid });
		expect(stopped.error?.message).toContain('[HTTP 429]');
		expect(posts()).toHaveLength(2);
	});

	test('without an approval a refused row still stops the run before anything is sent', async () => {
		const beneficiary = await createBeneficiary(fixture, { customerEmail: 'stop@example.com' });
		const stopped = await fixture.run(pay(beneficiary.id as string, {}), { items: rows });
		expect(stopped.error?.message).toBe('Invalid "Amount (Major Units)": must be a number, but the value is the text "ten" (item 1)');
		expect(posts()).toHaveLength(0);
	});
});

test('already submitted in a run n8n saved: the payout ID the node kept, and with Wait for Final Status its final status as the service knows it', async () => {
	const beneficiary = await createBeneficiary(fixture, { customerEmail: 'kept@example.com' });
	fixture.sandbox.configure({ settlement: { delayMs: 50, rules: [{ beneficiaryId: String(beneficiary.id), outcome: 'failed', reason: 'Account closed' }] } });
	try {
		const staticData: IDataObject = {};
		const rows = [{ invoice: 'INV-41', payee: 'Di', amount: '100' }];
		const parameters = payoutToSaved(String(beneficiary.id), {
			description: '={{ $json.invoice }}',
			duplicateProtection: { idempotencyKey: '={{ $json.invoice }}' },
			includeInputFields: true,
			waitForFinalStatus: true,
			waitOptions: { firstCheckSeconds: 0.1, longestIntervalSeconds: 0.2 },
		});
		const first = await fixture.run(parameters, { items: rows, staticData, mode: 'trigger' });
		expect([first.items[0].json.result, first.items[0].json.reason]).toEqual(['failed', 'Account closed']);
		const again = await fixture.run(parameters, { items: rows, staticData, mode: 'trigger' });
		expect(posts()).toHaveLength(1);
		expect(again.items[0].json).toMatchObject({ result: 'already submitted', id: first.items[0].json.id, detailsKept: true, finalStatus: 'failed', failedReason: 'Account closed' });
		// A run n8n did not save (from the editor): nothing kept, nothing made up.
		const fresh = await fixture.run(parameters, { items: rows });
		expect([fresh.items[0].json.result, fresh.items[0].json.id, fresh.items[0].json.detailsNote]).toEqual(['already submitted', undefined, undefined]);
	} finally {
		fixture.sandbox.configure({ settlement: { delayMs: null } });
	}
});
