/**
 * Exactly-once for operations that create something at the service (payouts, swaps, collections,
 * card money, beneficiaries). The router applies it to every operation that exports `prepare`:
 *
 * 1. Each item gets an idempotency key: the user's (Duplicate Protection → Idempotency Key), else
 *    the Reference they gave, else — for what can be done only once (finalizing a payout or a
 *    quote) — the ID it acts on, else one derived from what stays the same when n8n re-runs the
 *    node (helpers/idempotency.ts). Where the API takes a reference, the key also makes the reference.
 * 2. Before the request is sent the key is recorded in n8n's own de-duplication store (the
 *    database behind the Remove Duplicates node, scoped to this node), so the record outlives the
 *    execution: Retry On Fail, Retry execution, editor re-runs and duplicate events all see it.
 * 3. A key that is already recorded is not sent again: the item is output as already submitted.
 * 4. The record is removed only when the service clearly refused (4xx); after a timeout, a 5xx or
 *    an unreadable answer it stays, because the money may have moved.
 * 5. Before the run ends, every record it made is checked to have held in the store (in queue
 *    mode another worker's store call can write over it) and written again where it did not.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { processedStore } from '../../shared/processedStore';
import { derivedKey, doneOnceKey, optionalKey, referenceFromKey } from '../helpers/idempotency';
import type { WaitSettings } from '../helpers/settlement';
import { optionalText } from '../helpers/validation';
import { outcomeOf } from '../transport/errors';
import { apiRequest } from '../transport/request';

/** What one item asks the service to do, built and validated before anything is sent. */
export interface GuardedRequest {
	endpoint: string;
	body: IDataObject;
	/** The API takes a `reference`: the one the user gave, if any (else one made from the key). */
	reference?: { given: unknown };
	/**
	 * What the request acts on when it can be done only once, ever (a payout or a quote is
	 * finalized once): its ID makes the key when the user gives none, so no later run sends it.
	 */
	doneOnceFor?: string;
	/** Payouts, swaps and card money say "may have been carried out" on unclear failures. */
	movesMoney?: boolean;
	/** The service's answer as this item's output (e.g. with card details masked). */
	present?: (data: IDataObject) => IDataObject;
	/** After sending, check the new transaction until its status is final (payouts). */
	waitForFinal?: WaitSettings;
	/** What an earlier run created, looked up by its reference, where the API can. */
	findExisting?: (context: IExecuteFunctions, reference: string) => Promise<IDataObject | undefined>;
}

export interface GuardedOperation {
	prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest>;
}

export function isGuarded(operation: unknown): operation is GuardedOperation {
	return typeof (operation as GuardedOperation | undefined)?.prepare === 'function';
}

export interface PreparedItem {
	itemIndex: number;
	request: GuardedRequest;
	key: string;
	reference?: string;
	allowResend: boolean;
}

/** How many keys each node remembers (n8n drops the oldest beyond this). Two per item. */
export const KEYS_REMEMBERED = 10000;
const acceptedMarker = (key: string) => `${key}#accepted`;

/**
 * The item keys of this node in n8n's store, with what an earlier send of each saw: one per run
 * of the node, settled (every record checked to have held) before the run ends.
 */
export function itemKeys(context: IExecuteFunctions) {
	const store = processedStore(context, KEYS_REMEMBERED);
	return {
		settle: async () => await store.settle(),
		/** Records the key; true when it was new. */
		claim: async (key: string) => (await store.record([key])).length === 0,
		release: async (key: string) => await store.remove([key, acceptedMarker(key)]),
		markAccepted: async (key: string) => await store.record([acceptedMarker(key)]),
		forgetOutcome: async (key: string) => await store.remove([acceptedMarker(key)]),
		/** What an earlier run saw for a recorded key: an answer with success, or no clear answer. */
		earlierOutcome: async (key: string) =>
			await store.atomically(async () => {
				if ((await store.record([acceptedMarker(key)])).length === 1) return 'accepted' as const;
				await store.remove([acceptedMarker(key)]);
				return 'unknown' as const;
			}),
	};
}

interface Protection {
	idempotencyKey?: unknown;
	allowResend?: unknown;
}

