/**
 * Scheduled collections end to end (issue #57, proof), in a real n8n: the collections example
 * (examples/scheduled-collections.json) and the receipt example (collection-paid-receipt.json),
 * published and run as n8n runs them on their schedules (a production webhook stands in for each
 * schedule, so n8n saves what the node keeps, as it does for a scheduled run), with their e-mail
 * nodes turned on and pointed at a mail server the test runs:
 *
 *   collections[<case>]: <n> created, <m> with account details, <e> emails, <p> marked paid
 *
 * The last case loses a payment's event after it was answered 200 (as when the queue-mode worker
 * running it dies: n8n does not run it again); the billing workflow's daily check asks the service
 * and marks the row paid, so that customer gets a receipt and no reminder.
 */
import { randomUUID } from 'crypto';
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { describeE2E, executionsOf, startStack, stopStack, waitForExecutions, type ApiExecution, type Stack } from './support/e2e';
import { readMail, SEND_EMAIL_TYPE, smtpCredential, startSmtpSink, withMail, type SmtpSink } from '../../tooling/demo/smtpSink';
import { loadExamples } from '../../tooling/demo/examples';
import { outputOf } from '../../tooling/demo/payrollExample';
import { CREDENTIAL_ID, CREDENTIAL_NAME, type WorkflowJson } from '../../tooling/n8n/n8n';
import type { CollectionRecord } from '../../tooling/sandbox/state';

const examples = loadExamples({ id: CREDENTIAL_ID, name: CREDENTIAL_NAME }, process.env.WALLET_E2E_EXAMPLES_DIR);
const BILLING = examples.find((e) => e.workflow.id === 'WalletExCollect1')!;
const RECEIPT = examples.find((e) => e.workflow.id === 'WalletExCollPaid')!;
const MAIL = { id: 'WalletMailSink02', name: 'Billing mail (test)' };
/** How long the sandbox's receiving accounts live: past the first four cases, then waited out. */
const EXPIRY_SECONDS = 20;

/** The example as n8n runs it on its schedule: each schedule (and Run Now) a production webhook instead; e-mail on. */
function published(workflow: WorkflowJson, webhooks: Record<string, string>, change: (node: WorkflowJson['nodes'][number]) => WorkflowJson['nodes'][number] = (n) => n): WorkflowJson {
	const nodes = workflow.nodes.map((n) => {
		const path = webhooks[String(n.name)];
		if (path) return { ...n, type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: randomUUID(), parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} } };
		if (n.type === SEND_EMAIL_TYPE) return withMail(n, MAIL);
		return change(n);
	});
	return { ...workflow, nodes };
}

