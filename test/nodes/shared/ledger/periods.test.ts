/**
 * The periods a node paid rows in (issue #64, points 1 and 3; nodes/shared/ledger/periods.ts): a
 * run of a Period the node paid rows in before, none of whose rows it finds sent, is refused
 * before anything is sent. Over real HTTP against the sandbox, with the store as n8n keeps it.
 */
import type { INodeParameters } from 'n8n-workflow';

import { processedValues, rewriteRow } from '../../../helpers/n8n/deduplication';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, payoutToSaved } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();
const paid = () => fixture.sandbox.state.transactions.filter((t) => t.kind === 'payout').length;
const row = (employee: string, period = '2026-11') => ({ employee, period, amount: '10' });
const TRIGGER = { body: 'payroll' };

let pay: INodeParameters;
beforeEach(async () => {
	const beneficiary = await createBeneficiary(fixture);
	pay = payoutToSaved(String(beneficiary.id), {
		description: '={{ $json.employee }}',
		duplicateProtection: { rowId: '={{ $json.employee }}', period: '={{ $json.period }}' },
	});
});

const sentFlags = (items: Array<{ json: Record<string, unknown> }>) => items.map((item) => item.json.alreadySubmitted ?? false);

test('the Row IDs changed in a period the node paid: refused before anything is sent, the period and items named; Allow Resend sends them', async () => {
	expect((await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER })).error).toBeUndefined();
	expect(paid()).toBe(2);
	const renamed = await fixture.run(pay, { items: [row('1'), row('2')], trigger: TRIGGER });
	expect(renamed.error?.message).toBe('Nothing was sent: this node paid rows in period 2026-11 before, but none of items 0–1');
	expect(renamed.error?.description).toContain('Allow Resend');
	expect(paid()).toBe(2);
	const resent = await fixture.run({ ...pay, duplicateProtection: { ...(pay.duplicateProtection as object), allowResend: true } }, { items: [row('1'), row('2')], trigger: TRIGGER });
	expect(resent.error).toBeUndefined();
	expect(paid()).toBe(4);
});

test('a new period, or a paid period with one row sent and a new one: sent as always', async () => {
	await fixture.run(pay, { items: [row('EMP-1')], trigger: TRIGGER });
	const next = await fixture.run(pay, { items: [row('EMP-1', '2026-12'), row('EMP-2', '2026-12')], trigger: TRIGGER });
	expect(next.error).toBeUndefined();
	const mixed = await fixture.run(pay, { items: [row('EMP-1'), row('EMP-3')], trigger: TRIGGER });
	expect(mixed.error).toBeUndefined();
	expect(sentFlags(mixed.items)).toEqual([true, false]);
	expect(paid()).toBe(4);
});

test('the node replaced by one of the same name (its records gone with the old ID): the same rows are refused, not paid again', async () => {
	await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER });
	const replaced = await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER, nodeId: 'wallet-node-2' });
	expect(replaced.error?.message).toBe('Nothing was sent: this node paid rows in period 2026-11 before, but none of items 0–1');
	expect(paid()).toBe(2);
});

test('the node’s records of a period dropped by the store (a year of nights): the period run again is refused, not paid again', async () => {
	await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER });
	rewriteRow('test-workflow', 'wallet-node', () => Array.from({ length: 1000 }, (_, n) => `later-${n}`));
	const again = await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER });
	expect(again.error?.message).toBe('Nothing was sent: this node paid rows in period 2026-11 before, but none of items 0–1');
	expect(paid()).toBe(2);
});

test('a run refused by the service notes no period: fixed, it is sent', async () => {
	fixture.sandbox.injectFailure({ method: 'POST', path: '/api/v2/wallets/payout/initialize', status: 400, times: 2, body: { status: false, message: 'Insufficient balance' } });
	await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER, continueOnFail: true });
	expect(paid()).toBe(0);
	const fixed = await fixture.run(pay, { items: [row('A-1'), row('A-2')], trigger: TRIGGER });
	expect(fixed.error).toBeUndefined();
	expect(paid()).toBe(2);
	// The period is kept apart from the node's records: in the workflow's row.
	expect(processedValues('test-workflow', 'wallet-node').some((value) => value.includes('n8n-period'))).toBe(false);
});

test('the Preview says so before anyone approves: each row refused with the reason', async () => {
	await fixture.run(pay, { items: [row('EMP-1')], trigger: TRIGGER });
	const preview = await fixture.run({ ...pay, previewOnly: true }, { items: [row('1'), row('2')], trigger: TRIGGER });
	expect(preview.items.slice(0, 2).map((item) => [item.json.decision, item.json.reason])).toEqual([
		['refused', 'Nothing was sent: this node paid rows in period 2026-11 before, but none of items 0–1'],
		['refused', 'Nothing was sent: this node paid rows in period 2026-11 before, but none of items 0–1'],
	]);
	expect(paid()).toBe(1);
});
