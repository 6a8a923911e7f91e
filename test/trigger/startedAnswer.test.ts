/**
 * Who answers a delivery (nodes/WalletPaymentsTrigger/startedAnswer.ts): the trigger's own step in
 * the run (`responseNode`), on every n8n line, so that a run n8n does not start is never answered
 * 2xx. The real answers: test/e2e/triggerStart.compat.test.ts (n8n 1.123, a run that cannot start)
 * and test/e2e/triggerAnswer.e2e.test.ts (n8n 2.41, a run n8n fails in its credential check).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

type TriggerModule = typeof import('../../nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node');

/** The trigger as loaded by an n8n whose n8n-workflow has (or lacks) n8n 2.8's additions. */
function loadTrigger(n8nWorkflowHasIt: boolean): TriggerModule {
	let loaded!: TriggerModule;
	jest.isolateModules(() => {
		jest.doMock('n8n-workflow', () => {
			const actual = jest.requireActual<Record<string, unknown>>('n8n-workflow');
			// Set either way, so that the test does not depend on the n8n-workflow installed here.
			return { ...actual, validateNodeCredentials: n8nWorkflowHasIt ? () => [] : undefined };
		});
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = require('../../nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node') as TriggerModule;
	});
	jest.dontMock('n8n-workflow');
	return loaded;
}

/** The trigger's step in a run from the editor's test URL (it passes the items on unchanged). */
async function stepAnswers(trigger: TriggerModule): Promise<unknown[]> {
	const sent: unknown[] = [];
	const items: INodeExecutionData[] = [{ json: { event: 'payout.completed', data: { id: 'tx_1' }, eventKey: 'k' } }];
	const context = {
		sendResponse: (response: unknown) => sent.push(response),
		getInputData: () => items,
		getMode: () => 'manual',
	} as unknown as IExecuteFunctions;
	const output = await new trigger.WalletPaymentsTrigger().execute.call(context);
	expect(output).toEqual([items]);
	return sent;
}

describe('who answers a delivery', () => {
	test('n8n 2.8 and later: responseNode, the step answers 200 first (n8n can fail a run it answered 200 itself)', async () => {
		const trigger = loadTrigger(true);
		expect(new trigger.WalletPaymentsTrigger().description.webhooks?.[0].responseMode).toBe('responseNode');
		expect(await stepAnswers(trigger)).toEqual([{ body: { message: 'Workflow was started' }, headers: {}, statusCode: 200 }]);
	});

	test('n8n 1.x and 2.0–2.7 (n8n answers before it starts the run): responseNode, the step answers 200 first', async () => {
		const trigger = loadTrigger(false);
		expect(new trigger.WalletPaymentsTrigger().description.webhooks?.[0].responseMode).toBe('responseNode');
		expect(await stepAnswers(trigger)).toEqual([{ body: { message: 'Workflow was started' }, headers: {}, statusCode: 200 }]);
	});
});
