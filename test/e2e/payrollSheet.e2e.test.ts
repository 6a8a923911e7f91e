/**
 * Payroll from a real sheet (issue #56, proof), in a real n8n: the payroll example fed by a
 * sheet's rows (support/payrollSheet.ts), run as its user runs it: Execute workflow, the
 * approver's e-mail and form, the reconciliation CSV read back from the finished execution.
 *
 *   sheet[<case>]: <n> sent, <m> already submitted, <k> refused, <f> failed; csv rows <r> of <total>
 *
 * (`mixed` is printed by noCodePayroll.e2e.test.ts, which runs the same example.)
 */
import { describeE2E, startStack, stopStack, type Stack } from './support/e2e';
import { row, type Row, serveRows, withSource } from './support/payrollSheet';
import { attachmentOf, readMail, smtpCredential, startSmtpSink, withMail, type SmtpSink } from '../../tooling/demo/smtpSink';
import { APPROVER_CREDENTIAL, loadExamples } from '../../tooling/demo/examples';
import { CREDENTIAL_ID, CREDENTIAL_NAME, type WorkflowJson } from '../../tooling/n8n/n8n';
import { APPROVER_NAME, csvOf, outputOf, parseCsv, payrollDriver } from '../../tooling/demo/payrollExample';

const EXAMPLE = loadExamples({ id: CREDENTIAL_ID, name: CREDENTIAL_NAME }).find((e) => e.workflow.id === 'WalletExPayApprv')!;
const WORKFLOW_ID = 'WalletSheetPay01';
const CLOSED = '254799000777';
/** An account number the service turns down when a payout to it is sent (the sandbox's `refused` rule). */
const WRONG = '254799000888';
const MAIL_CREDENTIAL = { id: 'WalletMailSink01', name: 'Approver mail (test)' };