/** Builds and checks the item's request and works out its key and reference; sends nothing. */
export async function prepareItem(
	context: IExecuteFunctions,
	operation: GuardedOperation,
	itemIndex: number,
	origin: string,
): Promise<PreparedItem> {
	const request = await operation.prepare.call(context, itemIndex);
	const protection = context.getNodeParameter('duplicateProtection', itemIndex, {}) as Protection;
	const workflowId = String(context.getWorkflow().id ?? '');
	const nodeId = context.getNode().id;
	const givenReference = request.reference ? optionalText(request.reference.given, 'Reference', 100) : undefined;
	const key =
		optionalKey(protection.idempotencyKey, 'Idempotency Key') ??
		givenReference ??
		(request.doneOnceFor === undefined ? undefined : doneOnceKey(request.endpoint, request.doneOnceFor)) ??
		derivedKey({ workflowId, nodeId, origin, itemIndex, request: request.body });
	let reference: string | undefined;
	if (request.reference) {
		reference = givenReference ?? referenceFromKey(workflowId, nodeId, key);
		request.body = { ...request.body, reference };
	}
	return { itemIndex, request, key, reference, allowResend: protection.allowResend === true };
}

const RESEND_HOW = 'To send it anyway, turn on Duplicate Protection → Allow Resend.';

function alreadySubmitted(item: PreparedItem, fields: IDataObject, existing?: IDataObject): IDataObject {
	return {
		...existing,
		alreadySubmitted: true,
		idempotencyKey: item.key,
		...(item.reference === undefined ? {} : { reference: item.reference }),
		...fields,
	};
}

async function existingRecord(context: IExecuteFunctions, item: PreparedItem): Promise<IDataObject | undefined> {
	if (!item.request.findExisting || item.reference === undefined) return undefined;
	try {
		return await item.request.findExisting(context, item.reference);
	} catch {
		return undefined; // the look-up is a courtesy; the item is already submitted either way
	}
}

export type ItemKeys = ReturnType<typeof itemKeys>;

/**
 * A failed send: refused as already submitted (an earlier run did it) gives an output; a clear
 * refusal forgets the key, so the item can be sent again once fixed; anything else may have been
 * carried out, so the key stays and the error says that a re-run will not send it again.
 */
async function afterFailure(context: IExecuteFunctions, keys: ItemKeys, item: PreparedItem, error: unknown): Promise<IDataObject> {
	const outcome = outcomeOf(error);
	if (outcome === 'alreadySubmitted') {
		await keys.markAccepted(item.key);
		const said = error instanceof Error ? error.message : String(error);
		return alreadySubmitted(
			item,
			{ sent: true, outcome: 'accepted', message: `The service refused it as already done: an earlier run did this. ${said}` },
			await existingRecord(context, item),
		);
	}
	if (outcome === 'refused') await keys.release(item.key);
	else if (error instanceof NodeApiError) {
		error.description = `${error.description ?? ''} This item will not be sent again by a re-run of this node (idempotency key ${item.key}): after checking that it was not carried out, run it with Duplicate Protection → Allow Resend.`.trim();
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) throw error;
	throw new NodeOperationError(context.getNode(), error as Error);
}

/** Sends one prepared item at most once; returns its output. */
export async function sendItem(context: IExecuteFunctions, keys: ItemKeys, item: PreparedItem): Promise<IDataObject> {
	const isNew = await keys.claim(item.key);
	if (!isNew && !item.allowResend) {
		const outcome = await keys.earlierOutcome(item.key);
		const message =
			outcome === 'accepted'
				? `Not sent again: an earlier run of this node already sent this item and the service accepted it. ${RESEND_HOW}`
				: 'Not sent again: an earlier run of this node sent this item but got no clear answer (a timeout, an HTTP 5xx, or the run was stopped), so it may have been carried out. Check with Transaction → Get or in the service’s dashboard; only if it was not, run it again with Duplicate Protection → Allow Resend.';
		return alreadySubmitted(item, { sent: false, outcome, message }, await existingRecord(context, item));
	}
	// Sent again on purpose: what an earlier run saw no longer speaks for this attempt.
	if (!isNew) await keys.forgetOutcome(item.key);

	let data: IDataObject;
	try {
		data = await apiRequest.call(context, 'POST', item.request.endpoint, {
			body: item.request.body,
			movesMoney: item.request.movesMoney ?? true,
		});
	} catch (error) {
		return await afterFailure(context, keys, item, error);
	}
	await keys.markAccepted(item.key);
	return item.request.present ? item.request.present(data) : data;
}
