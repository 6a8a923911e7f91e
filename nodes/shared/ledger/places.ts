/**
 * Places (issue #64, point 3): where a derived key's item stands (workflow, node, what started
 * the run, its position and the item it was given; controls/idempotency.ts placeOf). A Retry
 * gives the node the same items, so in a Retry a key found new at a place an earlier run
 * recorded was sent by that run under a request edited since. A place is reserved and accepted with its key, and
 * goes with it. docs/ledger.md, "Places: a Retry after an edit".
 */
import { acceptedMarker, type Verdict } from './states';
import type { Store } from './store';

export function openPlaces(
	store: Store,
	kept: Set<string>,
	toRemove: Set<string>,
	release: (key: string) => void,
	retry: boolean,
) {
	/** Places this run recorded first, by key: they go with their key. */
	const own = new Map<string, string>();
	/** Places of the keys this run may send, by key: accepted with their key. */
	const ofKey = new Map<string, string>();

	return {
		/** The places of `keys` that have one: recorded with the keys, in the same store call. */
		of: (keys: string[], places: ReadonlyMap<string, string>) =>
			keys.flatMap((key) => {
				const place = places.get(key);
				return place === undefined ? [] : [place];
			}),
		/**
		 * After the reservation's call found `found`: a key found new whose place was there takes the
		 * place's verdict (accepted, else unknown) and goes unsent, unless Allow Resend sends it.
		 * Inside that call's serialized step.
		 */
		settle: async (
			keys: string[],
			found: Set<string>,
			places: ReadonlyMap<string, string>,
			resend: ReadonlySet<string>,
			verdicts: Map<string, Verdict>,
		) => {
			const sentBefore = new Map<string, string>();
			for (const key of keys) {
				const place = places.get(key);
				if (place === undefined) continue;
				// Only a Retry repeats an execution's items: another run after an edit sends anew.
				if (found.has(key) || !found.has(place) || resend.has(key) || !retry) {
					if (!found.has(key) && !found.has(place)) own.set(key, place);
					ofKey.set(key, place);
				} else sentBefore.set(key, place);
			}
			if (sentBefore.size === 0) return;
			// Asking records the markers that were not there: they are removed with the call's removals.
			const asked = [...sentBefore.values()].map(acceptedMarker);
			const present = new Set(await store.record(asked));
			for (const marker of asked) (present.has(marker) ? kept : toRemove).add(marker);
			for (const [key, place] of sentBefore) {
				verdicts.set(key, present.has(acceptedMarker(place)) ? 'accepted' : 'unknown');
				release(key);
			}
		},
		/** The place to mark accepted with this key, if it has one. */
		placeOf: (key: string) => ofKey.get(key),
		/** The key's place goes if this run recorded it first (its key was refused, or never sent). */
		release: (key: string) => {
			const place = own.get(key);
			if (place !== undefined)
				for (const value of [place, acceptedMarker(place)]) toRemove.add(value);
			own.delete(key);
			ofKey.delete(key);
		},
	};
}
