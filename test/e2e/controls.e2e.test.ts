/**
 * Payment controls inside a real n8n (issue #31). Limits on the credential (point 3): the
 * credential's owner sets Maximum per Payment, Maximum per Run and Saved Beneficiaries Only; a
 * production webhook's payee list goes through Payee Rows to Pay (Payout → Initiate). A run that
 * breaks a limit sends nothing and fails with the error that names it; a run within them pays
 * every row. Preview and approval (points 1–2): the same Pay node previews the rows (nothing
 * sent), then sends them with the preview's fingerprint as Approved Fingerprint; changed rows
 * with that fingerprint send nothing. The example examples/payroll-with-approval.json (points 2, 4
 * and 5) from Execute workflow: preview, the approver's form (names, masked accounts, amounts),
 * Approve, the payouts and the reconciliation CSV; run again: all already paid, Reject, nothing.
 * A run of rows sent before says, per row, the day it was sent (point 6).
 *
 *   controls[<case>]: <n> sent, <m> refused
 */
import { describeE2E, ended, startStack, stopStack, type ApiExecution, type Stack } from './support/e2e';
import { APPROVER_CREDENTIAL, loadExamples } from '../../tooling/demo/examples';
import { APPROVER_NAME, outputOf, payrollDriver } from '../../tooling/demo/payrollExample';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from '../../tooling/n8n/n8n';
import { chain, walletNode } from '../../tooling/n8n/workflow';
import { payeeMaker, payeeRows, payoutsPerBeneficiary, webhookNode, type Payee } from '../queue/support/queue';
import { postJson } from '../../tooling/n8n/http';

const WORKFLOW_ID = 'WalletControls01';
const PATH = 'controls-pay';
/** Preview and approval (issue #31, points 1–2): the same node previews, then sends what was approved. */
const APPROVAL_ID = 'WalletControls02';
const APPROVAL_PATH = 'controls-approve';
const CREDENTIAL = { id: 'WalletLimits0001', name: 'Wallet Payments (limits)' };
/** The payroll example with its approval form (examples/payroll-with-approval.json). */
const PAYROLL = loadExamples({ id: CREDENTIAL_ID, name: CREDENTIAL_NAME }).find((e) => e.workflow.id === 'WalletExPayApprv')!;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Today in UTC, as the package records the day a payout was accepted. */
const utcDay = () => new Date().toISOString().slice(0, 10);

