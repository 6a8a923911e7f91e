/**
 * Cursor paging for the v2 lists (customers, beneficiaries): newest first.
 *
 * A cursor is opaque base64url JSON holding a position in the collection's insertion order,
 * which never changes (records are appended, never removed). `nextCursor` means "older than
 * position p", `prevCursor` "newer than position p", so records created between page
 * requests are neither returned twice nor skipped.
 */
import { badRequest } from './errors';

export interface CursorMeta {
	limit: number;
	nextCursor: string | null;
	prevCursor: string | null;
	hasNextPage: boolean;
	hasPreviousPage: boolean;
}

export interface CursorPage<T> {
	data: T[];
	meta: CursorMeta;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

type Boundary = { before: number } | { after: number };

const encode = (boundary: Boundary): string =>
	Buffer.from(JSON.stringify(boundary)).toString('base64url');

function decode(cursor: string, key: 'before' | 'after'): number {
	try {
		const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
		const position = (value as Record<string, unknown>)[key];
		if (typeof position === 'number' && Number.isInteger(position) && position >= -1) return position;
	} catch {
		// reported below
	}
	throw badRequest([`${key === 'before' ? 'nextCursor' : 'prevCursor'} is not a valid cursor`]);
}

export function readLimit(query: Record<string, string>): number {
	if (query.limit === undefined || query.limit === '') return DEFAULT_LIMIT;
	const limit = Number(query.limit);
	if (!/^\d+$/.test(query.limit) || limit < 1 || limit > MAX_LIMIT) {
		throw badRequest([`limit must be an integer between 1 and ${MAX_LIMIT}`]);
	}
	return limit;
}

/**
 * One page of `all` (insertion order) restricted to `matches`, driven by the query's
 * `limit`, `nextCursor` and `prevCursor`.
 */
export function cursorPage<T>(
	all: T[],
	matches: (item: T) => boolean,
	query: Record<string, string>,
): CursorPage<T> {
	const limit = readLimit(query);
	if (query.nextCursor && query.prevCursor) {
		throw badRequest(['Only one of nextCursor and prevCursor may be given']);
	}
	// Positions (insertion indexes) of matching records, newest first.
	const positions: number[] = [];
	for (let i = all.length - 1; i >= 0; i--) if (matches(all[i])) positions.push(i);

	let page: number[];
	// For an empty page: the boundary that leads back to the records beyond the cursor.
	let fallback: Boundary | undefined;
	if (query.prevCursor) {
		const after = decode(query.prevCursor, 'after');
		const newer = positions.filter((p) => p > after);
		page = newer.slice(Math.max(0, newer.length - limit));
		fallback = { before: after + 1 };
	} else {
		const before = query.nextCursor ? decode(query.nextCursor, 'before') : Infinity;
		page = positions.filter((p) => p < before).slice(0, limit);
		fallback = Number.isFinite(before) ? { after: before - 1 } : undefined;
	}
	return { data: page.map((p) => all[p]), meta: { limit, ...links(positions, page, fallback) } };
}

function links(positions: number[], page: number[], fallback: Boundary | undefined): Omit<CursorMeta, 'limit'> {
	let older: Boundary | undefined;
	let newer: Boundary | undefined;
	if (page.length > 0) {
		const oldest = page[page.length - 1];
		const newest = page[0];
		if (positions.some((p) => p < oldest)) older = { before: oldest };
		if (positions.some((p) => p > newest)) newer = { after: newest };
	} else if (fallback && 'before' in fallback) {
		const before = fallback.before;
		if (positions.some((p) => p < before)) older = fallback;
	} else if (fallback && 'after' in fallback) {
		const after = fallback.after;
		if (positions.some((p) => p > after)) newer = fallback;
	}
	return {
		nextCursor: older ? encode(older) : null,
		prevCursor: newer ? encode(newer) : null,
		hasNextPage: !!older,
		hasPreviousPage: !!newer,
	};
}
