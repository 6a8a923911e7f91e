/**
 * "Does my provider work?" (examples/provider-check.json) in a real n8n, as "Execute workflow"
 * runs it (`n8n execute`), against the sandbox:
 *
 *  - every endpoint answering, on a new account (empty lists) and on one with records: the report
 *    says so, one line per endpoint, `allAnswer: true`, and the check only read (no request that
 *    pays, saves or changes anything);
 *  - one endpoint turned off (the sandbox answers its path as it answers a path it does not
 *    have: 404 "Cannot POST …", with the failure injection of docs/sandbox-spec.md): the run still
 *    ends with one report, which names that endpoint and its message, the others answering;
 *  - a wrong API key: every endpoint "does not answer", with the service's 401.
 *
 *   providerCheck[<case>]: <answering> of <checked> answer[; not: <endpoints>]
 */
import { calls, describeE2E, newPayeeEvent, sandboxApi, startStack, stopStack, type Stack } from './support/e2e';
import { loadExamples } from '../../tooling/demo/examples';
import { CREDENTIAL_ID, CREDENTIAL_NAME, CREDENTIAL_TYPE, nodeOutput } from '../../tooling/n8n/n8n';

const CHECK = loadExamples({ id: CREDENTIAL_ID, name: CREDENTIAL_NAME }, process.env.WALLET_E2E_EXAMPLES_DIR).find(
	(e) => e.workflow.id === 'WalletExProvChk1',
);
/** The same workflow under another id, its credential a copy of the sandbox's with a wrong key. */
const WRONG_KEY_ID = 'WalletExProvChkK';
const WRONG_KEY_CREDENTIAL = { id: 'WalletWrongKey01', name: 'Wallet Payments (wrong key)' };

/** The endpoints the example checks, as its report names them. */
const ENDPOINTS = [
	'GET /api/v2/beneficiaries',
	'GET /api/v2/customers',
	'GET /api/v2/transactions/{id}',
	'POST /api/v1/wallets/initialize-swap',
	'GET /api/v1/virtualcards/cards/{id}/transactions',
	'GET /api/v1/wallets/payout/supported-countries/{code}',
];
const SWAP_QUOTE = '/api/v1/wallets/initialize-swap';

interface Entry {
	endpoint: string;
	operation: string;
	answers: boolean;
	said: string;
}
interface Report {
	allAnswer: boolean;
	answering: number;
	checked: number;
	notAnswering: string;
	endpoints: Entry[];
	report: string;
}

