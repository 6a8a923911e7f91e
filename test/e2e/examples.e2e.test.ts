/**
 * The example workflows (examples/*.json) import into a real n8n 2.x, and each one that does not
 * start with the Wallet Payments Trigger runs (`n8n execute`, as "Execute workflow" in the
 * editor; a Schedule Trigger fires once) against a seeded sandbox without an error in any node.
 * Example-specific assertions, and the trigger-started examples (published, events delivered by
 * the sandbox), belong next to these as the examples land.
 */
import { describeE2E, startStack, stopStack, type Stack } from './support/e2e';
import { loadExamples, type Example } from './support/examples';
import { CREDENTIAL_ID, CREDENTIAL_NAME, WALLET_NODE_TYPE, WALLET_TRIGGER_TYPE } from './support/n8n';

const examples = loadExamples({ id: CREDENTIAL_ID, name: CREDENTIAL_NAME }, process.env.WALLET_E2E_EXAMPLES_DIR);
const runnable = examples.filter((e) => e.triggers.length === 0);

function walletNodeNames(example: Example): string[] {
	return example.workflow.nodes.filter((n) => n.type === WALLET_NODE_TYPE).map((n) => String(n.name));
}

describeE2E('example workflows in n8n', () => {
	let stack: Stack | undefined;

	beforeAll(async () => {
		if (examples.length === 0) return;
		stack = await startStack({ seed: { customers: 30, beneficiaries: 30 }, autoIssueCards: true });
		await stack.n8n.importWorkflows(examples.map((e) => e.workflow));
	});

	afterAll(async () => {
		await stopStack(stack);
	});

	if (examples.length === 0) {
		it.skip('examples/ has no workflows yet', () => undefined);
		return;
	}

	it('imports every example, with the package’s node types known to n8n', async () => {
		const listed = await stack!.n8n.cliOk(['list:workflow']);
		for (const example of examples) expect(listed.stdout).toContain(example.workflow.id);
		for (const example of examples) {
			const types = example.workflow.nodes.map((n) => String(n.type));
			expect(types.some((t) => t === WALLET_NODE_TYPE || t === WALLET_TRIGGER_TYPE)).toBe(true);
		}
	});

	for (const example of runnable) {
		it(`runs "${example.workflow.name}" (${example.file}) without an error in any node`, async () => {
			const { n8n, sandbox } = stack!;
			sandbox.clearRequests();
			const result = await n8n.executeOk(example.workflow.id);
			const runData = result.data.resultData.runData;
			for (const name of walletNodeNames(example)) {
				for (const run of runData[name] ?? []) {
					expect(run.error).toBeUndefined();
					for (const item of run.data?.main.flat() ?? []) expect(item?.json.error).toBeUndefined();
				}
			}
			expect(sandbox.requests.length).toBeGreaterThan(0);
			for (const request of sandbox.requests) expect(request.headers.authorization).toBe(`Bearer ${sandbox.apiKey}`);
		});
	}
});
