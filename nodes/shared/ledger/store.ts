/**
 * n8n's own de-duplication store (the database table behind the Remove Duplicates node), as both
 * nodes use it: values recorded per workflow and node, kept after the execution, seen by every
 * later execution, retry and worker that shares the database.
 *
 * n8n's store reads, changes and writes one row per node without a lock. Every call from this
 * package goes through one queue, so that two executions in this process cannot interleave
 * between the read and the write and both find a value new. Across processes (queue-mode
 * workers) nothing serializes the calls: the first insert of a node's row can collide (retried
 * here), and a read-change-write of another process that read the row before this one wrote
 * writes it back without this one's values (measured: up to 3 in 10 lost with 2 workers).
 *
 * So, in queue mode, a record that must be one process's alone is a claim (claim(): written with
 * a token, checked after a wait to have held), and every value this store records is checked
 * again once it is older than a store call can take (SETTLE_MS): a value another process's call
 * wrote over is written again, and checked again later, until each one held (README, "Running
 * in queue mode").
 */
import { randomUUID } from 'crypto';

import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

/**
 * How long one store call (n8n reads the node's row, then writes it back) is taken to last at
 * most: a value still in the row this long after it was written can no longer be written over by
 * a call that read the row before it.
 */
export const SETTLE_MS = 1000;
/**
 * A check waits at least this many times the longest store call this process has seen (a large
 * row makes every call slower, and another process's calls take about as long as this one's).
 */
const SETTLE_CALLS = 3;
/** Checks of the same values before giving up (each one SETTLE_MS after the last write). */
const SETTLE_ROUNDS = 20;

let queue: Promise<unknown> = Promise.resolve();

/**
 * The rows (workflow and node) this process has read. The first store call of an n8n process takes
 * far longer than the others (measured in queue mode: over 2 s on a cold worker), too long for a
 * claim, and a slow call that writes can write over another process's claim: a claim's first
 * write on a row comes after a warm-up that only reads (the count of the row's values).
 */
const warmRows = new Set<string>();

function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
	const run = queue.then(task, task);
	queue = run.catch(() => undefined);
	return run;
}

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

/** A value unique to one claim attempt (see ProcessedStore.claim). */
export const claimToken = () => `n8n-claim:${randomUUID()}`;

/**
 * Attempts of a claim (record, wait, check) before its values are given up as unresolved. Under
 * load an attempt is written over often (measured in queue mode: about 1 in 7 with 2 workers and
 * 20 runs of one workflow at once), so one more attempt is cheap insurance against failing a run.
 */
export const CLAIM_ROUNDS = 6;

/**
 * What a claim found. `ours`: recorded by this claim, and its write held through the wait, so no
 * other claim of the same value at the same moment holds it. `theirs`: recorded before (an
 * earlier run, or another process's claim that held). `unresolved`: neither could be made sure
 * of (the store lost every attempt, or a store call took longer than the wait allows); whoever
 * asked must not act on them.
 */
export interface ClaimResult {
	ours: string[];
	theirs: string[];
	unresolved: string[];
	/** Why some are unresolved, for the user. */
	why?: string;
}

export interface ProcessedStore {
	/** Records the values; returns those that were already recorded. */
	record(values: string[]): Promise<string[]>;
	remove(values: string[]): Promise<void>;
	/**
	 * Records values so that, of several n8n processes recording one at the same moment, exactly
	 * one gets it (the store itself has no lock). Each attempt writes the values with a token unique
	 * to it, waits `waitMs`, and checks that the token is still there: a write that another
	 * process's read-change-write dropped is not a claim. `waitMs` must be at least twice the
	 * longest time between a store call's read and its write, in any process: then every write
	 * that could drop this one, or that this one dropped, is over before either side checks, and
	 * both see the same row. A store call of this process taking all of `waitMs` or longer (from
	 * asking for a connection to the answer) may have written over another claim of the same value
	 * that had already held: its values are unresolved.
	 */
	claim(values: string[], waitMs: number): Promise<ClaimResult>;
	/**
	 * The rest of a claim whose first write the caller made itself, with record(): `token` (from
	 * claimToken()) was recorded in that call together with `values`, which it found new, and the
	 * call took `callMs`.
	 */
	confirm(token: string, values: string[], waitMs: number, callMs: number): Promise<ClaimResult>;
	/** Reads the row once per process (before a claim's first write): a cold first call is slow. */
	warmUp(): Promise<void>;
	/** Runs several store calls with nothing from another execution in between. */
	atomically<T>(task: () => Promise<T>): Promise<T>;
	/**
	 * Waits until every value recorded here is SETTLE_MS old (or SETTLE_CALLS times the longest
	 * store call seen, when that is longer) and checks it is still in the store,
	 * writing again (and checking again later) any value another process's call wrote over.
	 * Values checked on the way (by later calls of this store) are not waited for again.
	 */
	settle(): Promise<void>;
}

/**
 * The store of this node of this workflow, keeping the last `maxEntries` values. Fails (sends
 * nothing) where n8n cannot keep it: no store in this n8n, or a workflow never saved.
 */
