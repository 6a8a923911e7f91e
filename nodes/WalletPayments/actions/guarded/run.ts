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
 *    Keys are recorded a window of items at a time (claimAhead.ts), several items in flight.
 * 3. A key that is already recorded is not sent again: the item is output as already submitted.
 * 4. The record is removed only when the service clearly refused (4xx), or when the item was
 *    claimed but never sent (the run stopped first); after a timeout, a 5xx or an unreadable
 *    answer it stays, because the money may have moved.
 * 5. Before the run ends, every record it made is checked to have held in the store (in queue
 *    mode another worker's store call can write over it) and written again where it did not.
 * 6. In queue mode a key is recorded with a `#claimed` marker and, once its claim held and just
 *    before its request leaves, gets a `#sending` marker: a Retry of a run whose worker died
 *    finds the keys that were claimed and never sent (no `#sending`, no `#accepted`) and sends
 *    them, after waiting out any live claim of them and under a claim of its own (takeOver).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { CLAIM_ROUNDS, claimToken, processedStore } from '../../../shared/ledger/store';
import { crossProcessWait } from '../../../shared/ledger/crossProcess';
import { derivedKey, doneOnceKey, optionalKey, referenceFromKey } from '../../helpers/idempotency';
import { alreadySentForAgent, isAgentTool } from '../../helpers/toolDescriptions';
import type { WaitSettings } from '../../helpers/settlement';
import { optionalText } from '../../helpers/validation';
import { outcomeOf } from '../../transport/errors';
import { apiRequest } from '../../transport/request';
import { claimAhead } from '../../../shared/ledger/windows';

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
	findExisting?: (
		context: IExecuteFunctions,
		reference: string,
	) => Promise<IDataObject | undefined>;
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

/**
 * How many records each node keeps (n8n drops the oldest beyond this): two per item (sent, and
 * accepted), so 310,000 items: 31 days of 10,000 payouts a day (README, "Exactly once").
 */
export const KEYS_REMEMBERED = 620_000;
/**
 * The most items one run of the node may send: the run, and a Retry of it that sends everything
 * again, fit in the store twice over, so neither can push out the other's records.
 */
export const MAX_RUN_ITEMS = KEYS_REMEMBERED / 4;
/**
 * In queue mode an item has four records (its key, claimed, sending, accepted), so half as many
 * items are remembered and one run may send half as many.
 */
export const MAX_QUEUE_RUN_ITEMS = MAX_RUN_ITEMS / 2;
const acceptedMarker = (key: string) => `${key}#accepted`;
/** Queue mode: written with the key, in the claim's first write. */
const claimedMarker = (key: string) => `${key}#claimed`;
/** Queue mode: written once the key's claim held, right before its request leaves. */
const sendingMarker = (key: string) => `${key}#sending`;
/** Queue mode: the claim of a Retry that sends a key the dead run claimed and never sent. */
const takeoverMarker = (key: string) => `${key}#takeover`;

/**
 * How long a Retry waits before it sends a key that an earlier run claimed and never marked
 * sending: the longest another run's claim can take from its first write to its sending markers
 * (CLAIM_ROUNDS attempts, each a write, a wait of at most 1.5 claim waits and a check, every call
 * shorter than the claim wait or the claim fails closed, then the sending markers' call, also
 * shorter), so that a claim still alive has marked its keys sending by then.
 */
export const takeoverWaitMs = (claimWaitMs: number) => (CLAIM_ROUNDS * 3.5 + 1) * claimWaitMs;

/**
 * What an earlier send of a recorded key saw: an answer with success, or no clear answer; or
 * `concurrent`: another run in another n8n process claimed it at the same moment (queue mode).
 */
export type Claim = 'new' | 'accepted' | 'unknown' | 'concurrent';

/**
 * The store's oldest records were dropped while this run was being sent: what it found new from
 * then on may have been sent by the run it repeats, so it sends nothing more.
 */
export class RecordsLost extends Error {}

/** Queue mode: a claim of keys could not be made sure of (ProcessedStore.claim): nothing more is sent. */
export class ClaimNotHeld extends Error {}

/**
 * The item keys of this node in n8n's store. Every call records many keys at once (one read and
 * one write of the node's row, whatever their number), and carries what happened to the items
 * sent since the last call: accepted ones get their marker, refused ones lose their record.
 *
 * `runMark` (made from what started the run) is recorded before the first keys and looked for
 * in every later call: it is older than every record of every run of the same data, so while it
 * is there, none of them was dropped by the store's limit. Once found, it must stay: if it is
 * gone, the run writes every record it made or found again, and a claim fails (RecordsLost).
 */
export function itemKeys(context: IExecuteFunctions, runMark?: string) {
	const store = processedStore(context, KEYS_REMEMBERED);
	let waitSetting: Promise<number | undefined> | undefined;
	/** The claim wait when several n8n processes share the store (queue mode), else undefined. */
	const crossWait = async () => await (waitSetting ??= crossProcessWait(context));
	const toMarkAccepted = new Set<string>();
	const toForget = new Set<string>();
	/** Every record this run made or found (keys and markers), less those it removed. */
	const kept = new Set<string>();
	let markHeld = false;
	const forget = (key: string) => {
		toMarkAccepted.delete(acceptedMarker(key));
		for (const value of [
			key,
			acceptedMarker(key),
			claimedMarker(key),
			sendingMarker(key),
			takeoverMarker(key),
		])
			toForget.add(value);
	};
	const forgetNow = async () => {
		if (toForget.size === 0) return;
		const values = [...toForget];
		toForget.clear();
		for (const value of values) kept.delete(value);
		await store.remove(values);
	};
	const recordWith = async (keys: string[], token?: string) => {
		const marks = [...toMarkAccepted];
		toMarkAccepted.clear();
		// The mark first: in the first call of a run, it goes into the row before the keys.
		const found = new Set(
			await store.record([
				...(runMark ? [runMark] : []),
				...keys,
				...marks,
				...(token ? [token] : []),
			]),
		);
		for (const value of [...keys, ...marks]) kept.add(value);
		if (runMark !== undefined) {
			if (markHeld && !found.has(runMark)) {
				// Older records of this data are gone: this run's own, and those it found, are written
				// again; what it has not reached yet cannot be known, so it sends nothing more.
				await store.record([...kept]);
				if (keys.length > 0)
					throw new RecordsLost(
						'n8n’s de-duplication store dropped this node’s oldest records while this run was being sent',
					);
			}
			markHeld ||= found.has(runMark);
		}
		return found;
	};
	/**
	 * Queue mode: the sending markers of the keys about to be sent (with the answers so far), the
	 * last store call before their requests leave. A call as long as the claim wait or longer may
	 * land after a Retry looked for these markers (takeoverWaitMs): nothing is sent.
	 */
	const markSending = async (keys: string[], wait: number) => {
		if (keys.length === 0) return;
		const start = Date.now();
		await store.atomically(async () => await recordWith(keys.map(sendingMarker)));
		const ms = Date.now() - start;
		if (ms >= wait) {
			for (const key of keys) forget(key);
			throw new ClaimNotHeld(
				`one of n8n's store calls took ${ms} ms, as long as the claim wait (${wait} ms) or longer`,
			);
		}
	};
	/**
	 * A Retry (queue mode): `unsent` keys were claimed by an earlier run that never marked them
	 * sending, the dead run or a run still alive in its claim. After waiting out any live claim,
	 * the ones still not sending nor accepted are claimed once more, by this run alone (the
	 * claim protocol on their takeover markers), and returned to be sent; the others stay as
	 * they are in `claims` (accepted, or unknown) or become `concurrent` (another Retry took them).
	 */
	const takeOver = async (
		unsent: string[],
		claims: Map<string, Claim>,
		wait: number,
	): Promise<string[]> => {
		await sleep(takeoverWaitMs(wait));
		const still = await store.atomically(async () => {
			const asked = unsent.flatMap((key) => [acceptedMarker(key), sendingMarker(key)]);
			const present = new Set(await store.record(asked));
			for (const marker of asked) (present.has(marker) ? kept : toForget).add(marker);
			await forgetNow();
			for (const key of unsent) if (present.has(acceptedMarker(key))) claims.set(key, 'accepted');
			return unsent.filter(
				(key) => !present.has(acceptedMarker(key)) && !present.has(sendingMarker(key)),
			);
		});
		if (still.length === 0) return [];
		const held = await store.claim(still.map(takeoverMarker), wait);
		const ours = still.filter((key) => held.ours.includes(takeoverMarker(key)));
		for (const key of still)
			if (held.theirs.includes(takeoverMarker(key))) claims.set(key, 'concurrent');
		if (held.unresolved.length > 0) {
			throw new ClaimNotHeld(
				`n8n could not make sure that no other run sends the items the crashed run claimed and never sent: ${held.why ?? 'unknown'}`,
			);
		}
		for (const key of ours) {
			kept.add(takeoverMarker(key));
			claims.set(key, 'new');
		}
		return ours;
	};
	return {
		/**
		 * Records the keys (the items about to be sent); returns what each one is: new, or recorded
		 * before with what its send saw. Keys in `resend` (Allow Resend) forget what they saw.
		 */
		claim: async (keys: string[], resend: ReadonlySet<string>): Promise<Map<string, Claim>> => {
			const wait = await crossWait();
			const queue = wait !== undefined && keys.length > 0;
			const token = queue ? claimToken() : undefined;
			// Only a Retry (of a run that crashed or failed) takes over keys claimed and never sent.
			const retry = queue && context.getMode() === 'retry';
			if (queue) await store.warmUp();
			let callMs = 0;
			let unsent: string[] = [];
			let resending: string[] = [];
			const claims = await store.atomically(async () => {
				await forgetNow();
				const start = Date.now();
				const found = await recordWith(queue ? [...keys, ...keys.map(claimedMarker)] : keys, token);
				callMs = Date.now() - start;
				const claims = new Map<string, Claim>(
					keys.map((key) => [key, found.has(key) ? 'unknown' : 'new']),
				);
				const again = keys.filter((key) => found.has(key));
				const asked = again.filter((key) => !resend.has(key)).map(acceptedMarker);
				// Queue mode: a key recorded before without its claimed marker (by one n8n process, or an
				// older version) has just been given one; it gets its sending marker too, so that no Retry
				// takes it for a key claimed and never sent. A Retry asks whether the others were sent.
				const neutral = queue
					? again.filter((key) => !found.has(claimedMarker(key))).map(sendingMarker)
					: [];
				if (retry)
					asked.push(
						...again
							.filter((key) => !resend.has(key) && found.has(claimedMarker(key)))
							.map(sendingMarker),
					);
				if (asked.length + neutral.length > 0) {
					const present = new Set(await store.record([...asked, ...neutral]));
					for (const marker of [...asked, ...neutral]) kept.add(marker);
					for (const key of again)
						if (present.has(acceptedMarker(key))) claims.set(key, 'accepted');
					// Asking recorded the markers that were not there: they were not seen.
					for (const marker of asked) if (!present.has(marker)) toForget.add(marker);
					unsent = retry
						? again.filter(
								(key) =>
									!resend.has(key) &&
									found.has(claimedMarker(key)) &&
									!present.has(acceptedMarker(key)) &&
									!present.has(sendingMarker(key)),
							)
						: [];
				}
				resending = again.filter((key) => resend.has(key));
				for (const key of resending) toForget.add(acceptedMarker(key));
				await forgetNow();
				return claims;
			});
			if (!queue || wait === undefined) return claims;
			const taken = unsent.length > 0 ? await takeOver(unsent, claims, wait) : [];
			const fresh = keys.filter((key) => claims.get(key) === 'new' && !taken.includes(key));
			let ours: string[] = [];
			if (fresh.length > 0) {
				// The keys found new are this run's only if the write held (outside the lock: other
				// executions of this process go on meanwhile).
				const held = await store.confirm(token!, fresh, wait, callMs);
				for (const key of held.theirs) claims.set(key, 'concurrent');
				if (held.unresolved.length > 0) {
					for (const key of [...held.ours, ...taken]) forget(key);
					for (const key of held.unresolved) kept.delete(key);
					throw new ClaimNotHeld(
						`n8n could not make sure that no other run records these items at the same moment: ${held.why ?? 'unknown'}`,
					);
				}
				ours = held.ours;
			}
			// Allow Resend sends a key recorded before: it is marked sending like a new one.
			await markSending([...ours, ...taken, ...resending], wait);
			return claims;
		},
		/** The service accepted the item (recorded with the next store call). */
		accepted: (key: string) => {
			toMarkAccepted.add(acceptedMarker(key));
		},
		/** The item was refused, or never sent: its record goes (with the next store call). */
		release: forget,
		/** The claim wait when other n8n processes share the store (queue mode), else undefined. */
		crossWait,
		/** Writes what is still to be written. */
		flush: async () =>
			await store.atomically(async () => {
				await forgetNow();
				if (toMarkAccepted.size > 0) await recordWith([]);
			}),
		/** Checks every record held (only needed where other processes write the store). */
		settle: async () => {
			if ((await crossWait()) !== undefined) await store.settle();
		},
	};
}

export type ItemKeys = ReturnType<typeof itemKeys>;

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
	const givenReference = request.reference
		? optionalText(request.reference.given, 'Reference', 100)
		: undefined;
	const key =
		optionalKey(protection.idempotencyKey, 'Idempotency Key') ??
		givenReference ??
		(request.doneOnceFor === undefined
			? undefined
			: doneOnceKey(request.endpoint, request.doneOnceFor)) ??
		derivedKey({ workflowId, nodeId, origin, itemIndex, request: request.body });
	let reference: string | undefined;
	if (request.reference) {
		reference = givenReference ?? referenceFromKey(workflowId, nodeId, key);
		request.body = { ...request.body, reference };
	}
	return { itemIndex, request, key, reference, allowResend: protection.allowResend === true };
}

