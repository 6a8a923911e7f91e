/**
 * The ledger of one run of a node that moves money: it reserves each item's key in n8n's store
 * before the item's request leaves, and says what an earlier run did with a key (its Verdict).
 * In one n8n process a reservation is one store call; in queue mode it is a claim (claim.ts)
 * with `#claimed` and `#sending` markers, and a later run (a Retry, or the same rows run again)
 * takes over keys claimed and never sent (takeover.ts). states.ts has every value it writes;
 * docs/ledger.md the design.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { ClaimNotHeld, openBook } from './book';
import { dayFinder, type SentDay } from './days';
import { type Forgotten, forgottenRun } from './forgotten';
import { acceptedMarker, claimedMarker, claimToken, sendingMarker, type Verdict } from './states';
import { noteSlowCall } from './slowCalls';
import { noteEarlierRun } from './earlierRun';
import { openPlaces } from './places';
import { FRESH_CLAIM_WAITS, keepFromTakeover, takeOver, takeoverWaitMs } from './takeover';

export interface Ledger {
	/**
	 * Records the keys (the items about to be sent); returns what each one is: new, or recorded
	 * before with what its send saw. Keys in `resend` (Allow Resend) forget what they saw.
	 * `written` is called once the first store call is made (queue mode: before the claim's wait).
	 * `places` (key → place): a key found new whose place is recorded was sent by an earlier run
	 * under a request edited since: its verdict is that place's.
	 */
	reserve(
		keys: string[],
		resend: ReadonlySet<string>,
		written?: () => void,
		places?: ReadonlyMap<string, string>,
	): Promise<Map<string, Verdict>>;
	/**
	 * Queue mode: the last store call before these keys' requests leave, marking the ones this run
	 * sends (reserved new, taken over, or sent again with Allow Resend) `#sending`. Returns the keys
	 * a Retry took over meanwhile (not to be sent: another run sends them). In one n8n process it
	 * does nothing.
	 */
	markSending(keys: string[]): Promise<Set<string>>;
	/**
	 * The service accepted the item (recorded with the next store call, with today's date unless
	 * `earlier`: the service refused it as done before).
	 */
	accepted(key: string, when?: 'now' | 'earlier'): void;
	/** When an earlier run sent a key this run found accepted (days.ts). */
	sentDay(key: string): SentDay | undefined;
	/** The item was refused, or never sent: its record goes (with the next store call). */
	release(key: string): void;
	/** The claim wait when other n8n processes share the store (queue mode), else undefined. */
	claimWait(): Promise<number | undefined>;
	/** For a Retry: whether the store dropped the records of the run it repeats (forgotten.ts). */
	forgotten(): Promise<Forgotten | undefined>;
	/** Writes what is still to be written. */
	flush(): Promise<void>;
	/**
	 * Checks every record held (only needed where other processes write the store), and says so
	 * when a store call came near the claim's timing bound (slowCalls.ts).
	 */
	verify(): Promise<void>;
}

