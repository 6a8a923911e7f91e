/**
 * Who answers a delivery (nodes/WalletPaymentsTrigger/startedAnswer.ts): the trigger's own step in
 * the run (`responseNode`), on every n8n line, once the event's first record is written, so that a
 * run n8n does not start, or whose first record fails, is never answered 2xx. The real answers:
 * test/e2e/triggerStart.compat.test.ts (n8n 1.123, a run that cannot start) and
 * test/e2e/triggerAnswer.e2e.test.ts (n8n 2.41: a run n8n fails in its credential check, and one
 * whose record fails at the trigger).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { WalletPaymentsTrigger } from '../../../nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node';

const STARTED = { body: { message: 'Workflow was started' }, headers: {}, statusCode: 200 };
const items = (): INodeExecutionData[] => [{ json: { event: 'payout.completed', data: { id: 'tx_1' }, eventKey: 'k' } }];

/** The trigger's step: what it answered, with the store calls made before each answer. */
function stepContext(mode: string, record: () => Promise<{ processed: string[] }>) {
	const log: string[] = [];
	const context = {
		sendResponse: (response: unknown) => log.push(`answer ${JSON.stringify(response)}`),
		getInputData: items,
		getMode: () => mode,
		getNodeParameter: (_name: string, _index: number, fallback: unknown) => fallback,
		getCredentials: async () => ({ processes: 'one' }),
		getWorkflow: () => ({ id: 'wf' }),
		getNode: () => ({ id: 'trigger', name: 'Trigger' }),
		helpers: {
			checkProcessedAndRecord: async () => {
				log.push('record');
				return await record();
			},
			removeProcessed: async () => undefined,
		},
	} as unknown as IExecuteFunctions;
	return { context, log };
}

describe('who answers a delivery', () => {
	test('every n8n line: responseNode, the step answers 200 (n8n 1.x answers before it starts a run, 2.x can fail a run it answered 200)', async () => {
		expect(new WalletPaymentsTrigger().description.webhooks?.[0].responseMode).toBe('responseNode');
		const { context, log } = stepContext('manual', async () => ({ processed: [] }));
		expect(await new WalletPaymentsTrigger().execute.call(context)).toEqual([items()]);
		expect(log).toEqual([`answer ${JSON.stringify(STARTED)}`]);
	});

	test('a production run: answered 200 right after the event’s first record, then passed on with a second (issue #54)', async () => {
		const { context, log } = stepContext('webhook', async () => ({ processed: [] }));
		expect(await new WalletPaymentsTrigger().execute.call(context)).toEqual([items()]);
		expect(log).toEqual(['record', `answer ${JSON.stringify(STARTED)}`, 'record']);
	});

	test('a record that fails: the step fails without answering, so n8n answers an error and the event is delivered again', async () => {
		const { context, log } = stepContext('webhook', async () => await Promise.reject(new Error('the store refused')));
		await expect(new WalletPaymentsTrigger().execute.call(context)).rejects.toThrow('the store refused');
		expect(log).toEqual(['record']);
	});
});