const RESEND_HOW = 'To send it anyway, turn on Duplicate Protection → Allow Resend.';

function alreadySubmitted(
	item: PreparedItem,
	fields: IDataObject,
	existing?: IDataObject,
): IDataObject {
	return {
		...existing,
		alreadySubmitted: true,
		idempotencyKey: item.key,
		...(item.reference === undefined ? {} : { reference: item.reference }),
		...fields,
	};
}

async function existingRecord(
	context: IExecuteFunctions,
	item: PreparedItem,
): Promise<IDataObject | undefined> {
	if (!item.request.findExisting || item.reference === undefined) return undefined;
	try {
		return await item.request.findExisting(context, item.reference);
	} catch {
		return undefined; // the look-up is a courtesy; the item is already submitted either way
	}
}

/**
 * A failed send: refused as already submitted (an earlier run did it) gives an output; a clear
 * refusal forgets the key, so the item can be sent again once fixed; anything else may have been
 * carried out, so the key stays and the error says that a re-run will not send it again.
 */
async function afterFailure(
	context: IExecuteFunctions,
	keys: ItemKeys,
	item: PreparedItem,
	error: unknown,
): Promise<IDataObject> {
	const outcome = outcomeOf(error);
	if (outcome === 'alreadySubmitted') {
		keys.accepted(item.key);
		const said = error instanceof Error ? error.message : String(error);
		return alreadySubmitted(
			item,
			{
				sent: true,
				outcome: 'accepted',
				message: `The service refused it as already done: an earlier run did this. ${said}`,
			},
			await existingRecord(context, item),
		);
	}
	if (outcome === 'refused') keys.release(item.key);
	else if (error instanceof NodeApiError) {
		error.description =
			`${error.description ?? ''} This item will not be sent again by a re-run of this node (idempotency key ${item.key}): after checking that it was not carried out, run it with Duplicate Protection → Allow Resend.`.trim();
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) throw error;
	throw new NodeOperationError(context.getNode(), error as Error);
}