export function processedStore(context: IExecuteFunctions, maxEntries: number): ProcessedStore {
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
	/**
	 * One call of n8n's store, timed: its time bounds the time between its read and its write, the
	 * claim's timing assumption (n8n's debug log shows each one, for measuring it).
	 */
	const storeCall = async <T>(
		values: number,
		task: () => Promise<T>,
	): Promise<{ answer: T; ms: number }> => {
		const start = Date.now();
		const answer = await afterRowRace(task);
		const ms = Date.now() - start;
		context.logger?.debug(`wallet-payments store call ${ms} ms (${values} values)`);
		return { answer, ms };
	};
	let inside = false;
	const guarded = <T>(task: () => Promise<T>) => (inside ? task() : oneAtATime(task));
	/** Values this store wrote and has not yet seen held, with when each was last written. */
	const unsettled = new Map<string, number>();

	/**
	 * One store call: records `values`, and checks again the unsettled values that are old enough
	 * (a check is a record: a value found missing is written again). Returns `values` already there.
	 */
	/** The longest store call seen, in ms: a check waits for calls of that length to be over. */
	let longestCall = 0;
	const settleMs = () => Math.max(SETTLE_MS, SETTLE_CALLS * longestCall);
	const recordAndCheck = async (values: string[], checkAll = false) => {
		const now = Date.now();
		const wait = settleMs();
		const asked = new Set(values);
		const due = [...unsettled]
			.filter(([value, at]) => (checkAll || now - at >= wait) && !asked.has(value))
			.map(([value]) => value);
		const sent = [...values, ...due];
		if (sent.length === 0) return [];
		const found = new Set(
			(
				await storeCall(
					sent.length,
					async () => await checkProcessedAndRecord.call(context.helpers, sent, 'node', options),
				)
			).answer.processed.map(String),
		);
		const writtenAt = Date.now();
		longestCall = Math.max(longestCall, writtenAt - now);
		// One not found has just been written (again); one found long enough after its write held.
		for (const value of sent) {
			if (!found.has(value)) unsettled.set(value, writtenAt);
			else if (unsettled.has(value) && now - unsettled.get(value)! >= wait) unsettled.delete(value);
		}
		return values.filter((value) => found.has(value));
	};

	/** One store call outside the unsettled bookkeeping: what was already there, and how long it took. */
	const rawRecord = async (values: string[]) => {
		const { answer, ms } = await storeCall(
			values.length,
			async () => await checkProcessedAndRecord.call(context.helpers, values, 'node', options),
		);
		return { found: new Set(answer.processed.map(String)), ms };
	};

	const rowKey = `${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
	const warmUp = async () => {
		if (warmRows.has(rowKey)) return;
		const { getProcessedDataCount } = context.helpers;
		if (typeof getProcessedDataCount === 'function') {
			const start = Date.now();
			await getProcessedDataCount.call(context.helpers, 'node', options);
			context.logger?.debug(`wallet-payments store warm-up ${Date.now() - start} ms (read only)`);
		}
		warmRows.add(rowKey);
	};

	/**
	 * The claim protocol (see ProcessedStore.claim). `started`: the first attempt's write was
	 * already made by the caller (with its own values), with this token, taking this long; its
	 * `values` are the ones that call found new.
	 */
	const claimRounds = async (
		values: string[],
		waitMs: number,
		started?: { token: string; callMs: number },
	): Promise<ClaimResult> => {
		const result: ClaimResult = { ours: [], theirs: [], unresolved: [] };
		let pending = [...new Set(values)];
		for (let round = 0; round < CLAIM_ROUNDS && pending.length > 0; round++) {
			let token: string;
			let callMs: number;
			if (round === 0 && started) {
				({ token, callMs } = started);
				unsettled.delete(token);
			} else {
				token = claimToken();
				const written = await guarded(async () => await rawRecord([...pending, token]));
				callMs = written.ms;
				result.theirs.push(...pending.filter((value) => written.found.has(value)));
				pending = pending.filter((value) => !written.found.has(value));
			}
			if (callMs >= waitMs) {
				result.why = `one of n8n's store calls took ${callMs} ms, as long as the claim wait (${waitMs} ms) or longer`;
				break;
			}
			if (pending.length === 0) break;
			// Later attempts wait a little longer at random, so that two claims written over together do
			// not keep meeting.
			await sleep(round === 0 ? waitMs : waitMs + Math.floor(Math.random() * (waitMs / 2)));
			const checked = await guarded(async () => await rawRecord([token]));
			if (checked.ms >= waitMs) {
				result.why = `one of n8n's store calls took ${checked.ms} ms, as long as the claim wait (${waitMs} ms) or longer`;
				break;
			}
			if (checked.found.has(token)) {
				result.ours.push(...pending);
				pending = [];
			} else {
				// Another process's call wrote the row over this attempt: what the next attempt finds is
				// the other claim's, and what it does not find it records again.
				result.why = `another n8n process's store call wrote over this claim ${round + 1} time(s)`;
			}
		}
		result.unresolved.push(...pending);
		// Only what held is this claim's to keep: the rest is not written again by settle().
		for (const value of [...result.theirs, ...result.unresolved]) unsettled.delete(value);
		return result;
	};

	return {
		warmUp,
		claim: async (values, waitMs) => {
			await warmUp();
			return await claimRounds(values, waitMs);
		},
		confirm: async (token, values, waitMs, callMs) =>
			await claimRounds(values, waitMs, { token, callMs }),
		record: async (values) => await guarded(async () => await recordAndCheck(values)),
		remove: async (values) =>
			await guarded(async () => {
				for (const value of values) unsettled.delete(value);
				await storeCall(
					values.length,
					async () => await removeProcessed.call(context.helpers, values, 'node', options),
				);
			}),
		settle: async () => {
			for (let round = 0; round < SETTLE_ROUNDS && unsettled.size > 0; round++) {
				const lastWrite = Math.max(...unsettled.values());
				await sleep(Math.max(0, lastWrite + settleMs() - Date.now()));
				await guarded(async () => await recordAndCheck([], true));
			}
			if (unsettled.size > 0) {
				throw new NodeOperationError(
					context.getNode(),
					`n8n's de-duplication store kept losing ${unsettled.size} of this node's records`,
					{
						description: `Another n8n process wrote this node's row over them ${SETTLE_ROUNDS} times in a row. What this run did is done; a re-run may not know it. Check before running these items again.`,
					},
				);
			}
		},
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
