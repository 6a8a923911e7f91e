/**
 * Payout → Initiate's Payee Check (issue #31, point 5): the payee a reviewer saw (account name,
 * account ending) binds the payout: another beneficiary is refused before anything is sent.
 */
import type { INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, idLocator, KENYA_MOBILE_MONEY, payoutInitiate } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

const pay = (beneficiaryId: string, payeeCheck: INodeParameters): INodeParameters =>
	payoutInitiate({ beneficiaryMode: 'id', beneficiaryId: idLocator(beneficiaryId), payeeCheck });

const payouts = () => fixture.apiRequests().filter((r) => r.method === 'POST');
const listReads = () => fixture.apiRequests().filter((r) => r.method === 'GET' && r.path === '/api/v2/beneficiaries');

test('the payee checked (name in any case and spacing, account ending): paid; the list is read once for the run', async () => {
	const beneficiary = await createBeneficiary(fixture);
	fixture.sandbox.clearRequests();
	const result = await fixture.run(pay(beneficiary.id as string, { accountName: '  ann   DOE ', accountEnding: '5678' }), { items: [{}, {}, {}] });
	expect(result.error).toBeUndefined();
	expect(payouts()).toHaveLength(3);
	expect(listReads()).toHaveLength(1);
});

test.each([
	['another name', { accountName: 'Otieno Ouma' }, `its account name is "${KENYA_MOBILE_MONEY.accountName}", not "Otieno Ouma"`],
	['another account', { accountEnding: '9999' }, 'its account number ends in 5678, not 9999'],
	['both', { accountName: 'Otieno Ouma', accountEnding: '9999' }, 'not "Otieno Ouma"; its account number ends in 5678, not 9999'],
])('%s: nothing sent, the error names the field, the item and what differs', async (_label, payeeCheck, problem) => {
	const beneficiary = await createBeneficiary(fixture);
	fixture.sandbox.clearRequests();
	const result = await fixture.run(pay(beneficiary.id as string, payeeCheck));
	expect(result.error?.message).toContain(`Invalid "Payee Check": the saved beneficiary ${beneficiary.id as string} is not the payee checked: `);
	expect(result.error?.message).toContain(problem);
	expect(result.error?.message).toContain('(item 0)');
	expect(payouts()).toHaveLength(0);
});

test('an unknown beneficiary ID under a payee check: nothing sent', async () => {
	await createBeneficiary(fixture);
	fixture.sandbox.clearRequests();
	const result = await fixture.run(pay('00000000-0000-4000-8000-000000000000', { accountName: 'Ann Doe' }));
	expect(result.error?.message).toContain('Invalid "Payee Check": no saved beneficiary has the ID 00000000-0000-4000-8000-000000000000');
	expect(payouts()).toHaveLength(0);
});

test('an account ending that is not 4 or more digits is refused before any request', async () => {
	const beneficiary = await createBeneficiary(fixture);
	fixture.sandbox.clearRequests();
	const result = await fixture.run(pay(beneficiary.id as string, { accountEnding: '78' }));
	expect(result.error?.message).toContain('Invalid "Payee Check → Account Number Ends With": "78" is not 4 or more digits');
	expect(fixture.apiRequests()).toHaveLength(0);
});

test('a run where one row fails its check sends no row (every row is checked before any is sent)', async () => {
	const ann = await createBeneficiary(fixture);
	fixture.sandbox.clearRequests();
	const result = await fixture.run(
		pay(ann.id as string, { accountName: '={{ $json.name }}' }),
		{ items: [{ name: 'Ann Doe' }, { name: 'Someone Else' }, { name: 'Ann Doe' }] },
	);
	expect(result.error?.message).toContain('(item 1)');
	expect(payouts()).toHaveLength(0);
});
