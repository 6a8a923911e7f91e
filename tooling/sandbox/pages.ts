/**
 * page/take paging for the v1 card transaction list (contract 2.10).
 */
import { badRequest } from './errors';

export interface PageMeta {
	page: number;
	take: number;
	itemCount: number;
	pageCount: number;
	hasPreviousPage: boolean;
	hasNextPage: boolean;
}

export const DEFAULT_TAKE = 10;
export const MAX_TAKE = 100;

function readPositiveInt(query: Record<string, string>, name: string, fallback: number, max: number): number {
	const raw = query[name];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!/^\d+$/.test(raw) || value < 1 || value > max) {
		throw badRequest([
			max === Infinity ? `${name} must be a positive integer` : `${name} must be an integer between 1 and ${max}`,
		]);
	}
	return value;
}

/**
 * One page of `items` (oldest first) by the query's `page` (1-based), `take` and `order`
 * (ASC: oldest first, the default; DESC: newest first).
 */
export function takePage<T>(items: T[], query: Record<string, string>): { items: T[]; meta: PageMeta } {
	const page = readPositiveInt(query, 'page', 1, Infinity);
	const take = readPositiveInt(query, 'take', DEFAULT_TAKE, MAX_TAKE);
	const order = (query.order ?? 'ASC').toUpperCase();
	if (order !== 'ASC' && order !== 'DESC') throw badRequest(['order must be ASC or DESC']);
	const ordered = order === 'ASC' ? items : [...items].reverse();
	const itemCount = ordered.length;
	const pageCount = Math.ceil(itemCount / take);
	return {
		items: ordered.slice((page - 1) * take, page * take),
		meta: { page, take, itemCount, pageCount, hasPreviousPage: page > 1, hasNextPage: page < pageCount },
	};
}
