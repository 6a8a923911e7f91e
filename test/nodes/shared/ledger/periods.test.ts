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

const REPLACED = 'Nothing was sent: a node named Wallet Payments paid rows in period 2026-11 before, and this one finds none of items 0–1 sent: it replaced that node, and n8n keeps records per node';

test('a new period, and new rows in a paid period (paid off-cycle, a daily billing step): sent as always', async () => {
	await fixture.run(pay, { items: [row('EMP-1')], trigger: TRIGGER });
	const next = await fixture.run(pay, { items: [row('EMP-1', '2026-12'), row('EMP-2', '2026-12')], trigger: TRIGGER });
	expect(next.error).toBeUndefined();
	const offCycle = await fixture.run(pay, { items: [row('EMP-3'), row('EMP-4')], trigger: TRIGGER });
	expect(offCycle.error).toBeUndefined();
	const mixed = await fixture.run(pay, { items: [row('EMP-1'), row('EMP-5')], trigger: TRIGGER });
	expect(sentFlags(mixed.items)).toEqual([true, false]);
	expect(paid()).toBe(6);
});

test('the node replaced by one of the same name (its records gone with the old ID): the same rows refused before anything is sent; Allow Resend sends them', async () => {
	await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER });
	const replaced = await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER, nodeId: 'wallet-node-2' });
	expect(replaced.error?.message).toBe(REPLACED);
	expect(replaced.error?.description).toContain('Allow Resend');
	expect(paid()).toBe(2);
	const resent = await fixture.run({ ...pay, duplicateProtection: { ...(pay.duplicateProtection as object), allowResend: true } }, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER, nodeId: 'wallet-node-2' });
	expect(resent.error).toBeUndefined();
	expect(paid()).toBe(4);
	// Its own now: the next run of the period finds its rows, and a new row is sent.
	const again = await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2'), row('EMP-3')], trigger: TRIGGER, nodeId: 'wallet-node-2' });
	expect(again.error).toBeUndefined();
	expect(sentFlags(again.items)).toEqual([true, true, false]);
	expect(paid()).toBe(5);
});

test('the node’s oldest records of a period dropped by the store (a year of nights): the rows it finds new are refused, the date named', async () => {
	await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER });
	const today = new Date().toISOString().slice(0, 10);
	rewriteRow('test-workflow', 'wallet-node', () => [`n8n-day:${today}`, ...Array.from({ length: 1000 }, (_, n) => `later-${n}`)]);
	const again = await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER });
	expect(again.error?.message).toBe(`Nothing was sent: n8n's store no longer keeps this node's oldest records of period 2026-11 (it keeps them from ${today}, UTC, on), so it cannot tell whether items 0–1 were sent`);
	expect(paid()).toBe(2);
});

test('records still there (the period’s anchor kept): a full row is no reason to refuse', async () => {
	await fixture.run(pay, { items: [row('EMP-1')], trigger: TRIGGER });
	rewriteRow('test-workflow', 'wallet-node', (values) => [...Array.from({ length: 1000 }, (_, n) => `older-${n}`), ...values]);
	const more = await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER });
	expect(sentFlags(more.items)).toEqual([true, false]);
});

test('a run refused by the service notes no period: a replacing node then sends the rows', async () => {
	fixture.sandbox.injectFailure({ method: 'POST', path: '/api/v2/wallets/payout/initialize', status: 400, times: 2, body: { status: false, message: 'Insufficient balance' } });
	await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER, continueOnFail: true });
	expect(paid()).toBe(0);
	// Noted, the period would make a replacing node's first run refused.
	const fixed = await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER, nodeId: 'wallet-node-2' });
	expect(fixed.error).toBeUndefined();
	expect(paid()).toBe(2);
	// The period is noted apart from the node's records (in the workflow's row); its anchor is in the node's.
	expect(processedValues('test-workflow', 'wallet-node').filter((value) => value.startsWith('n8n-period'))).toEqual(['n8n-period-start:2026-11']);
});

test('the Preview says so before anyone approves: each row refused with the reason', async () => {
	await fixture.run(pay, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER });
	const preview = await fixture.run({ ...pay, previewOnly: true }, { items: [row('EMP-1'), row('EMP-2')], trigger: TRIGGER, nodeId: 'wallet-node-2' });
	expect(preview.items.slice(0, 2).map((item) => [item.json.decision, item.json.reason])).toEqual([
		['refused', REPLACED],
		['refused', REPLACED],
	]);
	expect(paid()).toBe(2);
});