describeE2E('scheduled collections: bill every customer each month, know who paid, remind who did not', () => {
	let stack: Stack | undefined;
	let mail: SmtpSink;
	let receiptUrl = '';
	const lines: string[] = [];

	beforeAll(async () => {
		mail = await startSmtpSink();
		stack = await startStack({ collectionExpirySeconds: EXPIRY_SECONDS, webhook: { retryDelaysMs: [] } });
		const billing = published(BILLING.workflow, { 'Run Now': 'bill-now', 'Every Day at 09:00': 'remind-now' }, (n) =>
			// The user's number of days: 0 here, so that every unpaid row is due today.
			n.name === 'Remind From' ? { ...n, parameters: { ...(n.parameters as object), duration: 0 } } : n,
		);
		await stack.n8n.importWorkflows([billing, published(RECEIPT.workflow, {})]);
		await stack.n8n.importCredentials([smtpCredential(MAIL, mail)]);
		await stack.n8n.start();
		// Published through the API once n8n runs, as a user does in the editor.
		await stack.n8n.publishNow(BILLING.workflow.id);
		await stack.n8n.publishNow(RECEIPT.workflow.id);
		for (const path of ['bill-now', 'remind-now']) await stack.n8n.waitForPublishedWebhook(path);
		const trigger = RECEIPT.triggers[0];
		receiptUrl = `${stack.n8n.baseUrl}/webhook/${trigger.webhookId}/${trigger.path}`;
		stack.sandbox.configure({ webhook: { url: receiptUrl } });
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
		await mail.close();
	});

	const collections = () => stack!.sandbox.state.transactions.filter((t): t is CollectionRecord => t.kind === 'collection');
	const newest = (runs: ApiExecution[]) => runs.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));

	/** Starts the workflow at `path` (or runs `start`), waits for its run, and prints the case's line. */
	async function round(label: string, workflowId: string, start: () => Promise<unknown>) {
		const before = { made: collections().length, mails: mail.messages.length, runs: (await executionsOf(stack!.n8n, workflowId)).length };
		await start();
		const run = newest(await waitForExecutions(stack!.n8n, workflowId, before.runs + 1, 60000));
		expect(run.status).toBe('success');
		const recorded = outputOf(run, 'Record Collection');
		const paid = outputOf(run, 'Mark Paid').filter((row) => row.paidAt);
		// The mail server has the message once n8n's Send Email node finished, before the run ended.
		const result = { run, recorded, created: collections().length - before.made, details: recorded.filter((row) => /^\d{10}$/.test(String(row.accountNumber))).length, emails: mail.messages.slice(before.mails).map((raw) => readMail(raw).body), paid: paid.length };
		lines.push(`collections[${label}]: ${result.created} created, ${result.details} with account details, ${result.emails.length} emails, ${result.paid} marked paid`);
		return result;
	}
	const post = (path: string) => async () => await fetch(`${stack!.n8n.baseUrl}/webhook/${path}`, { method: 'POST' });
	const bill = async (label: string) => await round(label, BILLING.workflow.id, post('bill-now'));
	const remind = async (label: string) => await round(label, BILLING.workflow.id, post('remind-now'));
	const accounts = (rows: Array<Record<string, unknown>>) => rows.map((row) => [row.customerNo, row.accountNumber, row.bankName, row.amount, row.currency, row.expiryDate]);

	let firstAccounts: unknown[][] = [];

	test('first run: one collection per customer, its details recorded and e-mailed', async () => {
		const first = await bill('first run');
		expect([first.created, first.details, first.emails.length]).toEqual([3, 3, 3]);
		firstAccounts = accounts(first.recorded);
		// The collection's ID, which the daily check asks the service about.
		expect(first.recorded.map((row) => row.collectionId)).toEqual(collections().map((c) => c.id));
		expect(firstAccounts.map((a) => [a[0], a[3], a[4]])).toEqual([
			['C-1001', 2500, 'NGN'],
			['C-1002', 4000.5, 'NGN'],
			['C-1003', 1500, 'KES'],
		]);
		for (const [i, message] of first.emails.entries()) {
			expect(message).toContain(String(firstAccounts[i][1]));
			expect(message).toContain(`Please pay ${String(firstAccounts[i][3])} ${String(firstAccounts[i][4])} for 2026-11`);
		}
	});

	test('same period: nobody billed again, every customer with the same account details', async () => {
		const again = await bill('same period');
		expect([again.created, again.details, again.emails.length]).toEqual([0, 3, 3]);
		expect(accounts(again.recorded)).toEqual(firstAccounts);
		expect(outputOf(again.run, 'Open Collection').map((row) => [row.alreadySubmitted, row.detailsKept])).toEqual([
			[true, true],
			[true, true],
			[true, true],
		]);
	});

	test('paid: the payment event marks its row and sends a receipt', async () => {
		const ada = collections().find((c) => c.accountNumber === firstAccounts[0][1])!;
		const paid = await round('paid', RECEIPT.workflow.id, async () => await stack!.sandbox.controls.markCollectionPaid(ada.id));
		expect([paid.paid, paid.emails.length]).toEqual([1, 1]);
		expect(outputOf(paid.run, 'Mark Paid')[0]).toMatchObject({ customerNo: 'C-1001', reference: ada.reference });
		expect(paid.emails[0]).toContain('We received your payment of 2500 NGN for 2026-11');
	});

	test('reminder: only the unpaid, with the same details', async () => {
		const reminded = await remind('reminder');
		expect([reminded.created, reminded.details, reminded.emails.length]).toEqual([0, 2, 2]);
		expect(accounts(reminded.recorded)).toEqual(firstAccounts.slice(1));
	});

	test('expired: a new collection for the same period, said, with its own key; the paid customer not billed again', async () => {
		const wait = Math.max(...collections().map((c) => Date.parse(c.expiryDate))) + 1000 - Date.now();
		if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
		const renewed = await remind('expired');
		expect([renewed.created, renewed.details, renewed.emails.length]).toEqual([2, 2, 2]);
		const opened = outputOf(renewed.run, 'Open Collection');
		expect(opened.map((row) => [row.customerNo, row.renewalOf])).toEqual([
			['C-1002', 'period:2026-11|row:C-1002'],
			['C-1003', 'period:2026-11|row:C-1003'],
		]);
		for (const row of renewed.recorded) expect(String(row.note)).toContain('expired unpaid');
		expect(accounts(renewed.recorded).map((a) => a[1])).not.toEqual(firstAccounts.slice(1).map((a) => a[1]));
		expect(collections().filter((c) => c.customerEmail === 'ada.okafor@example.com')).toHaveLength(1);
	});

	test('event lost, daily check: the service says paid, the row is marked, a receipt and no reminder', async () => {
		// The event is answered 200 and its run is lost: a server that answers 200 and runs nothing.
		const lost = createServer((request, response) => request.resume().on('end', () => response.end()));
		await new Promise<void>((resolve) => lost.listen(0, '127.0.0.1', resolve));
		const lostUrl = `http://127.0.0.1:${(lost.address() as AddressInfo).port}/webhook`;
		const receiptRuns = (await executionsOf(stack!.n8n, RECEIPT.workflow.id)).length;
		const [chidi, wanjiru] = ['chidi.bello@example.com', 'wanjiru.kamau@example.com'].map((email) => collections().filter((c) => c.customerEmail === email).at(-1)!);
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

		const checked = await remind('event lost, daily check');
		// Chidi's row marked paid, one receipt and no reminder; the reminders: Wanjiru's only.
		expect(checked.paid).toBe(1);
		expect(outputOf(checked.run, 'Mark Paid')[0]).toMatchObject({ customerNo: 'C-1002', reference: chidi.reference, collectionId: chidi.id });
		const toChidi = checked.emails.filter((body) => body.includes('Hello Chidi Bello'));
		expect(toChidi).toHaveLength(1);
		expect(toChidi[0]).toContain('We received your payment of 4000.5 NGN for 2026-11');
		expect(checked.recorded.map((row) => row.customerNo)).toEqual(['C-1003']);
		// As the service said: every open row asked about by its collection's ID.
		expect(outputOf(checked.run, 'Ask the Service').map((t) => [t.id, t.status])).toEqual([
			[chidi.id, 'success'],
			[wanjiru.id, wanjiru.status],
		]);

		// The next day: the row is no longer open, nobody asks about it.
		const nextDay = await remind('event lost, next day');
		expect(outputOf(nextDay.run, 'Unpaid Collections').map((row) => row.customerNo)).toEqual(['C-1003']);
		expect(nextDay.emails.filter((body) => body.includes('Chidi'))).toEqual([]);

		// The lost event comes after all: the row, already marked, is left alone (no second receipt).
		const headers = { 'content-type': 'application/json', 'x-wallet-signature': delivered[0].signature };
		const late = await round('event late', RECEIPT.workflow.id, async () => await fetch(receiptUrl, { method: 'POST', headers, body: delivered[0].body }));
		expect(late.run.data?.resultData.runData['Mark Paid']).toHaveLength(1);
		expect([late.paid, late.emails.length]).toEqual([0, 0]);
	});
});
