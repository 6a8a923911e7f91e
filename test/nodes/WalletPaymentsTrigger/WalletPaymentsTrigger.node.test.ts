/**
 * The trigger's second layer: its step in the run an event started (`execute`), through
 * n8n-core's WorkflowExecute with n8n's de-duplication store (in memory here; the database one
 * in the e2e suite). An event this workflow already handled (after a restart, when the claim
 * table of the first layer is empty) ends its run at the trigger.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { IDataObject, INode, INodeType, INodeTypes, IRun, IVersionedNodeType, WorkflowExecuteMode } from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { WalletPaymentsTrigger } from '../../../nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node';
import { CLAIM_ROUNDS } from '../../../nodes/shared/ledger';
import { afterRecordCall, rewriteRow } from '../../helpers/n8n/deduplication';
import { additionalDataFor, type TestCredentials } from '../../helpers/n8n/runNode';
import { CREDENTIALS, outputFor, payoutEvent, TRIGGER_TYPE } from '../../helpers/trigger/fixtures';

const AFTER = 'After the trigger';

/** Counts the items that reach the node after the trigger. */
class CountingNode implements INodeType {
	static seen: IDataObject[] = [];
	description = {
		displayName: 'Count',
		name: 'count',
		group: ['transform'],
		version: 1,
		description: 'Counts items',
		defaults: { name: AFTER },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: import('n8n-workflow').IExecuteFunctions) {
		CountingNode.seen.push(...this.getInputData().map((item) => item.json));
		return [this.getInputData()];
	}
}

const types: Record<string, INodeType> = { [TRIGGER_TYPE]: new WalletPaymentsTrigger(), 'test.count': new CountingNode() };
const nodeTypes: INodeTypes = {
	getByName(type: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(type);
	},
	getByNameAndVersion(type: string): INodeType {
		return types[type];
	},
	getKnownTypes: () => ({}),
};

let counter = 0;

/** One run of "trigger → count" with the trigger's output as the webhook gave it. */
async function runEvent(
	events: IDataObject[],
	{
		mode = 'webhook',
		options = {},
		workflowId = 'wf-events',
		credentials = CREDENTIALS,
	}: { mode?: WorkflowExecuteMode; options?: IDataObject; workflowId?: string; credentials?: TestCredentials } = {},
): Promise<{ triggerOutput: IDataObject[]; reached: number }> {
	const trigger: INode = {
		id: 'trigger-node',
		name: 'Wallet Payments Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: 'hook',
		parameters: { options: options as never },
		credentials: { walletPaymentsApi: { id: '1', name: 'Wallet Payments account' } },
	};
	const after: INode = { id: 'after', name: AFTER, type: 'test.count', typeVersion: 1, position: [200, 0], parameters: {} };
	const workflow = new Workflow({
		id: workflowId,
		name: 'events',
		nodes: [trigger, after],
		connections: { [trigger.name]: { main: [[{ node: AFTER, type: NodeConnectionTypes.Main, index: 0 }]] } },
		nodeTypes,
		active: true,
		settings: {},
	});
	const executionId = `exec-${++counter}`;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, { id: workflowId, name: 'events', nodes: [trigger, after], connections: {}, active: true } as never);
	let done: (run: IRun) => void = () => {};
	const finished = new Promise<IRun>((resolve) => (done = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => done(run));
	const seenBefore = CountingNode.seen.length;
	const runData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node: trigger, data: { main: [events.map((json) => ({ json }))] }, source: null }] },
	});
	await new WorkflowExecute(additionalDataFor(credentials, hooks, executionId), mode, runData).processRunExecutionData(workflow);
	const run = await finished;
	const output = run.data.resultData.runData['Wallet Payments Trigger']?.[0];
	if (output?.error) throw output.error;
	if (run.data.resultData.error) throw run.data.resultData.error;
	return {
		triggerOutput: (output?.data?.main[0] ?? []).map((item) => item.json),
		reached: CountingNode.seen.length - seenBefore,
	};
}

const event = (id: string) => outputFor(payoutEvent({ id }));

