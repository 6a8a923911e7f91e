/**
 * The trigger's records: one per event that went past the Wallet Payments Trigger, in n8n's
 * store (per workflow and trigger node), so that an event handled before a restart, or by another
 * webhook process, stops at the trigger. In queue mode the record is a claim (eventClaims.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readClaimWait } from './claimWait';
import { settleEvents } from './eventClaims';
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
 * Records the events' keys and passes them on: calls `answered` once the events' first record is
 * written (the delivery may be answered 200 then), and returns the keys another run passed on.
 * The rest is settled after the answer (eventClaims.ts): a first record that fails rejects before
 * `answered`; a failure after it names the events and says how to finish them.
 */
export async function recordEvents(
	context: IExecuteFunctions,
	keys: string[],
	windowSize: number,
	answered: () => void = () => undefined,
): Promise<Set<string>> {
	let told = false;
	const tell = () => {
		told = true;
		answered();
	};
	return await recordOrFail(context, keys, windowSize, tell).catch(async (error: unknown) => {
		// One line per run that failed here, so that the trigger's own failures can be told from
		// n8n's: n8n also fails runs at this node without running it (an error its webhook process
		// recorded on the execution, rethrown by the worker; docs/self-hosting.md, "Pool size").
		const message = error instanceof Error ? error.message : String(error);
		const what = told ? 'answered 200 and not passed on' : 'not recorded';
		context.logger?.warn(`wallet-payments trigger: the event was ${what}: ${message}`);
		return await Promise.reject(error);
	});
}

/**
 * The row keeps `windowSize` passed events (`E`), and room for the values of events in flight
 * (`E#claimed`, a token): the same two values per event the claim kept before.
 */
const IN_FLIGHT_VALUES = 2;

async function recordOrFail(
	context: IExecuteFunctions,
	keys: string[],
	windowSize: number,
	answered: () => void,
): Promise<Set<string>> {
	const store = openStore(context, IN_FLIGHT_VALUES * windowSize);
	const wait = await readClaimWait(context);
	const passedByOthers = await settleEvents(context, store, keys, wait, answered);
	noteSlowCall(context, store.slowestCall(), wait);
	return passedByOthers;
}
