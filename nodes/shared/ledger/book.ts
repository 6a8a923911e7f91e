/**
 * The book of one run: the records it made or found in the store, and what it still has to write
 * (accepted markers) or remove (released keys). Every store call records many keys at once (one
 * read and one write of the node's row, whatever their number) and carries what happened to the
 * items sent since the last call.
 *
 * The run's mark (states.ts runMark) is recorded before the first keys and looked for in every
 * later call: it is older than every record of every run of the same data, so while it is there,
 * none of them was dropped by the store's limit. Once found, it must stay: if it is gone, the run
 * writes every record it made or found again, and the call fails (RecordsLost).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { readClaimWait } from './claimWait';
import { dayMark, dayValue, utcDay } from './days';
import { acceptedMarker, KEYS_REMEMBERED, recordsOf, sendingMarker } from './states';
import { openStore } from './store';

/**
 * The store's oldest records were dropped while this run was being sent: what it found new from
 * then on may have been sent by the run it repeats, so it sends nothing more.
 */
export class RecordsLost extends Error {}

/** Queue mode: a claim of keys could not be made sure of (claim.ts): nothing more is sent. */
export class ClaimNotHeld extends Error {}

export type Book = ReturnType<typeof openBook>;

export function openBook(context: IExecuteFunctions, mark?: string) {
	const store = openStore(context, KEYS_REMEMBERED);
	let waitSetting: Promise<number | undefined> | undefined;
	/** The claim wait when several n8n processes share the store (queue mode), else undefined. */
	const claimWait = async () => await (waitSetting ??= readClaimWait(context));
	const toMarkAccepted = new Set<string>();
	/** Keys accepted since the last call, with the day (days.ts). */
	const toDate = new Map<string, string>();
	const toRemove = new Set<string>();
	/** Every record this run made or found (keys and markers), less those it removed. */
	const kept = new Set<string>();
	let markHeld = false;
	/** A value this run added at or after the mark's latest addition (markLostTo). */
	let witness: string | undefined;

	/** Records `keys` (with the accepted markers so far, and a claim token): what was there. */
	const recordWith = async (keys: string[], token?: string) => {
		const days = [...new Set(toDate.values())].map(dayMark);
		const marks = [
			...toMarkAccepted,
			...[...toDate].map(([key, day]) => dayValue(key, day)),
			...days,
		];
		toMarkAccepted.clear();
		toDate.clear();
		// The mark first: in the first call of a run, it goes into the row before the keys.
		const found = new Set(
			await store.record([...(mark ? [mark] : []), ...keys, ...marks, ...(token ? [token] : [])]),
		);
		for (const value of [...keys, ...marks]) kept.add(value);
		if (mark !== undefined) {
			if (markHeld && !found.has(mark)) {
				// This run's own records, and those it found, are written again. If n8n's limit dropped
				// them, older records of this data may be gone too: what the run has not reached yet
				// cannot be known, so it sends nothing more.
				const present = new Set(await store.record([...kept]));
				if (keys.length > 0 && (await markLostTo(present)) === 'limit')
					throw new RecordsLost(
						'n8n’s de-duplication store dropped this node’s oldest records while this run was being sent',
					);
			}
			markHeld ||= found.has(mark);
			// Only what this call added after the mark is newer than the mark's latest addition.
			if (!found.has(mark)) witness = undefined;
			witness = keys.filter((key) => !found.has(key)).at(-1) ?? witness;
		}
		return found;
	};
	/**
	 * What took the mark: n8n's limit drops the oldest values first, so with the mark gone a key
	 * added after it (the witness) is gone too only if the limit dropped 620,000 newer values since
	 * the witness's call. In queue mode another process's call that read the row before the mark's
	 * latest addition and wrote it back since takes both (a write-back, which the records just
	 * written again undo): that is the verdict when the witness is gone as well. Otherwise, and in
	 * one process (no other process writes back), the limit. docs/ledger.md, "The run's mark".
	 */
	const markLostTo = async (present: Set<string>) => {
		if (witness === undefined || !kept.has(witness) || present.has(witness)) return 'limit';
		return (await claimWait()) === undefined ? 'limit' : 'write-back';
	};
	/** The key and its markers go with the next store call. */
	const release = (key: string) => {
		toMarkAccepted.delete(acceptedMarker(key));
		toDate.delete(key);
		for (const value of recordsOf(key)) toRemove.add(value);
	};
	/** Removes what is to be removed (released keys, markers an ask recorded), now. */
	const removeNow = async () => {
		if (toRemove.size === 0) return;
		const values = [...toRemove];
		toRemove.clear();
		for (const value of values) kept.delete(value);
		await store.remove(values);
	};

	return {
		store,
		kept,
		toRemove,
		claimWait,
		recordWith,
		/** `now`: accepted now, so its day is recorded; `earlier`: refused as done before, day unknown. */
		accepted: (key: string, when: 'now' | 'earlier' = 'now') => {
			toMarkAccepted.add(acceptedMarker(key));
			if (when === 'now') toDate.set(key, utcDay(Date.now()));
		},
		release,
		removeNow,
		/** Writes what is still to be written. */
		flush: async () =>
			await store.atomically(async () => {
				await removeNow();
				if (toMarkAccepted.size + toDate.size > 0) await recordWith([]);
			}),
		/**
		 * Queue mode: the sending markers of the keys about to be sent (with the answers so far), the
		 * last store call before their requests leave. A call as long as the claim wait or longer may
		 * land after a Retry looked for these markers (takeoverWaitMs): nothing is sent.
		 */
		markSending: async (keys: string[], wait: number) => {
			if (keys.length === 0) return;
			const start = Date.now();
			await store.atomically(async () => await recordWith(keys.map(sendingMarker)));
			const ms = Date.now() - start;
			if (ms >= wait) {
				for (const key of keys) release(key);
				throw new ClaimNotHeld(
					`one of n8n's store calls took ${ms} ms, as long as the claim wait (${wait} ms) or longer`,
				);
			}
		},
	};
}