test('a new event goes on; the same event in a later run (after a restart) stops at the trigger', async () => {
	expect(await runEvent([event('tx_1')])).toEqual({ triggerOutput: [event('tx_1')], reached: 1 });
	expect(await runEvent([event('tx_1')])).toEqual({ triggerOutput: [], reached: 0 });
	expect(await runEvent([event('tx_2')])).toEqual({ triggerOutput: [event('tx_2')], reached: 1 });
});

test('runs started at the same moment for one event: exactly one goes on', async () => {
	const before = CountingNode.seen.length;
	const runs = await Promise.all(Array.from({ length: 5 }, async () => await runEvent([event('tx_same')])));
	expect(runs.map((run) => run.triggerOutput.length).sort()).toEqual([0, 0, 0, 0, 1]);
	expect(CountingNode.seen.length - before).toBe(1);
});

test('each workflow has its own record: the same event goes on in another workflow', async () => {
	expect((await runEvent([event('tx_3')])).reached).toBe(1);
	expect((await runEvent([event('tx_3')], { workflowId: 'wf-other' })).reached).toBe(1);
});

test('events without a key, runs from the editor’s test URL, and a window of 0 are never held back', async () => {
	const keyless = outputFor({ event: 'virtualcard.user.kyc.success', data: { customerEmail: 'a@example.com' } });
	expect(keyless.eventKey).toBeNull();
	expect((await runEvent([keyless])).reached).toBe(1);
	expect((await runEvent([keyless])).reached).toBe(1);

	expect((await runEvent([event('tx_4')])).reached).toBe(1);
	expect((await runEvent([event('tx_4')], { mode: 'manual' })).reached).toBe(1);
	expect((await runEvent([event('tx_4')], { options: { dedupeWindow: 0 } })).reached).toBe(1);
	expect((await runEvent([event('tx_4')])).reached).toBe(0);
});

describe('queue mode (the credential says so): the record is a claim that waits, then checks it held', () => {
	const QUEUE = { ...CREDENTIALS, queueMode: true, claimWaitMs: 200 };

	test('a new event goes on after the claim wait; a repeat stops at once', async () => {
		const started = Date.now();
		expect((await runEvent([event('tx_q1')], { credentials: QUEUE })).reached).toBe(1);
		expect(Date.now() - started).toBeGreaterThanOrEqual(200);
		expect((await runEvent([event('tx_q1')], { credentials: QUEUE })).reached).toBe(0);
	});

	/** This process's first store call on the trigger's row is a warm-up: made by a first event. */
	const warmUp = async () => void (await runEvent([event(`tx_warm_${Math.random()}`)], { credentials: QUEUE }));

	test('another process claimed the event at the same moment and its write dropped this one: this run stops at the trigger', async () => {
		await warmUp();
		// The other worker read the row before this run's claim wrote it and wrote back its own claim
		// of the same event: this run's token is gone, the event's key is there.
		// Issue #54: a claim that is never followed by `E` is taken over after the takeover wait, so
		// the other process is made to pass the event too (`E` in, its `E#claimed` removed).
		const key = event('tx_q2').eventKey as string;
		afterRecordCall(1, () => {
			rewriteRow('wf-events', 'trigger-node', (row) => row.filter((value) => !value.startsWith('n8n-claim:')));
			afterRecordCall(1, () => rewriteRow('wf-events', 'trigger-node', (row) => [...row.filter((value) => value !== `${key}#claimed`), key]));
		});
		expect((await runEvent([event('tx_q2')], { credentials: QUEUE })).reached).toBe(0);
	});

	// Issue #54: the delivery is answered before the claim settles, so a claim written over in all
	// its rounds no longer fails the run ("Not passed on"): the run goes on as a copy and passes
	// the event once its claim holds; a repeat then stops at the trigger.
	test('a claim that keeps being written over does not fail the run after its answer: the event goes on once', async () => {
		await warmUp();
		let lost = 0;
		const loseTheWrite = (): void => {
			rewriteRow('wf-events', 'trigger-node', () => []);
			if (++lost < 2 * CLAIM_ROUNDS) afterRecordCall(1, loseTheWrite);
		};
		afterRecordCall(1, loseTheWrite);
		expect((await runEvent([event('tx_q3')], { credentials: QUEUE })).reached).toBe(1);
		expect(lost).toBe(2 * CLAIM_ROUNDS);
		expect((await runEvent([event('tx_q3')], { credentials: QUEUE })).reached).toBe(0);
	});
});
