/**
 * What the node keeps of what it created (issue #57, point 2): a collection already submitted in
 * this period comes out with the same receiving account, amount and expiry as the first time, so an
 * e-mail after it never sends blanks; expired or not kept, the output says so. Over real HTTP
 * against the sandbox (receiving accounts that live 2 s).
 */
import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { keepRecord, keptRecord, MAX_KEPT } from '../../../../nodes/WalletPayments/engine/keptRecords';
import { useSandbox } from '../../../helpers/sandbox/sandbox';

const fixture = useSandbox({ collectionExpirySeconds: 2 });

const bill: INodeParameters = {
	resource: 'collection',
	operation: 'initialize',
	country: 'NG',
	currency: 'NGN',
	customerEmail: '={{ $json.email }}',
	amountUnit: 'major',
	amount: '={{ $json.amount }}',
	duplicateProtection: { period: '={{ $json.period }}', rowId: '={{ $json.customerId }}' },
};
const customers = (period: string) => [
	{ customerId: 'C-1', email: 'ann@example.com', amount: '2500', period },
	{ customerId: 'C-2', email: 'bo@example.com', amount: '4000.50', period },
];
const DETAILS = ['id', 'accountNumber', 'bankName', 'accountName', 'amount', 'centAmount', 'currency', 'expiryDate'];
const detailsOf = (json: IDataObject) => Object.fromEntries(DETAILS.map((field) => [field, json[field]]));
const posts = () => fixture.apiRequests().filter((r) => r.method === 'POST').length;

test('the same period again: nothing created, every customer with the same details as the first time', async () => {
	const staticData: IDataObject = {};
	const first = await fixture.run(bill, { items: customers('2026-11'), staticData, mode: 'trigger' });
	expect(first.error).toBeUndefined();
	expect(first.items.map((i) => [i.json.amount, i.json.centAmount])).toEqual([
		[2500, 250000],
		[4000.5, 400050],
	]);
	const again = await fixture.run(bill, { items: customers('2026-11'), staticData, mode: 'trigger' });
	expect(posts()).toBe(2);
	expect(again.items.map((i) => [i.json.alreadySubmitted, i.json.detailsKept, i.json.expired])).toEqual([
		[true, true, false],
		[true, true, false],
	]);
	expect(again.items.map((i) => detailsOf(i.json))).toEqual(first.items.map((i) => detailsOf(i.json)));
	for (const item of again.items) expect(item.json.accountNumber).toMatch(/^\d{10}$/);
});

test('expired: the same details, said plainly, with how to bill again in the period; a new key bills again', async () => {
	const staticData: IDataObject = {};
	await fixture.run(bill, { items: customers('2026-12'), staticData });
	await new Promise((resolve) => setTimeout(resolve, 2100));
	const later = await fixture.run(bill, { items: customers('2026-12'), staticData });
	expect(later.items.map((i) => [i.json.alreadySubmitted, i.json.expired])).toEqual([
		[true, true],
		[true, true],
	]);
	expect(String(later.items[0].json.detailsNote)).toMatch(/^Its receiving account expired at .*: unless the customer paid before then, they can no longer pay into it\. To bill them again in this period, turn on Renew Expired/);
	const renewed = await fixture.run(bill, { items: customers('2026-12-2'), staticData });
	expect(renewed.items.map((i) => i.json.alreadySubmitted ?? false)).toEqual([false, false]);
	expect(posts()).toBe(4);
});

test('nothing kept (a run n8n did not save, e.g. from the editor): said plainly, never blank fields passed off as details', async () => {
	await fixture.run(bill, { items: customers('2027-01'), staticData: {} });
	const fresh = await fixture.run(bill, { items: customers('2027-01'), staticData: {} });
	expect(fresh.items.map((i) => [i.json.alreadySubmitted, i.json.detailsKept, i.json.accountNumber])).toEqual([
		[true, false, undefined],
		[true, false, undefined],
	]);
	expect(String(fresh.items[0].json.detailsNote)).toContain('This node did not keep its details');
});

test('each record is kept under its key, the newest MAX_KEPT of them', async () => {
	const staticData: IDataObject = {};
	const many = Array.from({ length: 3 }, (_, i) => ({ customerId: `M-${i}`, email: 'm@example.com', amount: '1', period: '2027-02' }));
	await fixture.run(bill, { items: many, staticData });
	const node = Object.values(staticData)[0] as { kept: Record<string, unknown>; keptCount: number };
	expect([Object.keys(node.kept), node.keptCount]).toEqual([many.map((m) => `period:2027-02|row:${m.customerId}`), 3]);

	const data: IDataObject = {};
	const context = { getWorkflowStaticData: () => data } as unknown as IExecuteFunctions;
	for (let n = 0; n <= MAX_KEPT + 1; n++) keepRecord(context, `k${n}`, { n });
	expect([keptRecord(context, 'k0'), keptRecord(context, 'k1'), keptRecord(context, 'k2')?.record]).toEqual([undefined, undefined, { n: 2 }]);
	expect([Object.keys(data.kept as object).length, data.keptCount]).toEqual([MAX_KEPT, MAX_KEPT]);
});

test('Renew Expired: an expired unpaid collection is made again under its own key, once; a paid one never', async () => {
	const staticData: IDataObject = {};
	const first = await fixture.run(bill, { items: customers('2027-03'), staticData });
	await fixture.sandbox.controls.markCollectionPaid(String(first.items[0].json.id));
	await new Promise((resolve) => setTimeout(resolve, 2100));
	const renew = { ...bill, renewExpired: true };
	const before = posts();
	const renewed = await fixture.run(renew, { items: customers('2027-03'), staticData });
	expect(posts() - before).toBe(1);
	expect(renewed.items.map((i) => [i.json.alreadySubmitted ?? false, i.json.renewalOf ?? null])).toEqual([
		[true, null],
		[false, 'period:2027-03|row:C-2'],
	]);
	expect(renewed.items[1].json.accountNumber).not.toBe(first.items[1].json.accountNumber);
	expect(String(renewed.items[1].json.renewalNote)).toContain('expired unpaid');
	const again = await fixture.run(renew, { items: customers('2027-03'), staticData });
	expect(posts() - before).toBe(1);
	expect([again.items[1].json.alreadySubmitted, again.items[1].json.expired, again.items[1].json.accountNumber]).toEqual([true, false, renewed.items[1].json.accountNumber]);
});
