/**
 * The store: n8n's de-duplication store (the table behind the Remove Duplicates node), one row
 * per workflow and node, as the ledger uses it. This process's calls go through one queue; across
 * processes nothing serializes them, hence claims and verify (docs/ledger.md, "The claim").
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ensureRoom, FITS_ANY_DATABASE, probedRoom } from './capacity';
import { claim, type ClaimResult } from './claim';
import { afterPoolTimeout } from './pool';
import { mergedRemove, mergedWrite, oneAtATime } from './serial';
import { verification } from './verify';

/**
 * The rows (workflow and node) this process has read. The first store call of an n8n process takes
 * far longer than the others (measured in queue mode: over 2 s on a cold worker), too long for a
 * claim, and a slow call that writes can write over another process's claim: a claim's first
 * write on a row comes after a warm-up that only reads (the count of the row's values).
 */
const warmRows = new Map<string, Promise<void>>();

/**
 * A unique-key violation on the store's row: two processes (queue-mode workers) recorded this
 * node's first values at the same moment, both found no row and both inserted one. The losing
 * insert wrote nothing, and the row now exists.
 */
function isRowRace(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return /duplicate key|unique constraint|ER_DUP_ENTRY/i.test(message);
}

/** Runs a store call again after a row race (up to 3 tries): then it updates the row the other made. */
async function afterRowRace<T>(task: () => Promise<T>): Promise<T> {
	for (let attempt = 1; attempt < 3; attempt++) {
		const tried = await task().then(
			(value) => ({ ok: true as const, value }),
			(error: unknown) => ({ ok: false as const, error }),
		);
		if (tried.ok) return tried.value;
		// Anything else than the collision is n8n's error, passed on unchanged.
		if (!isRowRace(tried.error)) return await Promise.reject(tried.error);
	}
	return await task();
}

export interface Store {
	/** Records the values; returns those that were already recorded. */
	record(values: string[]): Promise<string[]>;
	/** One write of the values, merged as a claim's are (serial.ts), outside verify's bookkeeping. */
	write(values: string[]): Promise<{ found: Set<string>; ms: number }>;
	remove(values: string[]): Promise<void>;
	/** Removes values no verify() keeps, merged with this row's other removals waiting (serial.ts). */
	forget(values: string[]): Promise<void>;
	/**
	 * Which of `values` are there, recording none of them: records them (past the store's limit, so
	 * that no old record is pushed out) and removes at once those that were not there.
	 */
	ask(values: string[]): Promise<Set<string>>;
	/** Claims the values (claim.ts), after warming up the row. */
	claim(values: string[], waitMs: number, wrote?: (token: string) => void): Promise<ClaimResult>;
	/**
	 * The rest of a claim whose first write the caller made itself, with record(): `token` (from
	 * claimToken()) was recorded in that call together with `values`, which it found new, and the
	 * call took `callMs`.
	 */
	confirm(
		token: string,
		values: string[],
		waitMs: number,
		callMs: number,
		wrote?: (token: string) => void,
	): Promise<ClaimResult>;
	/** Reads the row once per process (before a claim's first write): a cold first call is slow. */
	warmUp(): Promise<void>;
	/** How many values the row holds; undefined where this n8n cannot say. */
	count(): Promise<number | undefined>;
	/** The longest store call so far, in ms (the warm-up's read aside). */
	slowestCall(): number;
	/** Runs several store calls with nothing from another execution in between. */
	atomically<T>(task: () => Promise<T>): Promise<T>;
	/** Checks that every value recorded here held, writing again what did not (verify.ts). */
	verify(): Promise<void>;
}

/**
 * The store of this node of this workflow, keeping the last `maxEntries` values. Fails (sends
 * nothing) where n8n cannot keep it: no store in this n8n, or a workflow never saved.
 */
