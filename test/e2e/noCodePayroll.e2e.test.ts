/**
 * A monthly payroll built from nodes only (issue #46, proof), in a real n8n: the payroll example
 * (examples/payroll-with-approval.json) with its Payees and Payroll Rows nodes replaced by one
 * node of another kind that outputs the same columns, one item per row (an HTTP Request node
 * reading the rows from a server this test runs, standing in for a sheet that can change), and
 * nothing else changed. Each case runs the way its user would: Execute workflow, the approver's
 * form (logged in as the approver), Approve or Reject.
 *
 *   nocode[<case>]: <n> sent, <m> already submitted, <k> refused
 */
import { describeE2E, sandboxApi, startStack, stopStack, type Stack } from './support/e2e';
import { row, type Row, serveRows, SOURCE, withSource } from './support/payrollSheet';
import { APPROVER_CREDENTIAL, loadExamples } from '../../tooling/demo/examples';
import { CREDENTIAL_ID, CREDENTIAL_NAME, type WorkflowJson } from '../../tooling/n8n/n8n';
import { outputOf, payrollDriver } from '../../tooling/demo/payrollExample';
import type { PayoutRecord } from '../../tooling/sandbox/state';

const EXAMPLE = loadExamples({ id: CREDENTIAL_ID, name: CREDENTIAL_NAME }).find((e) => e.workflow.id === 'WalletExPayApprv')!;
const monthOf = (period: string) => [row(1, 1500, period), row(2, 2200, period), row(3, 1530.5, period)];