/** The ledger of this node's run; `mark` is the run's mark (states.ts runMark), if it has one. */
export function openLedger(context: IExecuteFunctions, mark?: string): Ledger {
	const book = openBook(context, mark);
	const { store, kept, toRemove, claimWait, recordWith, release, removeNow } = book;
	/** Queue mode: keys reserved for this run to send, not yet marked sending, with when their claim held. */
	const sendingDue = new Map<string, number>();
	/** Queue mode: rows an earlier run claimed and never sent (sent here), or was sending (unknown). */
	const earlier = { takenOver: 0, inFlight: 0 };
	const findDays = dayFinder(store);
	/** Keys this run found accepted before: when they were sent. */
	const sentDays = new Map<string, SentDay>();

	const places = openPlaces(store, kept, toRemove, release, context.getMode() === 'retry');
	/** The key goes, with its place. */
	const releaseKey = (key: string) => {
		release(key);
		places.release(key);
	};

	const reserve = async (
		keys: string[],
		resend: ReadonlySet<string>,
		written?: () => void,
		placeOfKey: ReadonlyMap<string, string> = new Map(),
	) => {
		const wait = await claimWait();
		const claiming = wait !== undefined && keys.length > 0;
		const token = claiming ? claimToken() : undefined;
		if (claiming) await store.warmUp();
		let callMs = 0;
		let unsent: string[] = [];
		let resending: string[] = [];
		const verdicts = await store.atomically(async () => {
			await removeNow();
			const start = Date.now();
			const found = await recordWith(
				[
					...(claiming ? [...keys, ...keys.map(claimedMarker)] : keys),
					...places.of(keys, placeOfKey),
				],
				token,
			);
			callMs = Date.now() - start;
			const verdicts = new Map<string, Verdict>(
				keys.map((key) => [key, found.has(key) ? 'unknown' : 'new']),
			);
			await places.settle(keys, found, placeOfKey, resend, verdicts);
			const again = keys.filter((key) => found.has(key));
			const asked = again.filter((key) => !resend.has(key)).map(acceptedMarker);
			// Queue mode: a key recorded before without its claimed marker (by one n8n process, or an
			// older version) has just been given one; it gets its sending marker too, so that no later run
			// takes it for a key claimed and never sent. Then it asks whether the others were sent.
			const neutral = claiming
				? again.filter((key) => !found.has(claimedMarker(key))).map(sendingMarker)
				: [];
			// Every run with claims takes over keys claimed and never sent (a dead worker's; a live run
			// marks its keys sending within the takeover wait): a Retry, n8n 1.x re-running a stalled
			// job, and a new run where n8n offers no Retry (docs/ledger.md, "Takeover").
			if (claiming)
				asked.push(
					...again
						.filter((key) => !resend.has(key) && found.has(claimedMarker(key)))
						.map(sendingMarker),
				);
			if (asked.length + neutral.length > 0) {
				const present = new Set(await store.record([...asked, ...neutral]));
				for (const marker of [...asked, ...neutral]) kept.add(marker);
				for (const key of again)
					if (present.has(acceptedMarker(key))) verdicts.set(key, 'accepted');
				// Asking recorded the markers that were not there: they were not seen.
				for (const marker of asked) if (!present.has(marker)) toRemove.add(marker);
				unsent = claiming
					? again.filter(
							(key) =>
								!resend.has(key) &&
								found.has(claimedMarker(key)) &&
								!present.has(acceptedMarker(key)) &&
								!present.has(sendingMarker(key)),
						)
					: [];
			}
			const acceptedBefore = again.filter(
				(key) => !resend.has(key) && verdicts.get(key) === 'accepted',
			);
			for (const [key, day] of await findDays(acceptedBefore)) sentDays.set(key, day);
			resending = again.filter((key) => resend.has(key));
			for (const key of resending) toRemove.add(acceptedMarker(key));
			await removeNow();
			return verdicts;
		});
		written?.();
		if (!claiming || wait === undefined) return verdicts;
		const taken = unsent.length > 0 ? await takeOver(book, unsent, verdicts, wait) : [];
		earlier.takenOver += taken.length;
		earlier.inFlight += keys.filter(
			(key) => verdicts.get(key) === 'unknown' && !resend.has(key),
		).length;
		const fresh = keys.filter((key) => verdicts.get(key) === 'new' && !taken.includes(key));
		let ours: string[] = [];
		if (fresh.length > 0) {
			// The keys found new are this run's only if the write held (outside the lock: other
			// executions of this process go on meanwhile).
			const held = await store.confirm(token!, fresh, wait, callMs);
			for (const key of held.theirs) verdicts.set(key, 'concurrent');
			if (held.unresolved.length > 0) {
				for (const key of [...held.ours, ...taken]) releaseKey(key);
				for (const key of held.unresolved) kept.delete(key);
				// A place goes with its key: left alone, a Retry would take the key as sent.
				for (const key of held.unresolved) places.release(key);
				throw new ClaimNotHeld(
					`n8n could not make sure that no other run records these items at the same moment: ${held.why ?? 'unknown'}`,
				);
			}
			ours = held.ours;
		}
		// Allow Resend sends a key recorded before: it is marked sending like a new one.
		const heldAt = Date.now();
		for (const key of [...ours, ...taken, ...resending]) sendingDue.set(key, heldAt);
		return verdicts;
	};

	return {
		reserve,
		forgotten: async () =>
			mark === undefined
				? undefined
				: await store.atomically(async () => await forgottenRun(store, mark)),
		markSending: async (keys: string[]) => {
			const wait = await claimWait();
			const due = keys.filter((key) => sendingDue.has(key));
			if (due.length === 0 || wait === undefined) return new Set<string>();
			const now = Date.now();
			const stale = due.filter((key) => now - sendingDue.get(key)! >= FRESH_CLAIM_WAITS * wait);
			for (const key of due) sendingDue.delete(key);
			const kept = stale.length > 0 ? await keepFromTakeover(book, stale, wait) : undefined;
			await book.markSending(
				due.filter((key) => !stale.includes(key) || kept!.ours.includes(key)),
				wait,
			);
			return new Set(kept?.theirs);
		},
		accepted: (key, when) => {
			book.accepted(key, when);
			const place = places.placeOf(key);
			// No day for a place: its key's day value says when.
			if (place !== undefined) book.accepted(place, 'earlier');
		},
		sentDay: (key) => sentDays.get(key),
		release: releaseKey,
		claimWait,
		flush: book.flush,
		verify: async () => {
			const wait = await claimWait();
			try {
				if (wait !== undefined) await store.verify();
			} finally {
				noteSlowCall(context, store.slowestCall(), wait);
				if (wait !== undefined) noteEarlierRun(context, earlier, takeoverWaitMs(wait));
			}
		},
	};
}
