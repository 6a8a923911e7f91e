/**
 * Duplicate Protection → Period and Row ID (issue #46, point 2): a monthly payroll pays each row
 * once per period, the period taken from the data, with no key expression to write. Resend Only
 * These Keys (point 4): exactly the chosen rows are sent again, once each (issue #56, point 3:
 * however often the workflow runs afterwards). Over real HTTP against the sandbox.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { periodKey, resendChain, resendKeysOf } from '../../../../nodes/WalletPayments/controls/idempotency';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, hintsOf, payoutToSaved } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

const posts = () => fixture.apiRequests().filter((r) => r.method === 'POST' && r.path.includes('/payout/'));

const payroll = (beneficiaryId: string, protection: INodeParameters = { rowId: '={{ $json.employeeId }}', period: '={{ $json.period }}' }): INodeParameters =>
	payoutToSaved(beneficiaryId, { description: 'Payroll', duplicateProtection: protection });

const rows = (period: string, amounts = ['100', '250']) => amounts.map((amount, i) => ({ employeeId: `EMP-${i + 1}`, amount, period }));
const alreadySubmitted = (items: Array<{ json: IDataObject }>) => items.map((i) => i.json.alreadySubmitted === true);

test('the key made from Row ID and Period', () => {
	expect(periodKey('EMP-1', '2026-11')).toBe('period:2026-11|row:EMP-1');
	expect(periodKey(' EMP-1 ', '')).toBe('row:EMP-1');
	expect(periodKey('', '')).toBeUndefined();
	expect(() => periodKey('', '2026-11')).toThrow('Row ID');
});

test('each row once per period: twice in November pays once, a changed amount is not paid again and says when it was; December pays everyone; November run again after December pays nobody', async () => {
	const beneficiary = await createBeneficiary(fixture);
	const parameters = payroll(beneficiary.id as string);
	const november = await fixture.run(parameters, { items: rows('2026-11') });
	expect(november.error).toBeUndefined();
	expect(posts()).toHaveLength(2);

	const again = await fixture.run(parameters, { items: rows('2026-11', ['100', '300']) });
	expect(alreadySubmitted(again.items)).toEqual([true, true]);
	expect(again.items[1].json.sentOn).toBe(new Date().toISOString().slice(0, 10));
	expect(posts()).toHaveLength(2);

	const december = await fixture.run(parameters, { items: rows('2026-12') });
	expect(alreadySubmitted(december.items)).toEqual([false, false]);
	expect(posts()).toHaveLength(4);

	const novemberRetried = await fixture.run(parameters, { items: rows('2026-11') });
	expect(alreadySubmitted(novemberRetried.items)).toEqual([true, true]);
	expect(posts()).toHaveLength(4);
});

test('Period without Row ID: nothing sent, the error names the field; a Period from the clock warns', async () => {
	const beneficiary = await createBeneficiary(fixture);
	const refused = await fixture.run(payroll(beneficiary.id as string, { period: '={{ $json.period }}' }), { items: rows('2026-11') });
	expect(refused.error?.message).toContain('Invalid "Row ID"');
	expect(posts()).toHaveLength(0);
	const clock = await fixture.run(payroll(beneficiary.id as string, { rowId: '={{ $json.employeeId }}', period: "={{ $now.toFormat('yyyy-MM') }}" }), { items: rows('2026-11') });
	expect(clock.error).toBeUndefined();
	expect(hintsOf(clock.run).map((hint) => hint.message)).toContainEqual(expect.stringContaining('The Period uses $now'));
});

test('Resend Only These Keys: exactly the listed rows are sent again, every other row stays protected', async () => {
	expect([...resendKeysOf(' period:2026-11|row:EMP-2 , ,x ')]).toEqual(['period:2026-11|row:EMP-2', 'x']);
	const beneficiary = await createBeneficiary(fixture);
	const parameters = payroll(beneficiary.id as string);
	const items = rows('2026-11', ['100', '250', '300']);
	await fixture.run(parameters, { items });
	expect(posts()).toHaveLength(3);
	const chosen = await fixture.run(payroll(beneficiary.id as string, { rowId: '={{ $json.employeeId }}', period: '={{ $json.period }}', resendKeys: 'period:2026-11|row:EMP-2' }), { items });
	expect(chosen.error).toBeUndefined();
	expect(alreadySubmitted(chosen.items)).toEqual([true, false, true]);
	expect(posts()).toHaveLength(4);
	expect((posts()[3].body as IDataObject).amount).toBe(25000);
});

test('a resend is sent once: runs after it, with the key still listed, send nothing; listing the resend\'s key sends a second one', async () => {
	const K = 'period:2026-11|row:EMP-2';
	expect(resendChain(K, new Set())).toEqual([K]);
	expect(resendChain(K, new Set([K, 'period:2026-11|row:EMP-22']))).toEqual([K, `${K}|resend`]);
	expect(resendChain(K, new Set([`${K}|resend`]))).toEqual([K, `${K}|resend`, `${K}|resend|resend`]);
	expect(resendChain(K, new Set([`${K}|resendx`]))).toEqual([K]);
	const beneficiary = await createBeneficiary(fixture);
	const items = rows('2026-11', ['100', '250']);
	const listing = (resendKeys: string) => payroll(beneficiary.id as string, { rowId: '={{ $json.employeeId }}', period: '={{ $json.period }}', resendKeys });
	await fixture.run(payroll(beneficiary.id as string), { items });
	const resent = await fixture.run(listing(K), { items });
	expect(resent.items.map((i) => [i.json.alreadySubmitted === true, i.json.idempotencyKey ?? null])).toEqual([
		[true, 'period:2026-11|row:EMP-1'],
		[false, null],
	]);
	expect(posts()).toHaveLength(3);
	for (let run = 0; run < 2; run++) {
		const left = await fixture.run(listing(K), { items });
		expect(alreadySubmitted(left.items)).toEqual([true, true]);
		expect(left.items[1].json.idempotencyKey).toBe(`${K}|resend`);
	}
	const withoutList = await fixture.run(payroll(beneficiary.id as string), { items });
	expect(alreadySubmitted(withoutList.items)).toEqual([true, true]);
	expect(posts()).toHaveLength(3);
	const second = await fixture.run(listing(`${K}|resend`), { items });
	expect(alreadySubmitted(second.items)).toEqual([true, false]);
	expect((await fixture.run(listing(`${K}|resend`), { items })).items.map((i) => i.json.idempotencyKey)).toEqual(['period:2026-11|row:EMP-1', `${K}|resend|resend`]);
	expect(posts()).toHaveLength(4);
});

test('a listed key never sent is sent under its own key, so a run without the list does not send it again', async () => {
	const beneficiary = await createBeneficiary(fixture);
	const items = rows('2026-12', ['100']);
	const first = await fixture.run(payroll(beneficiary.id as string, { rowId: '={{ $json.employeeId }}', period: '={{ $json.period }}', resendKeys: 'period:2026-12|row:EMP-1' }), { items });
	expect(first.items[0].json.alreadySubmitted).toBeUndefined();
	const after = await fixture.run(payroll(beneficiary.id as string), { items });
	expect([after.items[0].json.alreadySubmitted, after.items[0].json.idempotencyKey]).toEqual([true, 'period:2026-12|row:EMP-1']);
	expect(posts()).toHaveLength(1);
});
