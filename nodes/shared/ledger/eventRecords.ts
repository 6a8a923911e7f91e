/**
 * The trigger's records: one per event that went past the Wallet Payments Trigger, in n8n's
 * store (per workflow and trigger node), so that an event handled before a restart, or by another
 * webhook process, stops at the trigger. In queue mode the record is a claim (claim.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readClaimWait } from './claimWait';
import { noteSlowCall } from './slowCalls';
import { openStore } from './store';

/**
 * The provider sends no event id and retries deliveries, so an event is identified by its name,
 * `data.id` and `data.status`. Without `data.id` there is nothing to tell two events apart:
 * such events are never treated as duplicates.
 */
export function eventKey(event: string, data: IDataObject): string | undefined {
	const id = data.id;
	if ((typeof id !== 'string' && typeof id !== 'number') || id === '') return undefined;
	const status =
		typeof data.status === 'string' || typeof data.status === 'number' ? data.status : null;
	return JSON.stringify([event, String(id), status === null ? null : String(status)]);
}

/**
 * Records the events' keys, keeping the last `windowSize`; returns those recorded before (the
 * events another run handled). In queue mode the record is a claim across processes: it waits,
 * then checks that it held, so that of two runs of one event at the same moment on two workers
 * exactly one goes on; an event whose claim could not be made sure of fails the run here.
 */
export async function recordEvents(
	context: IExecuteFunctions,
	keys: string[],
	windowSize: number,
): Promise<Set<string>> {
	return await recordOrFail(context, keys, windowSize).catch(async (error: unknown) => {
		// One line per run that failed here, so that the trigger's own failures can be told from
		// n8n's: n8n also fails runs at this node without running it (an error its webhook process
		// recorded on the execution, rethrown by the worker; docs/self-hosting.md, "Pool size").
		const message = error instanceof Error ? error.message : String(error);
		context.logger?.warn(`wallet-payments trigger: the event was not recorded: ${message}`);
		return await Promise.reject(error);
	});
}

async function recordOrFail(
	context: IExecuteFunctions,
	keys: string[],
	windowSize: number,
): Promise<Set<string>> {
	const store = openStore(context, windowSize);
	const wait = await readClaimWait(context);
	// One n8n process: its store calls are serialized, nothing can write over the record.
	if (wait === undefined) return new Set(await store.record(keys));
	const claim = await store.claim(keys, wait);
	noteSlowCall(context, store.slowestCall(), wait);
	if (claim.unresolved.length > 0) {
		throw new NodeOperationError(
			context.getNode(),
			`Not passed on: n8n could not make sure that only this run handles the event (${claim.why})`,
			{
				description:
					'Nothing after the trigger ran for it. Retry this execution: the event goes on then, unless another run handled it meanwhile.',
			},
		);
	}
	return new Set(claim.theirs);
}