/** Sends one prepared item whose key was claimed, unless an earlier run sent it; returns its output. */
async function sendClaimed(
	context: IExecuteFunctions,
	keys: ItemKeys,
	item: PreparedItem,
	claim: Claim,
	onSend: () => void,
): Promise<IDataObject> {
	if (claim !== 'new' && !item.allowResend) {
		const message =
			claim === 'concurrent'
				? `Not sent: another run of this node (in another n8n process) recorded this item at the same moment and sends it. ${RESEND_HOW}`
				: claim === 'accepted'
					? `Not sent again: an earlier run of this node already sent this item and the service accepted it. ${RESEND_HOW}`
					: 'Not sent again: an earlier run of this node sent this item but got no clear answer (a timeout, an HTTP 5xx, or the run was stopped), so it may have been carried out. Check with Transaction → Get or in the service’s dashboard; only if it was not, run it again with Duplicate Protection → Allow Resend.';
		const outcome = claim === 'concurrent' ? 'unknown' : claim;
		// An AI agent reads the message: first what it means for it, in plain words.
		const said = isAgentTool(context) ? `${alreadySentForAgent(outcome)} ${message}` : message;
		return alreadySubmitted(
			item,
			{ sent: false, outcome, message: said },
			await existingRecord(context, item),
		);
	}
	onSend();
	let data: IDataObject;
	try {
		data = await apiRequest.call(context, 'POST', item.request.endpoint, {
			body: item.request.body,
			movesMoney: item.request.movesMoney ?? true,
		});
	} catch (error) {
		return await afterFailure(context, keys, item, error);
	}
	keys.accepted(item.key);
	return item.request.present ? item.request.present(data) : data;
}

