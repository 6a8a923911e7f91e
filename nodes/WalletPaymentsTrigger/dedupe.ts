import type { IDataObject } from 'n8n-workflow';

export const DEFAULT_DEDUPE_WINDOW = 1000;

/** Where the recent keys live in the node's workflow static data. */
const STATIC_KEY = 'recentEventKeys';

/**
 * The provider sends no event id and retries deliveries, so an event is identified by its name,
 * `data.id` and `data.status`. Without `data.id` there is nothing to tell two events apart:
 * such events are never treated as duplicates.
 */
export function eventKey(event: string, data: IDataObject): string | undefined {
	const id = data.id;
	if ((typeof id !== 'string' && typeof id !== 'number') || id === '') return undefined;
	const status = typeof data.status === 'string' || typeof data.status === 'number' ? data.status : null;
	return JSON.stringify([event, String(id), status === null ? null : String(status)]);
}

export function dedupeWindow(value: unknown): number {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return DEFAULT_DEDUPE_WINDOW;
	return Math.floor(value);
}

/**
 * True when the key is among the last `windowSize` keys seen; otherwise records it, dropping
 * the oldest keys beyond the window. A window of 0 turns de-duplication off.
 *
 * Synchronous on purpose: no other request can run between the look-up and the write.
 * The list is replaced, not mutated, so n8n notices the change and saves the static data.
 */
export function isDuplicate(staticData: IDataObject, key: string, windowSize: number): boolean {
	if (windowSize <= 0) return false;
	const recent = recentKeys(staticData).slice(-windowSize);
	if (recent.includes(key)) return true;
	recent.push(key);
	staticData[STATIC_KEY] = recent.slice(-windowSize);
	return false;
}

/** The recorded keys, oldest first (for tests and diagnostics). */
export function recentKeys(staticData: IDataObject): string[] {
	const stored = staticData[STATIC_KEY];
	return Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
}
