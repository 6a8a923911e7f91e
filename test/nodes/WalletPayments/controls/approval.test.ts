/**
 * Preview and approval of a payout run (issue #31, points 1 and 2), over real HTTP against the
 * sandbox: a preview sends nothing and says per row what a run would do; its fingerprint is what
 * a run with that Approved Fingerprint sends, and nothing else.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { differText, fingerprintOf, rowFingerprintOf, rowsDiffer } from '../../../../nodes/WalletPayments/controls/approval';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, payoutToSaved } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

const posts = () => fixture.apiRequests().filter((r) => r.method === 'POST' && r.path.includes('/payout/'));

const payRows = (beneficiaryId: string, extra: INodeParameters = {}): INodeParameters =>
	payoutToSaved(beneficiaryId, { description: '={{ $json.invoice }}', duplicateProtection: { idempotencyKey: '={{ $json.invoice }}' }, ...extra });

const rows = [
	{ invoice: 'INV-21', amount: '100' },
	{ invoice: 'INV-22', amount: '250.50' },
	{ invoice: 'INV-23', amount: 'ten' },
	{ invoice: 'INV-21', amount: '100' },
];

describe('the fingerprint', () => {
	test('the same rows in any order and with keys in any order make the same one; any change another', () => {
		const a = { key: 'INV-1', body: { amount: 100, currency: 'USD', beneficiaryId: 'b1' } };
		const b = { key: null, body: { beneficiaryId: 'b2', amount: 200, currency: 'USD' } };
		const same = fingerprintOf([a, b]);
		expect(same).toMatch(/^fp-[0-9a-f]{32}$/);
		expect(fingerprintOf([b, { key: 'INV-1', body: { currency: 'USD', beneficiaryId: 'b1', amount: 100 } }])).toBe(same);
		expect(fingerprintOf([a])).not.toBe(same);
		expect(fingerprintOf([a, { ...b, body: { ...b.body, amount: 201 } }])).not.toBe(same);
		expect(fingerprintOf([a, { ...b, key: 'INV-2' }])).not.toBe(same);
	});
});

describe('which rows differ from the approved preview', () => {
	const row = (itemIndex: number, key: string, amount: number) => ({ itemIndex, key, amount: `${amount}.00 KES`, rowFingerprint: rowFingerprintOf({ key, body: { amount, currency: 'KES' } }) });
	const approved = [row(0, 'p:2026-11|row:E1', 100), row(1, 'p:2026-11|row:E2', 200), row(2, 'p:2026-11|row:E3', 300)];

	test('the same rows in another order: none', () => {
		expect(rowsDiffer(approved, [approved[2], approved[0], approved[1]])).toEqual({ changed: [], added: [], removed: [] });
	});

	test('a changed amount, an added row and a removed one, each named with its item', () => {
		const now = [row(0, 'p:2026-11|row:E1', 100), row(1, 'p:2026-11|row:E2', 250), row(2, 'p:2026-11|row:E4', 400)];
		const differ = rowsDiffer(approved, now);
		expect(differ).toEqual({ changed: [{ now: now[1], approved: approved[1] }], added: [now[2]], removed: [approved[2]] });
		expect(differText(differ)).toBe(
			'item 1 (p:2026-11|row:E2) changed: 200.00 KES approved, 250.00 KES now; item 2 (p:2026-11|row:E4) added; p:2026-11|row:E3 removed (item 2 of the preview)',
		);
	});

	test('a row twice in the preview and once now: one removed', () => {
		expect(rowsDiffer([...approved, approved[0]], approved).removed).toEqual([approved[0]]);
	});

	test('many rows: the first ten named, then how many more', () => {
		const many = Array.from({ length: 13 }, (_, i) => row(i, `k${i}`, i + 1));
		expect(differText(rowsDiffer([], many))).toMatch(/^item 0 \(k0\) added; .*item 9 \(k9\) added; and 3 more$/);
	});
});

describe('Preview Only, then a run with the Approved Fingerprint', () => {
	test('the preview sends nothing: per row send, already submitted or refused, and a summary', async () => {
		const beneficiary = await createBeneficiary(fixture);
		// INV-22 was paid before, today (UTC).
		const days = [new Date().toISOString().slice(0, 10)];
		await fixture.run(payRows(beneficiary.id as string), { items: [rows[1]] });
		days.push(new Date().toISOString().slice(0, 10));
		const before = posts().length;

		const result = await fixture.run(payRows(beneficiary.id as string, { previewOnly: true }), { items: rows });
		expect(result.error).toBeUndefined();
		expect(posts().length).toBe(before);
		const out = result.items.map((i) => i.json);
		expect(out.map((j) => [j.decision, j.idempotencyKey, j.amount])).toEqual([
			['send', 'INV-21', '100.00 USD'],
			['alreadySubmitted', 'INV-22', '250.50 USD'],
			['refused', undefined, undefined],
			['alreadySubmitted', 'INV-21', '100.00 USD'],
			[undefined, undefined, undefined],
		]);
		expect(days).toContain(out[1].sentOn);
		expect(out[1].reason).toBe(`sent by an earlier run on ${String(out[1].sentOn)} (UTC); the service accepted it`);
		expect(out[3].sentOn).toBeUndefined();
		expect(out[2].reason).toContain('Invalid "Amount (Major Units)"');
		expect(out[3].reason).toBe('an earlier row of this run has the same key: it is sent once');
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }, [{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]]);
		expect(out[4]).toEqual({
			preview: true,
			summary: true,
			rows: 4,
			toSend: 1,
			alreadySubmitted: 2,
			refused: 1,
			totals: { USD: { minor: 10000, major: '100.00 USD' } },
			largest: { itemIndex: 0, minor: 10000, major: '100.00 USD' },
			fingerprint: expect.stringMatching(/^fp-[0-9a-f]{32}$/),
			message: [
				'Payout run to approve: 1 of 4 rows to send (2 already submitted, 1 refused)',
				// The saved beneficiary as the service knows it: its account name and account ending.
				'1. Ann Doe · ••••5678 · 100.00 USD',
				'Total: 100.00 USD',
				`Fingerprint: ${String(out[4].fingerprint)}`,
			].join('\n'),
			table: ['| # | Payee | Account | Amount |', '| --- | --- | --- | --- |', '| 1 | Ann Doe | ••••5678 | 100.00 USD |', '| | Total | | 100.00 USD |'].join('\n'),
		});

		// Nothing was kept: a run sends INV-21 after the preview looked at it.
		const valid = [rows[0], rows[1], rows[3]];
		const fingerprint = (await fixture.run(payRows(beneficiary.id as string, { previewOnly: true }), { items: valid })).items.at(-1)!.json.fingerprint as string;
		const sent = await fixture.run(payRows(beneficiary.id as string, { approvedFingerprint: fingerprint }), { items: valid });
		expect(sent.error).toBeUndefined();
		expect(sent.items.map((i) => (i.json as IDataObject).alreadySubmitted ?? false)).toEqual([false, true, true]);
		expect(posts().length - before).toBe(1);
	});

	test("the preview's message and table name each payee, mask the account and give the totals per currency, ready to paste", async () => {
		const inline = (extra: INodeParameters = {}): INodeParameters => ({
			resource: 'payout',
			operation: 'initiate',
			amountUnit: 'major',
			amount: '={{ $json.amount }}',
			sourceWalletCurrency: 'KES',
			customerEmail: 'ann@example.com',
			description: 'Payroll',
			beneficiaryMode: 'inline',
			country: 'KE',
			currency: 'KES',
			destinationType: 'json',
			destinationJson: '={{ JSON.stringify({ type: "MOBILEMONEY", network: "MPESA", accountName: $json.account, accountNumber: $json.phone }) }}',
			duplicateProtection: { idempotencyKey: '={{ $json.id }}' },
			previewOnly: true,
			...extra,
		});
		const payees = [
			{ id: 'p-1', name: 'Ann Doe', account: 'A DOE', phone: '254712345678', amount: '1000' },
			{ id: 'p-2', name: 'Bo | Li', account: 'B LI', phone: '254700000123', amount: '230.50' },
		];
		const named = await fixture.run(inline({ payeeName: '={{ $json.name }}' }), { items: payees });
		expect(named.error).toBeUndefined();
		const summary = named.items.at(-1)!.json;
		expect(summary.message).toBe(
			[
				'Payout run to approve: 2 of 2 rows to send (0 already submitted, 0 refused)',
				'1. Ann Doe · ••••5678 · 1,000.00 KES',
				'2. Bo | Li · ••••0123 · 230.50 KES',
				'Total: 1,230.50 KES',
				`Fingerprint: ${String(summary.fingerprint)}`,
			].join('\n'),
		);
		expect(summary.table).toBe(
			['| # | Payee | Account | Amount |', '| --- | --- | --- | --- |', '| 1 | Ann Doe | ••••5678 | 1,000.00 KES |', '| 2 | Bo \\| Li | ••••0123 | 230.50 KES |', '| | Total | | 1,230.50 KES |'].join('\n'),
		);
		expect(String(summary.message)).not.toContain('254712345678');
		// Without a Payee Name: the inline account's name. The name is not part of what is approved.
		const unnamed = (await fixture.run(inline(), { items: payees })).items.at(-1)!.json;
		expect(String(unnamed.message).split('\n').slice(1, 3)).toEqual(['1. A DOE · ••••5678 · 1,000.00 KES', '2. B LI · ••••0123 · 230.50 KES']);
		expect(unnamed.fingerprint).toBe(summary.fingerprint);
		// With Period and Row ID the approver sees the period too (the key is the node's own).
		const monthly = (await fixture.run(inline({ duplicateProtection: { period: '2026-11', rowId: '={{ $json.id }}' } }), { items: payees })).items.at(-1)!.json;
		expect([monthly.period, String(monthly.message).split('\n').slice(0, 2)]).toEqual(['2026-11', ['Payout run to approve: 2 of 2 rows to send (0 already submitted, 0 refused)', 'Period: 2026-11']]);
		expect(String(monthly.table).split('\n').slice(0, 3)).toEqual(['Period: 2026-11', '', '| # | Payee | Account | Amount |']);
		expect(summary.period).toBeUndefined();
		expect(fixture.apiRequests().filter((r) => r.method === 'POST')).toEqual([]);
	});

	test('rows paid to a saved beneficiary: the message shows the payee as the service knows it (its name beside the sheet\'s where they differ, its account ending), and an ID the service does not have', async () => {
		const ann = await createBeneficiary(fixture, { customerEmail: 'ann.saved@example.com' });
		const columns = (extra: INodeParameters = {}): INodeParameters => ({
			resource: 'payout',
			operation: 'initiate',
			amountUnit: 'major',
			amount: '={{ $json.amount }}',
			sourceWalletCurrency: 'KES',
			customerEmail: 'payroll@example.com',
			description: 'Payroll',
			beneficiaryMode: 'columns',
			rowBeneficiaryId: '={{ $json.beneficiaryId }}',
			payeeName: '={{ $json.name }}',
			duplicateProtection: { period: '2026-12', rowId: '={{ $json.id }}' },
			previewOnly: true,
			...extra,
		});
		const payees = [
			{ id: 'S-1', name: 'Ann Doe', beneficiaryId: ann.id, amount: '100' },
			{ id: 'S-2', name: 'Otieno Ouma', beneficiaryId: ann.id, amount: '200' },
			{ id: 'S-3', name: 'Kofi Mensah', beneficiaryId: 'b6d8a0c2-1111-4222-8333-944455556666', amount: '300' },
		];
		const summary = (await fixture.run(columns(), { items: payees })).items.at(-1)!.json;
		expect(String(summary.message).split('\n').slice(2, 5)).toEqual([
			'1. Ann Doe · ••••5678 · 100.00 KES',
			'2. Otieno Ouma (saved as Ann Doe) · ••••5678 · 200.00 KES',
			'3. Kofi Mensah (no saved beneficiary has this ID) · 300.00 KES',
		]);
		expect(String(summary.table)).toContain('| 2 | Otieno Ouma (saved as Ann Doe) | ••••5678 | 200.00 KES |');
		expect(fixture.apiRequests().filter((r) => r.method === 'POST')).toEqual([]);

		// Payee Check with From Row Columns: the row whose saved beneficiary is not the payee named is refused.
		const checked = (await fixture.run(columns({ payeeCheck: { accountName: '={{ $json.name }}' } }), { items: payees.slice(0, 2) })).items;
		expect(checked.map((i) => i.json.decision)).toEqual(['send', 'refused', undefined]);
		expect(String(checked[1].json.reason)).toContain('its account name is "Ann Doe", not "Otieno Ouma"');
	});

	test('Preview Until Approved: one node previews while the rows carry no approved fingerprint, and pays them once they do', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const parameters = payRows(beneficiary.id as string, { previewUntilApproved: true, approvedFingerprint: '={{ $json.approvedFingerprint }}' });
		const valid = [rows[0], rows[1]];
		const before = posts().length;
		const preview = await fixture.run(parameters, { items: valid });
		expect(preview.error).toBeUndefined();
		expect(preview.items.map((i) => i.json.decision ?? 'summary')).toEqual(['send', 'send', 'summary']);
		expect(posts().length).toBe(before);
		const fingerprint = preview.items.at(-1)!.json.fingerprint as string;
		const paid = await fixture.run(parameters, { items: valid.map((row) => ({ ...row, approvedFingerprint: fingerprint })) });
		expect(paid.error).toBeUndefined();
		expect(paid.items.map((i) => i.json.preview ?? false)).toEqual([false, false]);
		expect(posts().length - before).toBe(2);
		// Rows changed since the approval: nothing sent.
		const changed = await fixture.run(parameters, { items: [{ ...rows[0], amount: '101', approvedFingerprint: fingerprint }] });
		expect(changed.error?.message).toContain('these rows are not the approved ones');
		expect(posts().length - before).toBe(2);
	});

	test('rows changed after the approval: nothing sent, the error says so', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const approved = [
			{ invoice: 'INV-31', amount: '10' },
			{ invoice: 'INV-32', amount: '20' },
		];
		const preview = await fixture.run(payRows(beneficiary.id as string, { previewOnly: true }), { items: approved });
		const fingerprint = preview.items.at(-1)!.json.fingerprint as string;
		const before = posts().length;
		for (const changed of [
			[approved[0], { ...approved[1], amount: '21' }],
			[approved[0]],
			[...approved, { invoice: 'INV-33', amount: '5' }],
		]) {
			const result = await fixture.run(payRows(beneficiary.id as string, { approvedFingerprint: fingerprint }), { items: changed });
			expect(result.error?.message).toMatch(/^Nothing was sent: these rows are not the approved ones \(approved fp-[0-9a-f]{32}, these make fp-[0-9a-f]{32}\): a row was added, removed or changed since the preview$/);
		}
		expect(posts().length).toBe(before);
		// In another order, the approved rows are sent.
		const result = await fixture.run(payRows(beneficiary.id as string, { approvedFingerprint: fingerprint }), { items: [approved[1], approved[0]] });
		expect(result.error).toBeUndefined();
		expect(posts().length - before).toBe(2);
	});

	test('the preview shows a limit the run would break: every row refused, nothing sent', async () => {
		const beneficiary = await createBeneficiary(fixture);
		const before = posts().length;
		const result = await fixture.run(payRows(beneficiary.id as string, { previewOnly: true }), {
			items: [
				{ invoice: 'INV-41', amount: '10' },
				{ invoice: 'INV-42', amount: '900' },
			],
			credentials: { maxPerPayment: 'USD 500' },
		});
		expect(posts().length).toBe(before);
		const out = result.items.map((i) => i.json);
		expect(out.slice(0, 2).map((j) => j.decision)).toEqual(['refused', 'refused']);
		expect(out[2]).toMatchObject({ toSend: 0, refused: 2, refusedBy: expect.stringContaining('Maximum per Payment: 900.00 USD is over 500.00 USD (item 1)') });
	});
});