/** "0–41, 43, 45–47": item indexes as ranges. */
function itemRanges(indexes: number[]): string {
	const sorted = [...indexes].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let i = 0; i < sorted.length; i++) {
		let j = i;
		while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
		ranges.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
		i = j;
	}
	return ranges.join(', ');
}

/** The store could not record an item before its send: it is not sent, and nothing after it is. */
function notRecorded(
	context: IExecuteFunctions,
	error: unknown,
	sent: number[],
): NodeOperationError {
	const why = error instanceof Error ? error.message : String(error);
	const sentSoFar =
		sent.length === 0
			? 'No item of this run was sent.'
			: `Items sent by this run: ${itemRanges(sent)} (${sent.length}).`;
	const lost =
		error instanceof RecordsLost
			? ' The run it repeats may have sent items this run found new: check the items after those before running them again.'
			: '';
	return new NodeOperationError(
		context.getNode(),
		`Not sent: n8n could not record this item before sending it (${why})`,
		{
			description: `Nothing more was sent by this run. ${sentSoFar}${lost}`,
		},
	);
}

/**
 * One run of a node's items through the guard: each item's key is recorded before its request
 * leaves (in windows, ahead of the senders: claimAhead.ts), an item recorded before is output as
 * already submitted, and `finish` writes what is left and checks that every record held.
 */