describeE2E('payroll from a real sheet: every row in the CSV, one row resent once, the approver named', () => {
	let stack: Stack | undefined;
	let sheet: Awaited<ReturnType<typeof serveRows>>;
	let mail: SmtpSink;
	let workflow: WorkflowJson;
	const lines: string[] = [];
	const driver = payrollDriver(() => stack!.n8n, WORKFLOW_ID);

	beforeAll(async () => {
		sheet = await serveRows();
		mail = await startSmtpSink();
		workflow = withSource(EXAMPLE.workflow, sheet.url, WORKFLOW_ID, 'Payroll from a real sheet');
		stack = await startStack();
		stack.sandbox.configure({ settlement: { delayMs: 500, rules: [{ accountNumber: CLOSED, outcome: 'failed', reason: 'Account closed' }, { accountNumber: WRONG, outcome: 'refused', reason: 'Invalid account number' }] } });
		await stack.n8n.importWorkflows([workflow]);
		await stack.n8n.importCredentials([APPROVER_CREDENTIAL, smtpCredential(MAIL_CREDENTIAL, mail)]);
		await stack.n8n.start();
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
		await sheet.close();
		await mail.close();
	});

	const payouts = () => stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout').length;

	/** Changes the Pay node's parameters or any node, as a user does in the editor, and saves. */
	async function edit(change: (node: WorkflowJson['nodes'][number]) => WorkflowJson['nodes'][number]) {
		workflow = { ...workflow, nodes: workflow.nodes.map(change) };
		const put = await stack!.n8n.publicApi('PUT', `/workflows/${WORKFLOW_ID}`, { name: workflow.name, nodes: workflow.nodes, connections: workflow.connections, settings: workflow.settings ?? {} });
		expect(put.status).toBe(200);
	}

	/** One run as its user does it: the rows in the sheet, Execute workflow, Approve; the CSV read back. */
	async function round(label: string, rows: Row[]) {
		sheet.set(rows);
		const before = payouts();
		const waiting = await driver.start();
		const preview = outputOf(waiting, 'Pay');
		const ask = outputOf(waiting, 'Ask for Approval')[0];
		await driver.answer(String(ask.approveAt), 'Approve');
		const done = await driver.executionWith(waiting.id, ['success']);
		const paid = outputOf(done, 'Pay', 1);
		const csvText = (await csvOf(stack!.n8n, done)).text;
		const [head, ...csv] = parseCsv(csvText);
		const sent = payouts() - before;
		const already = paid.filter((r) => r.result === 'already submitted').length;
		const refused = paid.filter((r) => r.result === 'refused').length;
		const failed = paid.filter((r) => r.result === 'failed').length;
		lines.push(`sheet[${label}]: ${sent} sent, ${already} already submitted, ${refused} refused, ${failed} failed; csv rows ${csv.length} of ${rows.length}`);
		const column = (name: string) => csv.map((line) => line[head.indexOf(name)]);
		return { preview, ask, paid, sent, csv, csvText, column };
	}

	test('refused row: a row missing its account number is refused, named, and the others are paid; the CSV has every row', async () => {
		const period = '2033-01';
		const rows = [row(1, 1500, period), { ...row(2, 2200, period), accountNumber: '' }, row(3, 980, period)];
		const result = await round('refused row', rows);
		expect(result.preview.at(-1)).toMatchObject({ toSend: 2, refused: 1 });
		expect(result.sent).toBe(2);
		expect(result.csv).toHaveLength(rows.length);
		expect(result.column('employeeId')).toEqual(['E1', 'E2', 'E3']);
		expect(result.column('result')).toEqual(['paid', 'refused', 'paid']);
		expect(result.column('reason')[1]).toContain('Account Number');
		expect(result.column('reason')[1]).toContain('(item 1)');
	});

	test('resend failed: a row failed at the service, fixed and resent with the key from the CSV: paid once; the workflow run again: nothing sent', async () => {
		const period = '2033-02';
		const failing = { ...row(2, 2200, period), accountNumber: CLOSED };
		const first = await round('resend failed, first run', [row(1, 1500, period), failing]);
		expect(first.column('result')).toEqual(['paid', 'failed']);
		expect(first.column('reason')[1]).toBe('Account closed');
		const key = first.column('idempotencyKey')[1];
		expect(key).toBe(`period:${period}|row:E2`);

		// The account fixed in the sheet, the CSV's key put in Resend Only These Keys, saved.
		const fixed = [row(1, 1500, period), row(2, 2200, period)];
		await edit((n) => (n.name === 'Pay' ? { ...n, parameters: { ...(n.parameters as object), duplicateProtection: { ...(n.parameters as { duplicateProtection: object }).duplicateProtection, resendKeys: key } } } : n));
		const resent = await round('resend failed', fixed);
		expect(resent.sent).toBe(1);
		expect([resent.column('result'), resent.column('idempotencyKey')]).toEqual([
			['already submitted', 'paid'],
			[`period:${period}|row:E1`, `${key}|resend`],
		]);
		// The key left in the field: the next runs send nothing.
		const again = await round('resend failed, run again', fixed);
		expect([again.sent, again.column('result')]).toEqual([0, ['already submitted', 'already submitted']]);
		await edit((n) => (n.name === 'Pay' ? { ...n, parameters: { ...(n.parameters as object), duplicateProtection: { ...(n.parameters as { duplicateProtection: object }).duplicateProtection, resendKeys: '' } } } : n));
	});

	test('approver: the approval e-mailed by the example\'s Send Email node, the form still shows the preview, the CSV names who approved and when', async () => {
		await edit((n) => (n.name === 'Email the Approver' ? withMail(n, MAIL_CREDENTIAL) : n));
		const period = '2033-03';
		const rows = [row(1, 1500, period), row(2, 2200, period)];
		const startedAt = Date.now();
		const result = await round('approver', rows);
		expect(mail.messages).toHaveLength(1);
		const message = readMail(mail.messages[0]);
		expect(message.subject).toBe(`Approve payroll ${period}`);
		expect(message.body).toContain(String(result.ask.message));
		expect(message.body).toContain(String(result.ask.approveAt));
		expect(result.sent).toBe(2);
		expect(result.column('approvedBy')).toEqual([APPROVER_NAME, APPROVER_NAME]);
		for (const at of result.column('approvedAt')) expect(Date.parse(at)).toBeGreaterThanOrEqual(startedAt - 1000);
	});

	test('refused at send: a wrong account number the service turns down when it is sent comes out failed with its reason, the others are paid, and the CSV with every row reaches the mail server', async () => {
		await edit((n) => (n.name === 'Email the File' ? withMail(n, MAIL_CREDENTIAL) : n));
		const period = '2033-04';
		// A number of the right form: the node's checks pass it, the service turns the account down.
		const rows = [row(1, 1500, period), { ...row(2, 2200, period), accountNumber: WRONG }, row(3, 980, period)];
		const result = await round('refused at send', rows);
		expect(result.preview.at(-1)).toMatchObject({ toSend: 3, refused: 0 });
		expect(result.sent).toBe(2);
		expect(result.column('result')).toEqual(['paid', 'failed', 'paid']);
		expect(result.column('reason')[1]).toBe('Invalid account number [HTTP 400]');
		const filed = mail.messages.filter((raw) => readMail(raw).subject === `Payroll ${period}: reconciliation`);
		expect(filed).toHaveLength(1);
		// The file as attached (Convert to File starts it with a byte order mark, for spreadsheets).
		const attached = (attachmentOf(filed[0], `payroll-${period}.csv`) ?? '').replace(/^\uFEFF/, '');
		expect(attached).toBe(result.csvText.replace(/^\uFEFF/, ''));
		const [head, ...lines] = parseCsv(attached);
		expect(lines.map((line) => [line[head.indexOf('employeeId')], line[head.indexOf('result')]])).toEqual([
			['E1', 'paid'],
			['E2', 'failed'],
			['E3', 'paid'],
		]);
	});
});
