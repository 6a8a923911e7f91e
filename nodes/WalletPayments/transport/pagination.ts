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

export interface CursorPageResult {
	records: IDataObject[];
	/** The cursor of the next page; undefined on the last page. */
	nextCursor?: string;
}

/** One page of a v2 list (customers, beneficiaries): `limit` records after `cursor`. */
export async function getCursorPage(
	this: WalletContext,
	endpoint: string,
	qs: IDataObject,
	limit: number,
	cursor?: string,
): Promise<CursorPageResult> {
	const query: IDataObject = { ...qs, limit };
	if (cursor) query.nextCursor = cursor;
	const page = (await apiRequest.call(this, 'GET', endpoint, { qs: query })) as CursorPage;
	const records = page?.data ?? [];
	const next =
		page?.meta?.hasNextPage === false ? undefined : (page?.meta?.nextCursor ?? undefined);
	// An empty page has nothing after it worth asking for.
	return { records, nextCursor: records.length === 0 ? undefined : next };
}

/** v2 lists (customers, beneficiaries): `limit` + opaque `nextCursor`. */
export async function getAllByCursor(
	this: WalletContext,
	request: ListRequest,
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	const seenCursors = new Set<string>();
	let cursor: string | undefined;
	do {
		const page = await getCursorPage.call(
			this,
			request.endpoint,
			request.qs ?? {},
			pageSize(request, results.length),
			cursor,
		);
		results.push(
			...page.records.slice(0, request.returnAll ? undefined : request.limit - results.length),
		);
		// No next page, or a cursor seen before (which would loop forever): stop.
		if (!page.nextCursor || seenCursors.has(page.nextCursor)) break;
		seenCursors.add(page.nextCursor);
		cursor = page.nextCursor;
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
		results.push(
			...records.slice(0, request.returnAll ? undefined : request.limit - results.length),
		);
		const meta = response?.meta;
		const more =
			meta?.hasNextPage ?? (meta?.pageCount !== undefined ? page < meta.pageCount : false);
		if (records.length === 0 || !more || isDone(request, results.length)) break;
	}
	return results;
}