export function guardedRun(
	context: IExecuteFunctions,
	items: PreparedItem[],
	origin: string,
	inFlight: number,
) {
	if (items.length > MAX_RUN_ITEMS) {
		throw new NodeOperationError(
			context.getNode(),
			`Nothing was sent: ${items.length} items are more than one run of this node may send (${MAX_RUN_ITEMS})`,
			{
				description: `The node remembers ${KEYS_REMEMBERED / 2} items so that no re-run sends one twice; one run may use a quarter of that. Split the items over several runs (e.g. with a Loop Over Items node).`,
			},
		);
	}
	const keys = itemKeys(context, origin === '' ? undefined : `n8n-run:${origin}`);
	const ahead = claimAhead(keys, items, inFlight);
	const byIndex = new Map(items.map((item) => [item.itemIndex, item]));
	const sent: number[] = [];
	let sizeChecked: Promise<void> | undefined;
	/** Queue mode keeps four records per item (itemKeys): a run may send half as many items. */
	const checkQueueSize = async () => {
		if (items.length > MAX_QUEUE_RUN_ITEMS && (await keys.crossWait()) !== undefined) {
			throw new NodeOperationError(
				context.getNode(),
				`Nothing was sent: ${items.length} items are more than one run of this node may send in queue mode (${MAX_QUEUE_RUN_ITEMS})`,
				{
					description: `In queue mode the node remembers ${KEYS_REMEMBERED / 4} items so that no re-run sends one twice; one run may use half of that. Split the items over several runs (e.g. with a Loop Over Items node).`,
				},
			);
		}
	};
	return {
		send: async (itemIndex: number): Promise<IDataObject> => {
			await (sizeChecked ??= checkQueueSize());
			const item = byIndex.get(itemIndex)!;
			try {
				let claim: Claim;
				try {
					claim = await ahead.claimFor(itemIndex);
				} catch (error) {
					throw notRecorded(context, error, sent);
				}
				return await sendClaimed(context, keys, item, claim, () => sent.push(itemIndex));
			} finally {
				ahead.finished(itemIndex);
			}
		},
		/** Frees the records of items claimed but never sent, writes what is left, checks it held. */
		finish: async () => {
			await ahead.releaseUnsent();
			await keys.flush();
			await keys.settle();
		},
	};
}
