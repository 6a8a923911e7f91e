/**
 * One run per event, in two layers (measured in a real n8n: README, "Trigger de-duplication"):
 *
 * 1. When the request arrives (`webhook()`): an in-process claim table. Look-up and record are
 *    one synchronous step, so neither sequential nor concurrent copies of an event can both pass
 *    while this n8n process runs; a copy is answered 200 and starts nothing. A claim holds only
 *    once n8n answered its delivery 2xx (n8n answers after it started the run): a copy that
 *    comes meanwhile waits for that answer, and a delivery answered otherwise (n8n could not
 *    start the run) frees the claim, so the event is processed when delivered again.
 * 2. When the run starts (`execute()`, the trigger's step in the execution): n8n's database
 *    store (the one behind the Remove Duplicates node). It outlives restarts and is shared by
 *    every process on the database, so an event already handled before a restart, or by another
 *    webhook process, stops at the trigger: its run ends there with no output. In queue mode the
 *    record is a claim that waits and checks it held (ProcessedStore.claim) before the event
 *    goes on.
 *
 * n8n's workflow static data cannot do either: n8n does not save what a webhook trigger writes
 * there when the webhook starts a run, and concurrent requests each read their own copy.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { processedStore } from '../shared/ledger/store';
import { crossProcessWait } from '../shared/ledger/crossProcess';

export const DEFAULT_DEDUPE_WINDOW = 1000;

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

export function dedupeWindow(value: unknown): number {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
		return DEFAULT_DEDUPE_WINDOW;
	return Math.floor(value);
}

/**
 * A claim's state: answered 2xx (its run started), or waiting for n8n's answer to its delivery
 * (resolves true for 2xx, false otherwise).
 */
type ClaimState = true | Promise<boolean>;

/** Per trigger (workflow, node and mode): the keys claimed, oldest first, and their states. */
const claims = new Map<string, { order: string[]; state: Map<string, ClaimState> }>();

/** What the caller of claimEvent reports once n8n answered the delivery. */
export type AnswerReport = (startedRun: boolean) => void;

/**
 * Layer 1. For a key new to this trigger: records it (dropping the oldest keys beyond the window)
 * and returns how to report n8n's answer to this delivery. A 2xx answer means n8n started the
 * run, and the key then stops later copies; any other answer (n8n could not start the run, or
 * the connection closed first) frees the key, so the provider's next delivery is processed.
 * For a key whose delivery is still waiting for its answer: waits for it, then claims again if
 * that delivery was not answered 2xx. False for a key among the last `windowSize` whose run
 * started. A window of 0 claims everything (de-duplication off). Look-up and record are one
 * synchronous step: nothing can run in between.
 */
export async function claimEvent(
	scope: string,
	key: string,
	windowSize: number,
): Promise<AnswerReport | false> {
	if (windowSize <= 0) return () => undefined;
	let table = claims.get(scope);
	if (!table) {
		table = { order: [], state: new Map() };
		claims.set(scope, table);
	}
	for (;;) {
		const state = table.state.get(key);
		if (state === true) return false;
		if (state === undefined) break;
		if (await state) return false;
	}
	let report!: AnswerReport;
	const answered = new Promise<boolean>((resolve) => {
		let reported = false;
		report = (startedRun) => {
			if (reported) return;
			reported = true;
			if (startedRun && table.state.get(key) === answered) table.state.set(key, true);
			else if (!startedRun) release(table, key, answered);
			resolve(startedRun);
		};
	});
	table.state.set(key, answered);
	table.order.push(key);
	while (table.order.length > windowSize) table.state.delete(table.order.shift()!);
	return report;
}

function release(
	table: { order: string[]; state: Map<string, ClaimState> },
	key: string,
	claim: ClaimState,
): void {
	if (table.state.get(key) !== claim) return;
	table.state.delete(key);
	const at = table.order.lastIndexOf(key);
	if (at !== -1) table.order.splice(at, 1);
}

/**
 * Layer 2, in the execution: the items whose event this workflow's trigger has not handled
 * before (per n8n's database), each recorded now. Items without a key always pass. In queue mode
 * (the credential says so) the record is a claim across processes: it waits, then checks that it
 * held, so that of two runs of one event at the same moment on two workers exactly one goes on;
 * an event whose claim could not be made sure of fails the run here (Retry it).
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
	const keys = keyed.map((item) => item.json.eventKey as string);
	const wait = await crossProcessWait(context);
	let handled: Set<string>;
	if (wait === undefined) {
		// One n8n process: its store calls are serialized, nothing can write over the record.
		handled = new Set(await store.record(keys));
	} else {
		const claim = await store.claim(keys, wait);
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
		handled = new Set(claim.theirs);
	}
	return items.filter(
		(item) => typeof item.json.eventKey !== 'string' || !handled.has(item.json.eventKey),
	);
}