export function openStore(context: IExecuteFunctions, maxEntries: number): Store {
	const { checkProcessedAndRecord, removeProcessed } = context.helpers;
	if (typeof checkProcessedAndRecord !== 'function' || typeof removeProcessed !== 'function') {
		throw new NodeOperationError(
			context.getNode(),
			'This n8n has no de-duplication store, so nothing was done',
			{
				description:
					'Update n8n: the store comes with the Remove Duplicates node (n8n 1.70 and later).',
			},
		);
	}
	if (!context.getWorkflow().id) {
		throw new NodeOperationError(context.getNode(), 'Save the workflow first: nothing was sent', {
			description:
				'n8n remembers which items were done per saved workflow, so that no re-run does them twice; an unsaved workflow has no place to remember them.',
		});
	}
	const options = { mode: 'entries', maxEntries } as const;
	/** The longest store call of this store so far, in ms (slowCalls.ts). */
	let slowest = 0;
	/**
	 * One call of n8n's store, timed: its time bounds the time between its read and its write, the
	 * claim's timing assumption (n8n's debug log shows each one, for measuring it).
	 */
	const storeCall = async <T>(
		values: number,
		task: () => Promise<T>,
	): Promise<{ answer: T; ms: number }> => {
		const { answer, ms } = await afterPoolTimeout(async () => await afterRowRace(task));
		context.logger?.debug(`wallet-payments store call ${ms} ms (${values} values)`);
		slowest = Math.max(slowest, ms);
		return { answer, ms };
	};
	let inside = false;
	const serial = <T>(task: () => Promise<T>) => (inside ? task() : oneAtATime(task));

	/** One store call that records `values`: those already there, and how long it took. */
	const write = async (values: string[], keep = options) => {
		const { answer, ms } = await storeCall(
			values.length,
			async () => await checkProcessedAndRecord.call(context.helpers, values, 'node', keep),
		);
		return { found: new Set(answer.processed.map(String)), ms };
	};
	const held = verification(context, write);
	const rowKey = `${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
	const claimStore = {
		// Claims' writes and checks of one row are merged while they wait (serial.ts).
		write: async (values: string[]) =>
			inside
				? await write(values)
				: await mergedWrite(`${rowKey}|${maxEntries}`, values, async (all) => await write(all)),
		disown: held.disown,
	};

	const count = async () => {
		const { getProcessedDataCount } = context.helpers;
		if (typeof getProcessedDataCount !== 'function') return undefined;
		return await afterPoolTimeout(
			async () => await getProcessedDataCount.call(context.helpers, 'node', options),
		);
	};
	const readOnce = async () => {
		const read = await count();
		if (read) context.logger?.debug(`wallet-payments store warm-up ${read.ms} ms (read only)`);
	};
	// The claims of a burst start together: one warm-up for all of them.
	const warmUp = async () => {
		const warming = warmRows.get(rowKey) ?? readOnce();
		warmRows.set(rowKey, warming);
		// Failed: the next claim warms up again; this one fails with n8n's error, as before.
		await warming.catch(async (error: unknown) => {
			if (warmRows.get(rowKey) === warming) warmRows.delete(rowKey);
			return await Promise.reject(error);
		});
	};

	const removeAt = async (values: string[]) =>
		await storeCall(
			values.length,
			async () => await removeProcessed.call(context.helpers, values, 'node', options),
		);

	/** Before the row's first record: a caller that keeps more than any database holds probes it (capacity.ts). */
	const roomy = (values: string[]) => ({ ...options, maxEntries: maxEntries + values.length });
	const room = async () => {
		if (maxEntries <= FITS_ANY_DATABASE || probedRoom(rowKey) === true) return;
		// Not yet probed (or refused, which ensureRoom throws again): in the row's queue.
		await serial(
			async () =>
				await ensureRoom(context, rowKey, {
					// Past maxEntries, so that the probe pushes no old record out of a full row.
					record: async (values) => await write(values, roomy(values)),
					readBack: async (values) => await write(values, roomy(values)),
					remove: removeAt,
				}),
		);
	};
	return {
		warmUp,
		count: async () => (await count())?.answer,
		claim: async (values, waitMs, wrote) => {
			// Warm first: the probe writes, and a claim's first write must not be a cold call.
			await warmUp();
			await room();
			return await claim(claimStore, values, waitMs, undefined, wrote);
		},
		confirm: async (token, values, waitMs, callMs, wrote) =>
			await claim(claimStore, values, waitMs, { token, callMs }, wrote),
		write: async (values) => {
			await room();
			return await claimStore.write(values);
		},
		record: async (values) => {
			await room();
			return await serial(async () => await held.record(values));
		},
		forget: async (values) =>
			inside
				? void (await removeAt(values))
				: await mergedRemove(`${rowKey}|${maxEntries}`, values, removeAt),
		remove: async (values) =>
			await serial(async () => {
				held.disown(values);
				await removeAt(values);
			}),
		ask: async (values) => {
			await room();
			return await serial(async () => {
				const asked = [...new Set(values)];
				if (asked.length === 0) return new Set<string>();
				const { found } = await write(asked, roomy(asked));
				const absent = asked.filter((value) => !found.has(value));
				if (absent.length > 0) await removeAt(absent);
				return found;
			});
		},
		verify: async () => await held.verify(serial),
		slowestCall: () => slowest,
		atomically: async (task) =>
			await oneAtATime(async () => {
				inside = true;
				try {
					return await task();
				} finally {
					inside = false;
				}
			}),
	};
}
