/**
 * A look at keys without keeping them (a payout run's Preview): what a run would find for each
 * key, and when the ones accepted before were sent; recorded nothing. n8n's store has no read of
 * a value, only "record these, and say which were there", so the look records the keys and their
 * accepted markers and at once removes the ones that were not there (store.ask), in one
 * serialized step (store.ts). Across n8n processes a run of the same keys at that very moment in
 * another process can see them for the instant they are there, and report them `unknown` instead
 * of sending them: the safe direction.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { dayFinder, type SentDay } from './days';
import { acceptedMarker, KEYS_REMEMBERED } from './states';
import { openStore } from './store';

/** What a run would find for a key: new (it sends it), or sent before, accepted or not known. */
export type Seen = 'new' | 'accepted' | 'unknown';

export interface Peeked {
	seen: Map<string, Seen>;
	/** The keys accepted before: when (days.ts). */
	sent: Map<string, SentDay>;
}

export async function peekKeys(context: IExecuteFunctions, keys: string[]): Promise<Peeked> {
	const unique = [...new Set(keys)];
	if (unique.length === 0) return { seen: new Map(), sent: new Map() };
	const store = openStore(context, KEYS_REMEMBERED);
	return await store.atomically(async () => {
		const found = await store.ask([...unique, ...unique.map(acceptedMarker)]);
		const seen = new Map(
			unique.map((key): [string, Seen] => [
				key,
				!found.has(key) ? 'new' : found.has(acceptedMarker(key)) ? 'accepted' : 'unknown',
			]),
		);
		const accepted = unique.filter((key) => seen.get(key) === 'accepted');
		return { seen, sent: await dayFinder(store)(accepted) };
	});
}
