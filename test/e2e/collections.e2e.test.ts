/**
 * Scheduled collections end to end (issues #57 and #63, proof), in a real n8n: the collections
 * example (examples/scheduled-collections.json) and the receipt example
 * (collection-paid-receipt.json), published and run as n8n runs them on their schedules (a
 * production webhook stands in for each schedule), and a copy billing another period run only
 * from the editor (Execute workflow), with their e-mail nodes turned on and pointed at a mail
 * server the test runs. One line per case:
 *
 *   collections[<case>]: <n> created, <m> recorded, <x> renewed, <p> marked paid, <q> partial, <r> reminders counted; <e> emails (<to>: <subject>; …)
 *
 * The example's clock is moved only through what it is fed: its Reminder Settings say one
 * reminder, due at once (0 days), and the sandbox's own clock jumps past the accounts' 30 minutes
 * for the expiry case (the example learns it from the service's answer, `expired`).
 */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { describeE2E, executionsOf, startStack, stopStack, type Stack } from './support/e2e';
import { accounts, asRun, forPeriod, MAIL, reminderSettings, rounds } from './support/collections';
import { smtpCredential, startSmtpSink, type SmtpSink } from '../../tooling/demo/smtpSink';
import { loadExamples } from '../../tooling/demo/examples';
import { outputOf } from '../../tooling/demo/payrollExample';
import { CREDENTIAL_ID, CREDENTIAL_NAME, type WorkflowJson } from '../../tooling/n8n/n8n';

const examples = loadExamples({ id: CREDENTIAL_ID, name: CREDENTIAL_NAME }, process.env.WALLET_E2E_EXAMPLES_DIR);
const BILLING = examples.find((e) => e.workflow.id === 'WalletExCollect1')!;
const RECEIPT = examples.find((e) => e.workflow.id === 'WalletExCollPaid')!;
/** The same billing workflow for December, run only from the editor. */
const EDITOR_ID = 'WalletExCollEdit';

