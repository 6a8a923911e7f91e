/**
 * Payment limits on the credential, inside a real n8n (issue #31, point 3): the credential's owner
 * sets Maximum per Payment, Maximum per Run and Saved Beneficiaries Only; a production webhook's
 * payee list goes through Payee Rows to Pay (Payout → Initiate). A run that breaks a limit sends
 * nothing and fails with the error that names it; a run within them pays every row.
 *
 *   controls[<case>]: <n> sent, <m> refused
 */
import { describeE2E, startStack, stopStack, type ApiExecution, type Stack } from './support/e2e';
import { chain, walletNode } from './support/workflow';
import { payeeMaker, payeeRows, payoutsPerBeneficiary, postJson, webhookNode, type Payee } from '../queue/support/queue';

const WORKFLOW_ID = 'WalletControls01';
const PATH = 'controls-pay';
const CREDENTIAL = { id: 'WalletLimits0001', name: 'Wallet Payments (limits)' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeE2E('payment limits on the credential, in n8n', () => {
	let stack: Stack | undefined;
	let newPayees: (count: number) => Promise<Payee[]>;
	const lines: string[] = [];
	let runs = 0;

	/** Posts the rows and returns the run once it has finished, with its data. */
	async function run(rows: Array<Record<string, unknown>>): Promise<ApiExecution> {
		const { n8n } = stack!;
		expect(await postJson(`${n8n.baseUrl}/webhook/${PATH}`, { payees: rows })).toBe(200);
		runs++;
		const deadline = Date.now() + 60000;
		for (;;) {
			const listed = await n8n.publicApi<{ data: ApiExecution[] }>('GET', `/executions?workflowId=${WORKFLOW_ID}&limit=50&includeData=true`);
			const all = listed.body.data ?? [];
			if (all.length >= runs && !['new', 'running', 'waiting'].includes(all[0].status)) return all[0];
			if (Date.now() > deadline) throw new Error(`Run ${runs} has not finished: ${JSON.stringify(all.map((e) => [e.id, e.status]))}`);
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
		await n8n.importWorkflows([chain(WORKFLOW_ID, 'Controls: pay a list under limits', [webhookNode(PATH), payeeRows(), pay])]);
		await n8n.start();
		await n8n.publishNow(WORKFLOW_ID);
		// Right after publishing, n8n 2.41.1 answers the preflight for a path not yet registered 500.
		const deadline = Date.now() + 20000;
		for (;;) {
			try {
				await n8n.waitForWebhook(PATH, 'POST', Math.max(0, deadline - Date.now()));
				break;
			} catch (error) {
				if (!/→ 500$/.test((error as Error).message) || Date.now() > deadline) throw error;
				await sleep(200);
			}
		}
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
});
