/**
 * Whether a Retry repeats a run whose records n8n's store has dropped. The store trims a node's
 * row by count, oldest first, once it holds the most values the node keeps; values are otherwise
 * removed only one by one (a key the service refused, a value asked for). So a row that holds
 * nearly that many has dropped old records, and one well below it never has. The run's mark
 * (states.ts runMark) is older than every record of the run it marks: a Retry that finds its
 * mark gone in a full row cannot tell which of its items that run sent. docs/ledger.md, "A Retry
 * of a forgotten run".
 */
import { daysOfNode } from './days';
import { KEYS_REMEMBERED } from './states';
import type { Store } from './store';

/** A row holding this share of what the node keeps is full: the store trims it. */
export const FULL_SHARE = 0.9;

export interface Forgotten {
	/** The oldest day (UTC) with keys accepted that the row still holds, if any. */
	keptSince?: string;
}

/** For a Retry whose run has a mark: undefined when its records may all still be there. */
export async function forgottenRun(
	store: Pick<Store, 'ask' | 'count'>,
	mark: string,
): Promise<Forgotten | undefined> {
	const held = await store.count();
	if (held === undefined || held < FULL_SHARE * KEYS_REMEMBERED) return undefined;
	if ((await store.ask([mark])).has(mark)) return undefined;
	return { keptSince: (await daysOfNode(store)).at(-1) };
}
