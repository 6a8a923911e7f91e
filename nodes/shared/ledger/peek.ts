/**
 * A look at keys without keeping them (a payout run's Preview): what a run would find for each
 * key, recorded nothing. n8n's store has no read of a value, only "record these, and say which
 * were there", so the look records the keys and their accepted markers and at once removes the
 * ones that were not there, in one serialized step (store.ts). The calls may hold more values than
 * the store keeps, so that the look never pushes out the oldest records. Across n8n processes a
 * run of the same keys at that very moment in another process can see them for the instant they
 * are there, and report them `unknown` instead of sending them: the safe direction.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { acceptedMarker, KEYS_REMEMBERED } from './states';
import { openStore } from './store';

/** What a run would find for a key: new (it sends it), or sent before, accepted or not known. */
export type Seen = 'new' | 'accepted' | 'unknown';

export async function peekKeys(
	context: IExecuteFunctions,
	keys: string[],
): Promise<Map<string, Seen>> {
	const unique = [...new Set(keys)];
	if (unique.length === 0) return new Map();
	const asked = [...unique, ...unique.map(acceptedMarker)];
	const store = openStore(context, KEYS_REMEMBERED + asked.length);
	return await store.atomically(async () => {
		const found = new Set(await store.record(asked));
		const added = asked.filter((value) => !found.has(value));
		if (added.length > 0) await store.remove(added);
		return new Map(
			unique.map((key): [string, Seen] => [
				key,
				!found.has(key) ? 'new' : found.has(acceptedMarker(key)) ? 'accepted' : 'unknown',
			]),
		);
	});
}