describeE2E('payment limits on the credential, in n8n', () => {
	let stack: Stack | undefined;
	let newPayees: (count: number) => Promise<Payee[]>;
	const lines: string[] = [];

	const runsOf: Record<string, number> = {};

	/** Posts the body and returns the run once it has finished, with its data. */
	async function run(rows: Array<Record<string, unknown>>, workflow = { id: WORKFLOW_ID, path: PATH }, extra: Record<string, unknown> = {}): Promise<ApiExecution> {
		const { n8n } = stack!;
		expect(await postJson(`${n8n.baseUrl}/webhook/${workflow.path}`, { payees: rows, ...extra })).toBe(200);
		runsOf[workflow.id] = (runsOf[workflow.id] ?? 0) + 1;
		const deadline = Date.now() + 60000;
		for (;;) {
			const listed = await n8n.publicApi<{ data: ApiExecution[] }>('GET', `/executions?workflowId=${workflow.id}&limit=50&includeData=true`);
			const all = listed.body.data ?? [];
			if (all.length >= runsOf[workflow.id] && all[0].status !== 'waiting' && ended(all[0])) return all[0];
			if (Date.now() > deadline) throw new Error(`Run ${runsOf[workflow.id]} of ${workflow.id} has not finished: ${JSON.stringify(all.map((e) => [e.id, e.status]))}`);
			await sleep(300);
		}
	}
	const paidOf = (payees: Payee[]) => {
		const counts = payoutsPerBeneficiary(stack!.sandbox);
		return payees.filter((p) => (counts.get(p.beneficiaryId) ?? 0) > 0).length;
	};
	const payError = (execution: ApiExecution) => execution.data?.resultData.runData.Pay?.at(-1)?.error?.message;

	beforeAll(async () => {
		stack = await startStack({ references: 'lenient' });
		const { n8n, sandbox } = stack;
		await n8n.importWalletCredential(
			{ apiKey: sandbox.apiKey, baseUrl: sandbox.url, webhookSecret: '', processes: 'one', maxPerPayment: 'USD 500', maxPerRun: 'USD 1000', savedBeneficiariesOnly: true },
			CREDENTIAL.id,
			CREDENTIAL.name,
		);
		const pay = walletNode(
			'Pay',
			'payout',
			'initiate',
			{
				sourceWalletCurrency: 'USD',
				amountUnit: 'major',
				amount: '={{ $json.dollars }}',
				customerEmail: '={{ $json.email }}',
				description: '={{ $json.invoiceId }}',
				beneficiaryMode: '={{ $json.inline ? "inline" : "id" }}',
				beneficiaryId: { __rl: true, mode: 'id', value: '={{ $json.beneficiaryId }}' },
				country: 'NG',
				currency: 'NGN',
				destinationType: 'json',
				destinationJson: '={{ JSON.stringify({ type: "nuban", bankCode: "058", accountName: "Obi Eze", accountNumber: "0123456789" }) }}',
				duplicateProtection: { idempotencyKey: '={{ $json.invoiceId }}' },
			},
			{ credentialId: CREDENTIAL.id, credentialName: CREDENTIAL.name },
		);
		const previewOrPay = walletNode('Pay', 'payout', 'initiate', {
			sourceWalletCurrency: 'USD',
			amountUnit: 'major',
			amount: '={{ $json.dollars }}',
			customerEmail: '={{ $json.email }}',
			description: '={{ $json.invoiceId }}',
			beneficiaryMode: 'id',
			beneficiaryId: { __rl: true, mode: 'id', value: '={{ $json.beneficiaryId }}' },
			duplicateProtection: { idempotencyKey: '={{ $json.invoiceId }}' },
			previewOnly: "={{ $('Webhook').first().json.body.preview === true }}",
			approvedFingerprint: "={{ $('Webhook').first().json.body.approved ?? '' }}",
		});
		await n8n.importWorkflows([
			chain(WORKFLOW_ID, 'Controls: pay a list under limits', [webhookNode(PATH), payeeRows(), pay]),
			chain(APPROVAL_ID, 'Controls: preview, then pay what was approved', [webhookNode(APPROVAL_PATH), payeeRows(), previewOrPay]),
			PAYROLL.workflow,
		]);
		await n8n.importCredentials([APPROVER_CREDENTIAL]);
		await n8n.start();
		await n8n.publishNow(WORKFLOW_ID);
		await n8n.publishNow(APPROVAL_ID);
		for (const path of [PATH, APPROVAL_PATH]) await n8n.waitForPublishedWebhook(path);
		newPayees = payeeMaker(sandbox);
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
	});

	test.each([
		['a payout over the per-payout limit', [100, 600, 100], false, 'Maximum per Payment: 600.00 USD is over 500.00 USD (item 1)'],
		['a run over the per-run limit', [400, 400, 400], false, 'Maximum per Run: the 3 items total 1,200.00 USD, over 1,000.00 USD (items 0–2)'],
		['an inline destination under saved beneficiaries only', [100, 100, 100], true, 'Saved Beneficiaries Only: a payout to an inline beneficiary (item 2)'],
	])('%s: nothing sent, the run fails naming the limit', async (label, amounts, lastInline, reason) => {
		const payees = await newPayees(amounts.length);
		const rows = payees.map((p, i) => ({ ...p, dollars: amounts[i], inline: lastInline && i === amounts.length - 1 }));
		const execution = await run(rows);
		const sent = paidOf(payees);
		lines.push(`controls[${label}]: ${sent} sent, ${rows.length - sent} refused`);
		expect(execution.status).toBe('error');
		expect(payError(execution)).toBe(`Nothing was sent: this run breaks the payment limits set on the Wallet Payments credential. ${reason}.`);
		expect(sent).toBe(0);
	});

	test('a run within every limit: every row sent once', async () => {
		const payees = await newPayees(3);
		const execution = await run(payees.map((p) => ({ ...p, dollars: 300 })));
		const sent = paidOf(payees);
		lines.push(`controls[within the limits]: ${sent} sent, ${payees.length - sent} refused`);
		expect(execution.status).toBe('success');
		expect(sent).toBe(3);
	});

	test('a preview sends nothing; the approved rows are sent once; rows changed after the approval: nothing sent', async () => {
		const workflow = { id: APPROVAL_ID, path: APPROVAL_PATH };
		const payees = await newPayees(4);
		const rows = payees.map((p, i) => ({ ...p, dollars: 10 * (i + 1) }));
		const output = (execution: ApiExecution) => (execution.data?.resultData.runData.Pay?.at(-1)?.data?.main[0] ?? []).map((item) => item.json);

		const preview = await run(rows, workflow, { preview: true });
		const summary = output(preview).at(-1)!;
		lines.push(`controls[preview]: ${paidOf(payees)} sent, ${summary.toSend} would be sent, total ${JSON.stringify(summary.totals)}`);
		expect(preview.status).toBe('success');
		expect(paidOf(payees)).toBe(0);
		expect(summary).toMatchObject({ summary: true, rows: 4, toSend: 4, totals: { USD: { minor: 10000, major: '100.00 USD' } } });

		const changed = await run([rows[0], rows[1], rows[2], { ...rows[3], dollars: 41 }], workflow, { approved: summary.fingerprint });
		lines.push(`controls[rows changed after the approval]: ${paidOf(payees)} sent, 4 refused`);
		expect(changed.status).toBe('error');
		expect(payError(changed)).toMatch(/^Nothing was sent: these rows are not the approved ones/);
		expect(paidOf(payees)).toBe(0);

		const days = [utcDay()];
		const approved = await run(rows, workflow, { approved: summary.fingerprint });
		days.push(utcDay());
		lines.push(`controls[approved]: ${paidOf(payees)} sent, 0 refused`);
		expect(approved.status).toBe('success');
		expect(output(approved).map((j) => j.alreadySubmitted ?? false)).toEqual([false, false, false, false]);
		expect(paidOf(payees)).toBe(4);

		// Previewed again: every row already submitted, with the day it was sent (UTC), nothing sent.
		const again = await run(rows, workflow, { preview: true });
		expect(output(again).slice(0, 4).map((j) => j.decision)).toEqual(['alreadySubmitted', 'alreadySubmitted', 'alreadySubmitted', 'alreadySubmitted']);
		const sentOn = output(again)[0].sentOn;
		expect(days).toContain(sentOn);
		expect(output(again).slice(0, 4).map((j) => [j.sentOn, j.reason])).toEqual(rows.map(() => [sentOn, `sent by an earlier run on ${String(sentOn)} (UTC); the service accepted it`]));
		// And sent again (issue #31, point 6): each row says when it was sent; nothing leaves.
		const resent = await run(rows, workflow, { approved: summary.fingerprint });
		const outputs = output(resent);
		lines.push(`controls[run again]: ${paidOf(payees) - 4} sent, ${outputs.filter((j) => j.alreadySubmitted).length} already submitted, sent on ${JSON.stringify([...new Set(outputs.map((j) => j.sentOn))])}`);
		expect(outputs.map((j) => [j.alreadySubmitted, j.outcome, j.sentOn])).toEqual(rows.map(() => [true, 'accepted', sentOn]));
		expect(String(outputs[0].message)).toContain(`already sent this item on ${String(sentOn)} (UTC) and the service accepted it`);
		expect(paidOf(payees)).toBe(4);
	});

	describe('the example: payroll with approval (examples/payroll-with-approval.json)', () => {
		const CLOSED_ACCOUNT = '254799000005';
		const byName = outputOf;
		const { start: startPayroll, executionWith, answer, page: approvalPage } = payrollDriver(() => stack!.n8n, PAYROLL.workflow.id);

		const payees = () => (JSON.parse(String((PAYROLL.workflow.nodes.find((n) => n.name === 'Payees')!.parameters as { jsonOutput: string }).jsonOutput)) as { payees: Array<{ employeeId: string; name: string; accountNumber: string; amount: number; currency: string }> }).payees;
		/** Payouts the sandbox holds to each account number (the example pays inline, by account). */
		const payoutsTo = (accountNumber: string) => stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout' && (tx.destination as { accountNumber?: string }).accountNumber === accountNumber).length;
		const money = (amount: number, currency: string) => `${amount.toLocaleString('en-US', { minimumFractionDigits: 2 })} ${currency}`;

		test('no code: preview, approval on a form showing the preview\'s message, each paid once, the CSV from Pay\'s output; run again: all already paid, rejected, nothing sent', async () => {
			const { sandbox } = stack!;
			sandbox.configure({ settlement: { delayMs: 1000, rules: [{ accountNumber: CLOSED_ACCOUNT, outcome: 'failed', reason: 'Mobile money account closed' }] } });
			const rows = payees();
			const paidCount = () => rows.reduce((sum, row) => sum + payoutsTo(row.accountNumber), 0);
			const before = paidCount();
			// No node of the example holds code: no Code node, no JavaScript in an expression.
			const code = PAYROLL.workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.code' || /=>|\bfunction\b|\.map\(|\.reduce\(|\.filter\(|\.forEach\(|\breturn |\bconst |\blet /.test(JSON.stringify(n.parameters)) && n.type !== 'n8n-nodes-base.stickyNote');
			expect(code.map((n) => n.name)).toEqual([]);

			const waiting = await startPayroll();
			const preview = byName(waiting, 'Pay');
			expect(preview.slice(0, -1).map((p) => [p.decision, p.reason])).toEqual(rows.map(() => ['send', undefined]));
			const summary = preview.at(-1)!;
			expect(summary).toMatchObject({ summary: true, rows: 3, toSend: 3, totals: { KES: { minor: 248000, major: '2,480.00 KES' }, NGN: { minor: 18500000, major: '185,000.00 NGN' } } });
			expect(paidCount()).toBe(before);

			// The approver's page shows the preview's message: every payee by name, masked account and amount.
			const ask = byName(waiting, 'Ask for Approval')[0];
			expect([ask.fingerprint, ask.message]).toEqual([summary.fingerprint, summary.message]);
			const page = await approvalPage(String(ask.approveAt));
			rows.forEach((row, i) => expect(page).toContain(`${i + 1}. ${row.name} · ••••${row.accountNumber.slice(-4)} · ${money(row.amount, row.currency)}`));
			expect(page).toContain('Total: 2,480.00 KES; 185,000.00 NGN');
			expect(page).not.toContain(rows[0].accountNumber);

			await answer(String(ask.approveAt), 'Approve');
			const done = await executionWith(waiting.id, ['success']);
			const sent = byName(done, 'Pay', 1);
			lines.push(`controls[the payroll example, approved]: ${paidCount() - before} sent, 0 refused; ${JSON.stringify(sent.map((r) => [r.employeeId, r.finalStatus]))}`);
			expect(paidCount() - before).toBe(3);
			// Each output row carries the input row's columns beside the payout's: the reconciliation needs no code.
			expect(sent.map((r) => [r.employeeId, r.name, r.period, r.finalStatus])).toEqual(
				rows.map((row) => [row.employeeId, row.name, '2026-11', row.accountNumber === CLOSED_ACCOUNT ? 'failed' : 'success']),
			);
			for (const r of sent) expect(typeof r.id).toBe('string');
			// …with its result, the key to resend it with, and who approved (the form's Name).
			expect(sent.map((r) => [r.result, r.idempotencyKey, r.approvedBy])).toEqual(
				rows.map((row) => [row.accountNumber === CLOSED_ACCOUNT ? 'failed' : 'paid', `period:2026-11|row:${row.employeeId}`, APPROVER_NAME]),
			);
			const file = done.data?.resultData.runData['Reconciliation CSV']?.[0]?.data?.main[0]?.[0] as { binary?: { data?: { fileName?: string; mimeType?: string } } } | undefined;
			const csv = file?.binary?.data;
			expect([csv?.fileName, csv?.mimeType]).toEqual(['payroll-2026-11.csv', 'text/csv']);

			// Next time with the same period: the preview says every payee was paid; rejected, nothing sent.
			const again = await startPayroll();
			expect(byName(again, 'Pay').slice(0, -1).map((p) => p.decision)).toEqual(rows.map(() => 'alreadySubmitted'));
			const askAgain = byName(again, 'Ask for Approval')[0];
			expect(askAgain.message).toContain('0 of 3 rows to send (3 already submitted, 0 refused)');
			await answer(String(askAgain.approveAt), 'Reject');
			const rejected = await executionWith(again.id, ['success']);
			lines.push(`controls[the payroll example, run again and rejected]: ${paidCount() - before - 3} sent, 3 already paid`);
			expect(rejected.data?.resultData.runData.Pay).toHaveLength(1);
			expect(paidCount() - before).toBe(3);
			sandbox.configure({ settlement: { delayMs: null } });
		});
	});
});