describeE2E('the provider check example (provider-check.json) in n8n', () => {
	let stack: Stack | undefined;
	const lines: string[] = [];

	beforeAll(async () => {
		if (!CHECK) throw new Error('examples/ has no workflow with id WalletExProvChk1 (provider-check.json)');
		// A new account: no beneficiary, customer, card or transaction yet.
		stack = await startStack();
		const { n8n, sandbox } = stack;
		await n8n.importWalletCredential({ apiKey: 'sk_test_not_this_one', baseUrl: sandbox.url, processes: 'one' }, WRONG_KEY_CREDENTIAL.id, WRONG_KEY_CREDENTIAL.name);
		const wrongKey = JSON.parse(JSON.stringify(CHECK.workflow)) as typeof CHECK.workflow;
		wrongKey.id = WRONG_KEY_ID;
		wrongKey.name = `${CHECK.workflow.name} (wrong key)`;
		for (const node of wrongKey.nodes) if (node.credentials) node.credentials = { [CREDENTIAL_TYPE]: { ...WRONG_KEY_CREDENTIAL } };
		await n8n.importWorkflows([CHECK.workflow, wrongKey]);
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
	});

	/** Runs the check as "Execute workflow" does: its one Report item, and the proof line. */
	async function runCheck(label: string, workflowId = CHECK!.workflow.id): Promise<Report> {
		stack!.sandbox.clearRequests();
		const result = await stack!.n8n.executeOk(workflowId);
		const output = nodeOutput(result, 'Report');
		expect(output).toHaveLength(1);
		const report = output[0] as unknown as Report;
		const not = report.endpoints.filter((e) => !e.answers).map((e) => e.endpoint);
		lines.push(`providerCheck[${label}]: ${report.answering} of ${report.checked} answer${not.length ? `; not: ${not.join(', ')}` : ''}`);
		return report;
	}

	it('every endpoint answers, on a new account: one line each, allAnswer true, and nothing but reads and a quote sent', async () => {
		const report = await runCheck('all');
		expect(report.endpoints.map((e) => e.endpoint)).toEqual(ENDPOINTS);
		expect(report).toMatchObject({ allAnswer: true, answering: ENDPOINTS.length, checked: ENDPOINTS.length, notAnswering: '' });
		expect(report.endpoints.every((e) => e.answers)).toBe(true);
		// The made-up IDs are answered 404 with the service's message, as the interface says.
		expect(report.endpoints[2].said).toBe('Transaction not found [HTTP 404]');
		expect(report.endpoints[4].said).toBe('Card not found [HTTP 404]');
		const text = report.report.split('\n');
		expect(text[0]).toBe(`${ENDPOINTS.length} of ${ENDPOINTS.length} endpoints answer as the service interface says.`);
		expect(text.slice(1)).toHaveLength(ENDPOINTS.length);
		text.slice(1).forEach((line, i) => expect(line).toMatch(new RegExp(`^${escape(ENDPOINTS[i])} \\(.*\\): answers`)));
		// Read only: one request per endpoint, the swap quote the only POST (it moves no money).
		const made = calls(stack!.sandbox);
		expect(made).toHaveLength(ENDPOINTS.length);
		expect(made.filter((call) => !call.startsWith('GET '))).toEqual([`POST ${SWAP_QUOTE}`]);
		expect(stack!.sandbox.state.transactions).toHaveLength(0);
	});

	it('every endpoint answers on an account with records too', async () => {
		const { sandbox } = stack!;
		await sandboxApi(sandbox, 'POST', '/api/v2/customers', { firstName: 'Ann', lastName: 'Doe', email: 'ann.doe@example.com' });
		await newPayeeEvent(sandbox, 1);
		const report = await runCheck('all, with records');
		expect(report).toMatchObject({ allAnswer: true, answering: ENDPOINTS.length, checked: ENDPOINTS.length });
	});

	it('one endpoint turned off: the run still ends with one report, which names it', async () => {
		// The sandbox's own answer for a path it does not have (server.ts), on the swap quote's path.
		stack!.sandbox.injectFailure({ method: 'POST', path: SWAP_QUOTE, status: 404, body: { status: false, message: `Cannot POST ${SWAP_QUOTE}` }, times: Infinity });
		try {
			const report = await runCheck('one off');
			expect(report).toMatchObject({ allAnswer: false, answering: ENDPOINTS.length - 1, checked: ENDPOINTS.length });
			expect(report.endpoints.filter((e) => !e.answers)).toEqual([
				{ endpoint: `POST ${SWAP_QUOTE}`, operation: 'Swap → Get Quote', answers: false, said: `Cannot POST ${SWAP_QUOTE} [HTTP 404]` },
			]);
			expect(report.notAnswering).toBe(`POST ${SWAP_QUOTE} (Swap → Get Quote)`);
			expect(report.report).toContain(`POST ${SWAP_QUOTE} (Swap → Get Quote): does not answer, Cannot POST ${SWAP_QUOTE} [HTTP 404]`);
			expect(report.report.split('\n')[0]).toBe(`${ENDPOINTS.length - 1} of ${ENDPOINTS.length} endpoints answer as the service interface says.`);
			lines.push(report.report);
		} finally {
			stack!.sandbox.clearFailures();
		}
	});

	it('a wrong API key: no endpoint answers, each line with the service’s 401', async () => {
		const report = await runCheck('wrong key', WRONG_KEY_ID);
		expect(report).toMatchObject({ allAnswer: false, answering: 0, checked: ENDPOINTS.length });
		expect(report.endpoints.map((e) => [e.endpoint, e.answers, e.said])).toEqual(ENDPOINTS.map((endpoint) => [endpoint, false, 'Invalid API key [HTTP 401]']));
	});
});

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
