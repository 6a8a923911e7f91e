/**
 * Who answers a delivery (nodes/WalletPaymentsTrigger/startedAnswer.ts): the trigger's own step in
 * the run (`responseNode`), on every n8n line, so that a run n8n does not start is never answered
 * 2xx. The real answers: test/e2e/triggerStart.compat.test.ts (n8n 1.123, a run that cannot start)
 * and test/e2e/triggerAnswer.e2e.test.ts (n8n 2.41, a run n8n fails in its credential check).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { WalletPaymentsTrigger } from '../../nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node';

/** The trigger's step in a run from the editor's test URL (it passes the items on unchanged). */
async function stepAnswers(): Promise<unknown[]> {
	const sent: unknown[] = [];
	const items: INodeExecutionData[] = [{ json: { event: 'payout.completed', data: { id: 'tx_1' }, eventKey: 'k' } }];
	const context = {
		sendResponse: (response: unknown) => sent.push(response),
		getInputData: () => items,
		getMode: () => 'manual',
	} as unknown as IExecuteFunctions;
	const output = await new WalletPaymentsTrigger().execute.call(context);
	expect(output).toEqual([items]);
	return sent;
}

describe('who answers a delivery', () => {
	test('every n8n line: responseNode, the step answers 200 first (n8n 1.x answers before it starts a run, 2.x can fail a run it answered 200)', async () => {
		expect(new WalletPaymentsTrigger().description.webhooks?.[0].responseMode).toBe('responseNode');
		expect(await stepAnswers()).toEqual([{ body: { message: 'Workflow was started' }, headers: {}, statusCode: 200 }]);
	});
});
