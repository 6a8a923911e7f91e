/**
 * The takeover (queue mode): a later run of the rows of a run whose worker died (a Retry, or the
 * same rows run again) finds keys that were claimed and never sent (`#claimed`, but neither
 * `#sending` nor `#accepted`) and sends them, after waiting out any live claim of them and under
 * a claim of its own (`#takeover`).
 */
import { sleep } from 'n8n-workflow';

import { type Book, ClaimNotHeld } from './book';
import { CHECKS, CLAIM_ROUNDS } from './claim';
import { acceptedMarker, sendingMarker, takeoverMarker, type Verdict } from './states';

/**
 * How long a Retry waits before it sends a key that an earlier run claimed and never marked
 * sending: the longest another run's claim can take from its first write to its sending markers
 * (CLAIM_ROUNDS attempts, each a write, a wait of at most 1.5 claim waits and a check, then
 * CHECKS - 1 more waits and checks, every call shorter than the claim wait or the claim fails
 * closed; then at most FRESH_CLAIM_WAITS claim waits until the key's window starts sending, and
 * the sending markers' call, also shorter than the claim wait), so that a claim still alive has
 * marked its keys sending by then.
 */
export const takeoverWaitMs = (claimWaitMs: number) =>
	(CLAIM_ROUNDS * (3.5 + 2 * (CHECKS - 1)) + FRESH_CLAIM_WAITS + 1) * claimWaitMs;

/**
 * How long, in claim waits, a run may mark a claimed key sending after its claim held (keys are
 * claimed ahead of their window: windows.ts). Later, it must claim the key's takeover marker
 * first (keepFromTakeover), as a Retry does, so that a Retry that waited takeoverWaitMs and found
 * the key still not sending cannot send it too.
 */
export const FRESH_CLAIM_WAITS = 10;

/** How often, in claim waits, a run waiting out the takeover wait looks whether the keys were sent. */
export const TAKEOVER_LOOK_WAITS = 4;

/**
 * Claims the takeover markers of keys this run claimed too long ago to mark them sending as they
 * are: `ours` may be sent now, `theirs` were taken over by a Retry (another run sends them).
 */
export async function keepFromTakeover(
	book: Book,
	keys: string[],
	wait: number,
): Promise<{ ours: string[]; theirs: string[] }> {
	const held = await book.store.claim(keys.map(takeoverMarker), wait);
	if (held.unresolved.length > 0) {
		for (const key of keys) book.release(key);
		throw new ClaimNotHeld(
			`n8n could not make sure that no Retry sends these items at the same moment: ${held.why ?? 'unknown'}`,
		);
	}
	const ours = keys.filter((key) => held.ours.includes(takeoverMarker(key)));
	for (const key of ours) book.kept.add(takeoverMarker(key));
	return { ours, theirs: keys.filter((key) => held.theirs.includes(takeoverMarker(key))) };
}

/**
 * `unsent` keys were claimed by an earlier run that never marked them sending: the dead run, or
 * a run still alive in its claim. After waiting out any live claim (or until all are sending or
 * accepted), the ones still not sending nor accepted are claimed once more, by this run alone, and returned to be sent; the others
 * stay as they are in `verdicts` (accepted, or unknown) or become `concurrent` (another Retry
 * took them).
 */
export async function takeOver(
	book: Book,
	unsent: string[],
	verdicts: Map<string, Verdict>,
	wait: number,
): Promise<string[]> {
	const { store, kept, toRemove } = book;
	/** The keys still neither sending nor accepted; `verdicts` gets the accepted ones. */
	const ask = async (keys: string[]) =>
		await store.atomically(async () => {
			const asked = keys.flatMap((key) => [acceptedMarker(key), sendingMarker(key)]);
			const present = new Set(await store.record(asked));
			for (const marker of asked) (present.has(marker) ? kept : toRemove).add(marker);
			await book.removeNow();
			for (const key of keys) if (present.has(acceptedMarker(key))) verdicts.set(key, 'accepted');
			return keys.filter(
				(key) => !present.has(acceptedMarker(key)) && !present.has(sendingMarker(key)),
			);
		});
	// A live run marks its keys sending as it reaches them: once all are, there is nothing to wait
	// for (a second run of the same rows at the same moment ends early). Each look writes markers
	// for a moment, so it looks every few claim waits, not at every one.
	const deadline = Date.now() + takeoverWaitMs(wait);
	let still = unsent;
	do {
		await sleep(Math.min(TAKEOVER_LOOK_WAITS * wait, Math.max(0, deadline - Date.now())));
		still = await ask(still);
	} while (still.length > 0 && Date.now() < deadline);
	if (still.length === 0) return [];
	const held = await store.claim(still.map(takeoverMarker), wait);
	const ours = still.filter((key) => held.ours.includes(takeoverMarker(key)));
	for (const key of still)
		if (held.theirs.includes(takeoverMarker(key))) verdicts.set(key, 'concurrent');
	if (held.unresolved.length > 0) {
		throw new ClaimNotHeld(
			`n8n could not make sure that no other run sends the items the crashed run claimed and never sent: ${held.why ?? 'unknown'}`,
		);
	}
	for (const key of ours) {
		kept.add(takeoverMarker(key));
		verdicts.set(key, 'new');
	}
	return ours;
}
