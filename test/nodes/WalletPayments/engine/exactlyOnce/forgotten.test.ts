/**
 * A Retry of a run whose records n8n's store dropped (issue #64, point 1): the store trims a
 * node's row by count, oldest first, so after enough nights the records of an old run are gone
 * and its Retry would find its items new. Made to happen here: the row filled with a year's newer
 * records and its oldest dropped, as n8n's limit drops them; then the Retry, over real HTTP
 * against the sandbox.
 */
import type { INodeParameters } from 'n8n-workflow';

import { KEYS_REMEMBERED } from '../../../../../nodes/shared/ledger';
import { dropOldest, processedValues, rewriteRow } from '../../../../helpers/n8n/deduplication';
import { useSandbox } from '../../../../helpers/sandbox/sandbox';
import { createBeneficiary, payoutToSaved } from '../../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();
const [WORKFLOW, NODE] = ['test-workflow', 'wallet-node'];
const posts = () => fixture.apiRequests().filter((r) => r.method === 'POST' && r.path.includes('/payout/')).length;
const rows = [
	{ invoice: 'INV-71', amount: '10' },
	{ invoice: 'INV-72', amount: '20' },
];
const TRIGGER = { body: 'payroll 2025-11' };
const today = new Date().toISOString().slice(0, 10);

/** A year of nights after the first run: the row filled with newer records (one day mark among them), the first run's dropped. */
function aYearLater(fill: number) {
	const firstRun = processedValues(WORKFLOW, NODE).length;
	rewriteRow(WORKFLOW, NODE, (row) => [...row, `n8n-day:${today}`, ...Array.from({ length: fill }, (_, n) => `later-${n}`)]);
	dropOldest(WORKFLOW, NODE, firstRun);
}

let pay: INodeParameters;
beforeEach(async () => {
	const beneficiary = await createBeneficiary(fixture);
	// No key of the user's: each item's key comes from what started the run, as a Retry repeats it.
	pay = payoutToSaved(String(beneficiary.id), { description: '={{ $json.invoice }}' });
});

test('the row full and the run’s records gone: the Retry sends nothing and names the items and the day records are kept from; Allow Resend sends them', async () => {
	expect((await fixture.run(pay, { items: rows, trigger: TRIGGER })).error).toBeUndefined();
	expect(posts()).toBe(2);
	aYearLater(Math.ceil(0.95 * KEYS_REMEMBERED));

	const retry = await fixture.run(pay, { items: rows, trigger: TRIGGER, mode: 'retry' });
	expect(retry.error?.message).toBe(
		`Nothing was sent: this Retry repeats a run whose records n8n's store no longer keeps (it keeps them from ${today}, UTC, on), so it cannot tell which of items 0–1 that run sent`,
	);
	expect(retry.error?.description).toContain('Allow Resend');
	expect(posts()).toBe(2);

	// Checked, and sent on purpose.
	const resent = await fixture.run({ ...pay, duplicateProtection: { allowResend: true } }, { items: rows, trigger: TRIGGER, mode: 'retry' });
	expect(resent.error).toBeUndefined();
	expect(posts()).toBe(4);
});

test('a Retry whose run’s records are still there, in a full row: already submitted, nothing sent', async () => {
	await fixture.run(pay, { items: rows, trigger: TRIGGER });
	rewriteRow(WORKFLOW, NODE, (row) => [...Array.from({ length: Math.ceil(0.95 * KEYS_REMEMBERED) }, (_, n) => `older-${n}`), ...row]);
	const retry = await fixture.run(pay, { items: rows, trigger: TRIGGER, mode: 'retry' });
	expect(retry.items.map((item) => item.json.alreadySubmitted)).toEqual([true, true]);
	expect(posts()).toBe(2);
});

test('a Retry of a run that never reached this node, the row not full: sent, as nothing was dropped', async () => {
	rewriteRow(WORKFLOW, NODE, () => [`n8n-day:${today}`, ...Array.from({ length: 1000 }, (_, n) => `other-${n}`)]);
	const retry = await fixture.run(pay, { items: rows, trigger: TRIGGER, mode: 'retry' });
	expect(retry.error).toBeUndefined();
	expect(posts()).toBe(2);
});
