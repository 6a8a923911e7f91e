/**
 * One run per event, in two layers (measured in a real n8n: README, "Trigger de-duplication"):
 *
 * 1. When the request arrives (`webhook()`): an in-process claim table. Look-up and record are
 *    one synchronous step, so neither sequential nor concurrent copies of an event can both pass
 *    while this n8n process runs; a copy is answered 200 and starts nothing.
 * 2. When the run starts (`execute()`, the trigger's step in the execution): n8n's database
 *    store (the one behind the Remove Duplicates node). It outlives restarts and is shared by
 *    every process on the database, so an event already handled before a restart, or by another
 *    webhook process, stops at the trigger: its run ends there with no output. The record is
 *    checked to have held (processedStore's settle) before the event goes on.
 *
 * n8n's workflow static data cannot do either: n8n does not save what a webhook trigger writes
 * there when the webhook starts a run, and concurrent requests each read their own copy.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { processedStore } from '../shared/processedStore';

export const DEFAULT_DEDUPE_WINDOW = 1000;

/**
 * The provider sends no event id and retries deliveries, so an event is identified by its name,
 * `data.id` and `data.status`. Without `data.id` there is nothing to tell two events apart:
 * such events are never treated as duplicates.
 */
export function eventKey(event: string, data: IDataObject): string | undefined {
	const id = data.id;
	if ((typeof id !== 'string' && typeof id !== 'number') || id === '') return undefined;
	const status = typeof data.status === 'string' || typeof data.status === 'number' ? data.status : null;
	return JSON.stringify([event, String(id), status === null ? null : String(status)]);
}

export function dedupeWindow(value: unknown): number {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return DEFAULT_DEDUPE_WINDOW;
	return Math.floor(value);
}

/** Per trigger (workflow, node and mode): the keys seen, oldest first, and the same as a set. */
const claims = new Map<string, { order: string[]; seen: Set<string> }>();

/**
 * Layer 1. True when the key is new for this trigger: it is then recorded, dropping the oldest
 * keys beyond the window. False for a key among the last `windowSize`. A window of 0 claims
 * everything (de-duplication off). Synchronous on purpose: nothing can run in between.
 */
export function claimEvent(scope: string, key: string, windowSize: number): boolean {
	if (windowSize <= 0) return true;
	let table = claims.get(scope);
	if (!table) {
		table = { order: [], seen: new Set() };
		claims.set(scope, table);
	}
	if (table.seen.has(key)) return false;
	table.seen.add(key);
	table.order.push(key);
	while (table.order.length > windowSize) table.seen.delete(table.order.shift()!);
	return true;
}

/**
 * Layer 2, in the execution: the items whose event this workflow's trigger has not handled
 * before (per n8n's database), each recorded now. Items without a key always pass.
 */
export async function unhandledEvents(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	windowSize: number,
): Promise<INodeExecutionData[]> {
	if (windowSize <= 0) return items;
	const keyed = items.filter((item) => typeof item.json.eventKey === 'string');
	if (keyed.length === 0) return items;
	const store = processedStore(context, windowSize);
	const handled = new Set(await store.record(keyed.map((item) => item.json.eventKey as string)));
	// In queue mode another worker's store call can write over the record: checked, and written
	// again, before the event goes on (about a second later).
	await store.settle();
	return items.filter((item) => typeof item.json.eventKey !== 'string' || !handled.has(item.json.eventKey));
}