describeE2E('no-code payroll: the example with its payees from another node, month after month', () => {
	let stack: Stack | undefined;
	let sheet: Awaited<ReturnType<typeof serveRows>>;
	let rows: Row[] = [];
	let workflow: WorkflowJson;
	const lines: string[] = [];
	const driver = payrollDriver(() => stack!.n8n, 'WalletNoCodePay1');

	beforeAll(async () => {
		sheet = await serveRows();
		workflow = withSource(EXAMPLE.workflow, sheet.url, 'WalletNoCodePay1', 'Payroll from a sheet (no code)');
		stack = await startStack();
		stack.sandbox.configure({ settlement: { delayMs: 500 } });
		await stack.n8n.importWorkflows([workflow]);
		await stack.n8n.importCredentials([APPROVER_CREDENTIAL]);
		await stack.n8n.start();
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
		await sheet.close();
	});

	/** Payouts the sandbox holds to each row's account, summed over `of`. */
	const paidTo = (of: Row[]) =>
		of.reduce((sum, r) => sum + stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout' && (tx.destination as { accountNumber?: string }).accountNumber === r.accountNumber).length, 0);
	const everyone = () => [...monthOf('x'), row(4, 0, 'x')];

	/** One round: the rows served, the preview, `meanwhile` (the sheet edited while the approver looks), the answer. */
	async function round(label: string, served: Row[], decision: 'Approve' | 'Reject', meanwhile?: () => void) {
		rows = served;
		sheet.set(rows);
		const before = paidTo(everyone());
		const waiting = await driver.start();
		const preview = outputOf(waiting, 'Pay');
		meanwhile?.();
		const ask = outputOf(waiting, 'Ask for Approval')[0];
		// The link alone does not approve: the form asks for the approver's login.
		expect(await driver.answer(String(ask.approveAt), 'Approve', null)).toBe(401);
		await driver.answer(String(ask.approveAt), decision);
		const done = await driver.executionWith(waiting.id, ['success', 'error']);
		const paid = outputOf(done, 'Pay', 1);
		const sent = paidTo(everyone()) - before;
		const already = paid.filter((r) => r.alreadySubmitted === true).length;
		const refused = done.status === 'error' ? rows.length : paid.filter((r) => r.error !== undefined).length;
		lines.push(`nocode[${label}]: ${sent} sent, ${already} already submitted, ${refused} refused`);
		const error = done.data?.resultData.runData.Pay?.[1]?.error?.message;
		return { preview, paid, sent, already, error, done };
	}
	const today = () => new Date().toISOString().slice(0, 10);

	test('no expression of the example names its payee nodes: replacing them changes only the connections', () => {
		const text = JSON.stringify(workflow.nodes.map((n) => n.parameters));
		for (const name of ['Payees', 'Payroll Rows']) expect(text).not.toContain(`$('${name}')`);
		expect(workflow.nodes.map((n) => n.name)).not.toContain('Payees');
		expect(workflow.connections[SOURCE]).toEqual({ main: [[{ node: 'Approved Yet?', type: 'main', index: 0 }]] });
	});

	test('rejected, approved, then the same period again: each row paid once, the repeats say their day', async () => {
		const november = monthOf('2031-11');
		expect((await round('rejected', november, 'Reject')).sent).toBe(0);

		const approved = await round('approved', november, 'Approve');
		expect([approved.sent, approved.paid.map((r) => [r.employeeId, r.finalStatus])]).toEqual([3, november.map((r) => [r.employeeId, 'success'])]);

		const again = await round('same period', november, 'Approve');
		expect(again.preview.slice(0, -1).map((p) => p.decision)).toEqual(['alreadySubmitted', 'alreadySubmitted', 'alreadySubmitted']);
		expect([again.sent, again.paid.map((r) => [r.employeeId, r.alreadySubmitted, r.sentOn])]).toEqual([0, november.map((r) => [r.employeeId, true, today()])]);
	});

	test('a row changed after it was paid in the period: not paid again, and says when it was paid', async () => {
		const november = monthOf('2031-11');
		november[1] = { ...november[1], amount: 2300 };
		const changed = await round('changed in period', november, 'Approve');
		expect(changed.sent).toBe(0);
		expect(changed.paid.map((r) => [r.employeeId, r.alreadySubmitted, r.sentOn])).toEqual(november.map((r) => [r.employeeId, true, today()]));
	});

	test('rows changed between the preview and the approval: nothing sent, the changed and added rows named', async () => {
		const december = monthOf('2031-12');
		const changed = await round('changed rows', december, 'Approve', () => {
			rows = [december[0], december[1], { ...december[2], amount: 1630.5 }, row(4, 900, '2031-12')];
			sheet.set(rows);
		});
		expect([changed.sent, changed.done.status]).toEqual([0, 'error']);
		expect(changed.error).toContain('item 2 (period:2031-12|row:E3) changed: 1,530.50 KES approved, 1,630.50 KES now');
		expect(changed.error).toContain('item 3 (period:2031-12|row:E4) added');
	});

	test('the next period pays everyone; resending one chosen row sends only it', async () => {
		const december = monthOf('2031-12');
		const next = await round('next period', december, 'Approve');
		expect(next.sent).toBe(3);

		// The user puts one row's key (the preview shows each row's) in Duplicate Protection →
		// Resend Only These Keys and saves.
		const key = String(next.preview[1].idempotencyKey);
		expect(key).toBe('period:2031-12|row:E2');
		const nodes = workflow.nodes.map((n) =>
			n.name === 'Pay'
				? { ...n, parameters: { ...(n.parameters as object), duplicateProtection: { ...((n.parameters as { duplicateProtection: object }).duplicateProtection), resendKeys: key } } }
				: n,
		);
		const put = await stack!.n8n.publicApi('PUT', `/workflows/${workflow.id}`, { name: workflow.name, nodes, connections: workflow.connections, settings: workflow.settings ?? {} });
		expect(put.status).toBe(200);
		const resent = await round('resend one', december, 'Approve');
		expect([resent.sent, resent.already]).toEqual([1, 2]);
		expect(resent.paid.filter((r) => r.alreadySubmitted !== true).map((r) => r.employeeId)).toEqual(['E2']);
		expect(paidTo([december[1]])).toBe(3); // November, December, and December again
	});
	test('a sheet that mixes mobile money, a Nigerian bank account paid from the NGN wallet and a saved beneficiary, amounts as text: one preview, one approval, each row paid once as its columns say', async () => {
		const saved = await sandboxApi<{ id: string }>(stack!.sandbox, 'POST', '/api/v2/beneficiaries', {
			country: 'GH',
			currency: 'GHS',
			customerEmail: 'saved@example.com',
			destination: { type: 'BANK', bankCode: 'GCB', bankName: 'GCB Bank', accountName: 'Kofi Mensah', accountNumber: '1234567890' },
		});
		const period = '2032-01';
		const mixed: Row[] = [
			{ ...row(1, 0, period), amount: '1500.00' },
			{ ...row(5, 0, period), name: 'Bola Ade', amount: '25000', wallet: 'NGN', payTo: 'NUBAN', country: 'NG', currency: 'NGN', network: '', accountNumber: '0123456789', bankCode: '058' },
			{ ...row(6, 0, period), name: 'Kofi Mensah', amount: '75.25', wallet: 'USD', payTo: '', country: '', currency: '', network: '', accountNumber: '', beneficiaryId: saved.id },
		];
		const before = stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout').length;
		const result = await round('mixed sheet', mixed, 'Approve');
		const summary = result.preview.at(-1)!;
		expect(summary.totals).toMatchObject({ KES: { minor: 150000 }, NGN: { minor: 2500000 }, USD: { minor: 7525 } });
		// The approver sees the saved beneficiary as the service knows it: its account ending too.
		expect(String(summary.message)).toContain('Kofi Mensah · ••••7890 · 75.25 USD');
		const payouts = stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout').slice(before) as PayoutRecord[];
		// Sent together (Items per Batch): in the order they arrived, so sorted by amount here.
		const sortedByAmount = payouts.sort((a, b) => a.centAmount - b.centAmount);
		expect(sortedByAmount.map((tx) => [tx.beneficiaryId ?? (tx.destination as { accountNumber?: string }).accountNumber, tx.centAmount])).toEqual([
			[saved.id, 7525],
			['254712346001', 150000],
			['0123456789', 2500000],
		]);
		expect(result.paid.map((r) => [r.employeeId, r.finalStatus])).toEqual(mixed.map((r) => [r.employeeId, 'success']));
		// Convert to File writes one line per item it gets: Pay's rows, every row's.
		expect(result.done.data?.resultData.runData['Reconciliation CSV']).toHaveLength(1);
		const csvRows = result.paid.length;
		lines.push(`sheet[mixed]: ${payouts.length} sent, ${result.already} already submitted, 0 refused; csv rows ${csvRows} of ${mixed.length}`);
	});
});