describeE2E('scheduled collections: bill every customer each month, know who paid, remind who did not, renew what expired', () => {
	let stack: Stack | undefined;
	let mail: SmtpSink;
	let receiptUrl = '';
	/** How far the sandbox's clock is ahead of the real one. */
	let sandboxAheadMs = 0;
	const lines: string[] = [];
	let run: ReturnType<typeof rounds>;
	let editor: WorkflowJson;

	beforeAll(async () => {
		mail = await startSmtpSink();
		stack = await startStack({ now: () => new Date(Date.now() + sandboxAheadMs), webhook: { retryDelaysMs: [] } });
		const settings = reminderSettings({ reminders: 1, daysBetween: 0 });
		const billing = asRun(BILLING.workflow, { 'Run Now': 'bill-now', 'Every Day at 09:00': 'remind-now' }, settings);
		editor = asRun(forPeriod(BILLING.workflow, EDITOR_ID, '2026-12'), {}, settings);
		await stack.n8n.importWorkflows([billing, editor, asRun(RECEIPT.workflow, {})]);
		await stack.n8n.importCredentials([smtpCredential(MAIL, mail)]);
		await stack.n8n.start();
		await stack.n8n.publishNow(BILLING.workflow.id);
		await stack.n8n.publishNow(RECEIPT.workflow.id);
		for (const path of ['bill-now', 'remind-now']) await stack.n8n.waitForPublishedWebhook(path);
		const trigger = RECEIPT.triggers[0];
		receiptUrl = `${stack.n8n.baseUrl}/webhook/${trigger.webhookId}/${trigger.path}`;
		stack.sandbox.configure({ webhook: { url: receiptUrl } });
		run = rounds(() => stack!, mail, lines);
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
		await mail.close();
	});

	const post = (path: string) => async () => await fetch(`${stack!.n8n.baseUrl}/webhook/${path}`, { method: 'POST' });
	const bill = async (label: string) => await run.published(label, BILLING.workflow.id, post('bill-now'));
	const daily = async (label: string) => await run.published(label, BILLING.workflow.id, post('remind-now'));
	const pay = async (label: string, id: string, paidMinor?: number) => await run.published(label, RECEIPT.workflow.id, async () => await stack!.sandbox.controls.markCollectionPaid(id, paidMinor));
	const newestOf = (email: string) => run.collections().filter((c) => c.customerEmail === email).at(-1)!;
	const [ADA, CHIDI, WANJIRU] = ['ada.okafor@example.com', 'chidi.bello@example.com', 'wanjiru.kamau@example.com'];

	let firstAccounts: unknown[][] = [];
	/** Wanjiru's November collection, renewed. */
	let novemberRenewal = '';

	test('first run: one collection per customer, its details recorded and e-mailed', async () => {
		const first = await bill('first run');
		expect([first.created, first.details, first.emails.length]).toEqual([3, 3, 3]);
		firstAccounts = accounts(first.recorded);
		expect(first.recorded.map((row) => row.collectionId)).toEqual(run.collections().map((c) => c.id));
		expect(first.recorded.map((row) => [row.customerNo, row.amount, row.currency, row.paymentStatus, row.remindersSent])).toEqual([
			['C-1001', 2500, 'NGN', 'open', 0],
			['C-1002', 4000.5, 'NGN', 'open', 0],
			['C-1003', 1500, 'KES', 'open', 0],
		]);
		for (const [i, message] of first.emails.entries()) {
			expect(message.body).toContain(String(firstAccounts[i][1]));
			expect(message.body).toContain(`Please pay ${String(firstAccounts[i][3])} ${String(firstAccounts[i][4])} for 2026-11`);
		}
	});

	test('same period: nobody billed or e-mailed again (each already has the details)', async () => {
		const again = await bill('same period');
		expect([again.created, again.emails.length]).toEqual([0, 0]);
		expect(outputOf(again.run, 'Not Billed Yet')).toEqual([]);
	});

	test('paid, then the same period again: a receipt, and no e-mail to the payer on the repeat', async () => {
		const ada = newestOf(ADA);
		const paid = await pay('paid', ada.id);
		expect([paid.paid, paid.emails.length]).toEqual([1, 1]);
		expect(outputOf(paid.run, 'Mark Paid')[0]).toMatchObject({ customerNo: 'C-1001', reference: ada.reference, paymentStatus: 'paid', paidAmount: 2500 });
		expect(paid.emails[0].body).toContain('We received your payment of 2500 NGN for 2026-11');
		const repeat = await bill('paid, repeat');
		expect([repeat.created, repeat.emails.length]).toEqual([0, 0]);
		expect(mail.messages.length).toBe(4);
	});

	test('one reminder: the unpaid reminded once with their details; a second daily run sends none', async () => {
		const first = await daily('one reminder');
		expect(first.emails.map((e) => [e.to, e.subject])).toEqual([
			[CHIDI, 'Reminder: your payment for 2026-11'],
			[WANJIRU, 'Reminder: your payment for 2026-11'],
		]);
		expect(first.emails[0].body).toContain(String(firstAccounts[1][1]));
		expect(first.emails[1].body).toContain(String(firstAccounts[2][1]));
		expect(first.reminded.map((row) => [row.customerNo, row.remindersSent])).toEqual([
			['C-1002', 1],
			['C-1003', 1],
		]);
		const second = await daily('one reminder, next run');
		expect([second.created, second.emails.length, second.reminded.length]).toEqual([0, 0, 0]);
		expect(accounts(outputOf(second.run, 'Unpaid Collections'))).toEqual(firstAccounts.slice(1));
	});

	test('event lost, daily check: the service says paid, the row is marked, a receipt and no reminder', async () => {
		// The event is answered 200 and its run is lost: a server that answers 200 and runs nothing.
		const lost = createServer((request, response) => request.resume().on('end', () => response.end()));
		await new Promise<void>((resolve) => lost.listen(0, '127.0.0.1', resolve));
		const lostUrl = `http://127.0.0.1:${(lost.address() as AddressInfo).port}/webhook`;
		const receiptRuns = (await executionsOf(stack!.n8n, RECEIPT.workflow.id)).length;
		const [chidi, wanjiru] = [newestOf(CHIDI), newestOf(WANJIRU)];
		let delivered: Array<{ url: string; status?: number; body: string; signature: string }> = [];
		try {
			stack!.sandbox.configure({ webhook: { url: lostUrl } });
			delivered = (await stack!.sandbox.controls.markCollectionPaid(chidi.id)).deliveries;
		} finally {
			stack!.sandbox.configure({ webhook: { url: receiptUrl } });
			await new Promise((resolve) => lost.close(resolve));
		}
		expect(delivered.map((d) => [d.url, d.status])).toEqual([[lostUrl, 200]]);
		expect(await executionsOf(stack!.n8n, RECEIPT.workflow.id)).toHaveLength(receiptRuns);

		const checked = await daily('event lost, daily check');
		expect(checked.paid).toBe(1);
		expect(outputOf(checked.run, 'Mark Paid')[0]).toMatchObject({ customerNo: 'C-1002', reference: chidi.reference, collectionId: chidi.id, paymentStatus: 'paid' });
		expect(checked.emails.map((e) => [e.to, e.subject])).toEqual([[CHIDI, 'Payment received for 2026-11']]);
		expect(checked.emails[0].body).toContain('We received your payment of 4000.5 NGN for 2026-11');
		expect(outputOf(checked.run, 'Ask the Service').map((t) => [t.id, t.status])).toEqual([
			[chidi.id, 'success'],
			[wanjiru.id, wanjiru.status],
		]);

		// The lost event comes after all: the row, already marked, is left alone (no second receipt).
		const headers = { 'content-type': 'application/json', 'x-wallet-signature': delivered[0].signature };
		const late = await run.published('event late', RECEIPT.workflow.id, async () => await fetch(receiptUrl, { method: 'POST', headers, body: delivered[0].body }));
		expect(outputOf(late.run, 'Find the Row')).toEqual([]);
		expect([late.paid, late.emails.length]).toEqual([0, 0]);
	});

	test('from the editor: billed, the repeat e-mails nobody and keeps the details, the daily run reminds them', async () => {
		const first = await run.fromEditor('from the editor', EDITOR_ID, 'Run Now');
		expect([first.created, first.details, first.emails.length]).toEqual([3, 3, 3]);
		const december = accounts(first.recorded);
		const repeat = await run.fromEditor('from the editor, repeat', EDITOR_ID, 'Run Now');
		expect([repeat.created, repeat.emails.length]).toEqual([0, 0]);
		const reminded = await run.fromEditor('from the editor, daily', EDITOR_ID, 'Every Day at 09:00');
		const unpaid = outputOf(reminded.run, 'Unpaid Collections');
		// The table kept what the editor's runs made: the same details, for every December row.
		expect(accounts(unpaid.filter((row) => row.period === '2026-12'))).toEqual(december);
		expect(reminded.emails.map((e) => [e.to, e.subject])).toEqual([ADA, CHIDI, WANJIRU].map((to) => [to, 'Reminder: your payment for 2026-12']));
		for (const [i, message] of reminded.emails.entries()) expect(message.body).toContain(String(december[i][1]));
	});

	test('expired renewed same day: a new account for the same bill, the billing date and reminders kept', async () => {
		sandboxAheadMs += 31 * 60 * 1000; // past every account's 30 minutes, at the service
		const renewed = await daily('expired renewed same day');
		// Wanjiru's November and the three December rows: all expired unpaid.
		expect(renewed.renewed.map((row) => [row.customerNo, row.period])).toEqual([
			['C-1003', '2026-11'],
			['C-1001', '2026-12'],
			['C-1002', '2026-12'],
			['C-1003', '2026-12'],
		]);
		expect(renewed.created).toBe(4);
		novemberRenewal = String(renewed.renewed[0].collectionId);
		const before = outputOf(renewed.run, 'Unpaid Collections');
		for (const [i, row] of renewed.renewed.entries()) {
			const old = before[i];
			expect([row.billedAt, row.lastSentAt, row.remindersSent, row.period, row.amount]).toEqual([old.billedAt, old.lastSentAt, old.remindersSent, old.period, old.amount]);
			expect(row.accountNumber).not.toBe(old.accountNumber);
			expect(row.collectionId).toBe(run.collections().find((c) => c.reference === row.reference)?.id);
		}
		// Each already had its one reminder: the new account goes out once, in its own e-mail.
		expect(renewed.emails.map((e) => e.subject)).toEqual(['New payment details for 2026-11', ...Array(3).fill('New payment details for 2026-12')]);
		for (const [i, message] of renewed.emails.entries()) expect(message.body).toContain(String(renewed.renewed[i].accountNumber));
		const again = await daily('expired renewed, next run');
		expect([again.created, again.emails.length, again.renewed.length]).toEqual([0, 0, 0]);
	});

	test('partial: recorded as partial, the receipt quotes what was paid', async () => {
		const wanjiru = run.collections().find((c) => c.id === novemberRenewal)!;
		const partial = await pay('partial', wanjiru.id, 100000);
		expect([partial.paid, partial.partial]).toEqual([0, 1]);
		expect(outputOf(partial.run, 'Mark Partial')).toEqual([expect.objectContaining({ customerNo: 'C-1003', period: '2026-11', reference: wanjiru.reference, paymentStatus: 'partial', paidAmount: 1000, amount: 1500 })]);
		expect(outputOf(partial.run, 'Mark Paid')).toEqual([]);
		expect(partial.emails.map((e) => e.to)).toEqual([WANJIRU]);
		expect(partial.emails[0].body).toContain('We received your payment of 1000 KES for 2026-11');
	});

	test('two reminders, renewed the same day: one e-mail, the second reminder, with the new account', async () => {
		// The user saves Reminder Settings with 2 reminders; every December account expires again.
		const nodes = editor.nodes.map(reminderSettings({ reminders: 2 }));
		const put = await stack!.n8n.publicApi('PUT', `/workflows/${EDITOR_ID}`, { name: editor.name, nodes, connections: editor.connections, settings: editor.settings ?? {} });
		expect(put.status).toBe(200);
		sandboxAheadMs += 31 * 60 * 1000;
		const both = await run.fromEditor('renewed and reminded', EDITOR_ID, 'Every Day at 09:00');
		expect(both.renewed.map((row) => [row.customerNo, row.period])).toEqual(['C-1001', 'C-1002', 'C-1003'].map((no) => [no, '2026-12']));
		expect(both.emails.map((e) => [e.to, e.subject])).toEqual([ADA, CHIDI, WANJIRU].map((to) => [to, 'Reminder: your payment for 2026-12']));
		for (const [i, message] of both.emails.entries()) expect(message.body).toContain(String(both.renewed[i].accountNumber));
		expect(both.reminded.map((row) => row.remindersSent)).toEqual([2, 2, 2]);
		const after = await run.fromEditor('renewed and reminded, next run', EDITOR_ID, 'Every Day at 09:00');
		expect([after.created, after.emails.length]).toEqual([0, 0]);
	});
});
