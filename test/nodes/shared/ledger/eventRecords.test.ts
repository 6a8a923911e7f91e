/**
 * nodes/shared/ledger/eventRecords.ts: a trigger run whose event could not be recorded says so in n8n's
 * log, once, with the reason. The queue suite counts these lines to tell the trigger's own failures
 * from n8n's: at n8n's default pool, n8n fails runs at the trigger without running it (an error its
 * webhook process recorded on the execution, rethrown by the worker).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { freshEachTest, type Ledger, settled, StoreDouble } from '../../../helpers/n8n/storeDouble';

let store: StoreDouble;
let ledgers: Ledger;

freshEachTest((fresh, inProcess) => {
	store = fresh;
	ledgers = inProcess;
});

function withLogger(context: IExecuteFunctions) {
	const warn = jest.fn();
	return { context: { ...context, logger: { warn, debug: jest.fn() } } as unknown as IExecuteFunctions, warn };
}

test('recorded: nothing is logged', async () => {
	const { context, warn } = withLogger(store.context({ queueMode: true, claimWaitMs: 100 }));
	await expect(settled(ledgers.recordEvents(context, ['event-1'], 1000))).resolves.toEqual(new Set());
	expect(warn).not.toHaveBeenCalled();
});

test('a store call that fails: one warning with n8n’s message, and the run fails with it', async () => {
	store.fail(() => true, new Error('Connection terminated unexpectedly'));
	const { context, warn } = withLogger(store.context({ queueMode: false }));
	await expect(settled(ledgers.recordEvents(context, ['event-1'], 1000))).rejects.toThrow('Connection terminated unexpectedly');
	expect(warn.mock.calls).toEqual([['wallet-payments trigger: the event was not recorded: Connection terminated unexpectedly']]);
});

describe('a store call near the claim’s timing bound (slowCalls.ts)', () => {
	function watched(credential: { queueMode: boolean; claimWaitMs?: number }) {
		const warn = jest.fn();
		const addExecutionHints = jest.fn();
		const context = { ...store.context(credential), logger: { warn, debug: jest.fn() }, addExecutionHints } as unknown as IExecuteFunctions;
		return { context, warn, addExecutionHints };
	}

	test('over half the claim wait: the event is recorded, and the run says so in its output and in n8n’s log', async () => {
		store.latency = () => 60;
		const { context, warn, addExecutionHints } = watched({ queueMode: true, claimWaitMs: 100 });
		await expect(settled(ledgers.recordEvents(context, ['event-1'], 1000))).resolves.toEqual(new Set());
		const message = expect.stringMatching(/^One of n8n's store calls took \d+ ms, more than half the claim wait \(100 ms\)/);
		expect(warn.mock.calls).toEqual([[expect.stringMatching(/^wallet-payments: One of n8n's store calls took (6\d|[7-9]\d) ms, more than half the claim wait \(100 ms\)/)]]);
		expect(addExecutionHints.mock.calls).toEqual([[{ type: 'warning', location: 'outputPane', message }]]);
	});

	test('at most half the claim wait: nothing said', async () => {
		store.latency = () => 40;
		const { context, warn, addExecutionHints } = watched({ queueMode: true, claimWaitMs: 100 });
		await expect(settled(ledgers.recordEvents(context, ['event-1'], 1000))).resolves.toEqual(new Set());
		expect(warn).not.toHaveBeenCalled();
		expect(addExecutionHints).not.toHaveBeenCalled();
	});

	test('One Process Only: no claim, no bound to approach, nothing said', async () => {
		store.latency = () => 5000;
		const { context, warn, addExecutionHints } = watched({ queueMode: false });
		await expect(settled(ledgers.recordEvents(context, ['event-1'], 1000))).resolves.toEqual(new Set());
		expect(warn).not.toHaveBeenCalled();
		expect(addExecutionHints).not.toHaveBeenCalled();
	});
});
