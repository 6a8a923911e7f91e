import type { IDataObject } from 'n8n-workflow';

import { apiRequest, type WalletContext } from './request';

/** The API's largest page for every list. */
export const MAX_PAGE_SIZE = 100;

export interface ListRequest {
	endpoint: string;
	qs?: IDataObject;
	/** Return every record, or stop after `limit`. */
	returnAll: boolean;
	limit: number;
}

interface CursorPage {
	data?: IDataObject[];
	meta?: { nextCursor?: string | null; hasNextPage?: boolean };
}

interface NumberedPage {
	meta?: { hasNextPage?: boolean; pageCount?: number };
	[key: string]: unknown;
}

function pageSize(request: ListRequest, collected: number): number {
	return request.returnAll ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, request.limit - collected);
}

function isDone(request: ListRequest, collected: number): boolean {
	return !request.returnAll && collected >= request.limit;
}

/** v2 lists (customers, beneficiaries): `limit` + opaque `nextCursor`. */
export async function getAllByCursor(this: WalletContext, request: ListRequest): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	const seenCursors = new Set<string>();
	let cursor: string | undefined;
	do {
		const qs: IDataObject = { ...request.qs, limit: pageSize(request, results.length) };
		if (cursor) qs.nextCursor = cursor;
		const page = (await apiRequest.call(this, 'GET', request.endpoint, { qs })) as CursorPage;
		const records = page?.data ?? [];
		results.push(...records.slice(0, request.returnAll ? undefined : request.limit - results.length));
		const next = page?.meta?.hasNextPage === false ? undefined : page?.meta?.nextCursor ?? undefined;
		// An empty page or a cursor seen before would loop forever: stop.
		if (records.length === 0 || !next || seenCursors.has(next)) break;
		seenCursors.add(next);
		cursor = next;
	} while (!isDone(request, results.length));
	return results;
}

/** v1 lists (card transactions): `page` (from 1) + `take`, records under `itemsKey`. */
export async function getAllByPage(
	this: WalletContext,
	request: ListRequest & { itemsKey: string },
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	// Every request uses the same `take`, so page numbers stay aligned.
	const take = pageSize(request, 0);
	for (let page = 1; ; page++) {
		const qs: IDataObject = { ...request.qs, page, take };
		const response = (await apiRequest.call(this, 'GET', request.endpoint, { qs })) as NumberedPage;
		const records = (response?.[request.itemsKey] as IDataObject[] | undefined) ?? [];
		results.push(...records.slice(0, request.returnAll ? undefined : request.limit - results.length));
		const meta = response?.meta;
		const more = meta?.hasNextPage ?? (meta?.pageCount !== undefined ? page < meta.pageCount : false);
		if (records.length === 0 || !more || isDone(request, results.length)) break;
	}
	return results;
}
