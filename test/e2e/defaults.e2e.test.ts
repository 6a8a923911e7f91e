/**
 * One n8n process with the Wallet Payments credential as a user creates it (API key, Base URL,
 * signing secret; "n8n Runs As" untouched, so records are claims across processes: issue #29,
 * point 1): the duplicate protection holds without any setting, at the cost of the claim wait.
 * A production webhook receives a payee list; Payee Rows makes one item per payee; Pay sends a
 * Payout → Initiate per payee, keyed by the payee's invoice ID.
 *
 * 1. The same list posted twice at the same moment: every payee paid once.
 * 2. The same list once more: nothing sent, every row `already submitted`.
 * 3. A run that stops at a row the service refuses leaves none of its rows claimed and unsent
 *    (issue #44, point 3): the same rows posted again send every row the first run did not,
 *    at once, where a row left claimed would come out `unknown` (and only a Retry, after the
 *    takeover wait, would send it).
 *
 *   defaults[one process, credential as created]: …
 */
import { describeE2E, startStack, stopStack, type ApiExecution, type Stack } from './support/e2e';
import { chain } from '../../tooling/n8n/workflow';
import { paidTimes, payeeMaker, payeePayout, payeeRows, webhookNode, type Payee } from '../queue/support/queue';
import { postJson } from '../../tooling/n8n/http';

const WORKFLOW_ID = 'WalletDefaults01';
const PATH = 'defaults-pay';
const CREDENTIAL = { id: 'WalletAsCreated1', name: 'Wallet Payments (as created)' };
const PAYEES = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeE2E('one n8n process, the credential as a user creates it', () => {
	let stack: Stack | undefined;
	let payees: Payee[] = [];
	let newPayees: (count: number) => Promise<Payee[]>;
	const lines: string[] = [];

	/** The workflow's executions with their data, once `count` of them have finished. */
	async function finished(count: number): Promise<ApiExecution[]> {
		const deadline = Date.now() + 120000;
		for (;;) {
			const listed = await stack!.n8n.publicApi<{ data: ApiExecution[] }>('GET', `/executions?workflowId=${WORKFLOW_ID}&limit=50&includeData=true`);
			const all = listed.body.data ?? [];
			if (all.length >= count && all.every((e) => !['new', 'running', 'waiting'].includes(e.status))) return all;
			if (Date.now() > deadline) throw new Error(`Expected ${count} finished executions, have ${JSON.stringify(all.map((e) => [e.id, e.status]))}`);
			await sleep(500);
		}
	}
	const payOutput = (execution: ApiExecution) => (execution.data?.resultData.runData.Pay?.at(-1)?.data?.main[0] ?? []).map((item) => item.json);

	beforeAll(async () => {
		stack = await startStack({ references: 'lenient' });
		const { n8n, sandbox } = stack;
		// Only what the credential form asks for: "n8n Runs As" keeps its default.
		await n8n.importWalletCredential({ apiKey: sandbox.apiKey, baseUrl: sandbox.url, webhookSecret: 'whsec_sandbox' }, CREDENTIAL.id, CREDENTIAL.name);
		const pay = payeePayout({}, { credentialId: CREDENTIAL.id, credentialName: CREDENTIAL.name });
		await n8n.importWorkflows([chain(WORKFLOW_ID, 'Defaults: pay a list', [webhookNode(PATH), payeeRows(), pay])]);
		await n8n.start();
		await n8n.publishNow(WORKFLOW_ID);
		await n8n.waitForPublishedWebhook(PATH);
		newPayees = payeeMaker(sandbox);
		payees = await newPayees(PAYEES);
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
	});

	test(`the same ${PAYEES} payees posted twice at the same moment: each paid once`, async () => {
		const { n8n, sandbox } = stack!;
		const url = `${n8n.baseUrl}/webhook/${PATH}`;
		const started = Date.now();
		expect(await Promise.all([postJson(url, { payees }), postJson(url, { payees })])).toEqual([200, 200]);
		const runs = await finished(2);
		const seconds = (Date.now() - started) / 1000;
		const outputs = runs.map(payOutput);
		const sent = outputs.map((out) => out.filter((j) => !j.alreadySubmitted).length);
		const paid = paidTimes(sandbox, payees.map((p) => p.beneficiaryId));
		lines.push(`defaults[one process, credential as created, ${PAYEES} payees posted twice at once]: ${JSON.stringify({ statuses: runs.map((r) => r.status), sent, paid, seconds: Math.round(seconds * 10) / 10 })}`);
		expect(runs.map((r) => r.status)).toEqual(['success', 'success']);
		expect(outputs.map((out) => out.length)).toEqual([PAYEES, PAYEES]);
		expect(sent[0] + sent[1]).toBe(PAYEES);
		expect(paid).toEqual({ 1: PAYEES });
	});

	test('the same payees once more: nothing sent, every row already submitted', async () => {
		const { n8n, sandbox } = stack!;
		expect(await postJson(`${n8n.baseUrl}/webhook/${PATH}`, { payees })).toBe(200);
		const [latest] = await finished(3);
		const out = payOutput(latest);
		lines.push(`defaults[one process, credential as created, the same payees again]: ${JSON.stringify({ status: latest.status, rows: out.length, alreadySubmitted: out.filter((j) => j.alreadySubmitted).length })}`);
		expect(latest.status).toBe('success');
		expect(out.map((j) => j.alreadySubmitted)).toEqual(payees.map(() => true));
		expect(paidTimes(sandbox, payees.map((p) => p.beneficiaryId))).toEqual({ 1: PAYEES });
	});

	test('a run stopped by a refused row leaves nothing claimed and unsent: the same rows again send the rest at once', async () => {
		const { n8n, sandbox } = stack!;
		const runsBefore = (await finished(0)).length;
		const rows = await newPayees(30);
		const ids = rows.map((p) => p.beneficiaryId);
		// The 12th payout the service sees is refused: the run stops there, its rows all claimed.
		sandbox.injectFailure({ method: 'POST', path: '/api/v2/wallets/payout/initialize', status: 400, skip: 11 });
		expect(await postJson(`${n8n.baseUrl}/webhook/${PATH}`, { payees: rows })).toBe(200);
		const [failed] = await finished(runsBefore + 1);
		const paidFirst = paidTimes(sandbox, ids);
		expect([failed.status, paidFirst['0'] > 0]).toEqual(['error', true]);
		const started = Date.now();
		expect(await postJson(`${n8n.baseUrl}/webhook/${PATH}`, { payees: rows })).toBe(200);
		const [again] = await finished(runsBefore + 2);
		const out = payOutput(again);
		lines.push(
			`defaults[one process, credential as created, a run stopped at a refused row, then the same rows]: ${JSON.stringify({ first: paidFirst, then: { status: again.status, sent: out.filter((j) => !j.alreadySubmitted).length, outcomes: out.filter((j) => j.alreadySubmitted).map((j) => j.outcome), seconds: Math.round((Date.now() - started) / 100) / 10 } })}`,
		);
		expect(again.status).toBe('success');
		// Every row the first run sent is already submitted and accepted; none is unknown.
		expect(out.filter((j) => j.alreadySubmitted).map((j) => j.outcome)).toEqual(Array(paidFirst['1']).fill('accepted'));
		expect(paidTimes(sandbox, ids)).toEqual({ 1: 30 });
	});
});
