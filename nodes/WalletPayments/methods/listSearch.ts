import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { getCursorPage, MAX_PAGE_SIZE } from '../transport/pagination';

/**
 * Searchable lists for the "From List" mode of the Customer and Beneficiary pickers, backed by
 * the Get Many endpoints and their filters. The API's `nextCursor` is n8n's `paginationToken`,
 * so scrolling down the list asks for the next page.
 */

function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

/**
 * The search box as the customer list's filters, one list or two: text with an "@" filters by
 * email; two words or more are the first name and the last name ("Ann Doe"); one word is looked
 * up as a first name and as a last name ("Doe"), the two lists merged.
 */
function customerFilterSets(filter?: string): IDataObject[] {
	const search = filter?.trim() ?? '';
	if (search === '') return [{}];
	if (search.includes('@')) return [{ email: search }];
	const [firstName, ...rest] = search.split(/\s+/);
	return rest.length > 0
		? [{ firstName, lastName: rest.join(' ') }]
		: [{ firstName }, { lastName: firstName }];
}

function customerItem(customer: IDataObject): INodeListSearchItems {
	const name = [text(customer.firstName), text(customer.lastName)].filter(Boolean).join(' ');
	const email = text(customer.email);
	return {
		name: name && email ? `${name} (${email})` : name || email || text(customer.id),
		value: text(customer.id),
	};
}

/** "Ann Doe · MOBILEMONEY ···5678 · KE/KES · BEN-42", with the status when it is not SUCCESS. */
function beneficiaryItem(beneficiary: IDataObject): INodeListSearchItems {
	const destination = (beneficiary.destination ?? {}) as IDataObject;
	const account = text(destination.accountNumber);
	const parts = [
		text(destination.accountName) || 'Beneficiary',
		[text(destination.type), account ? `···${account.slice(-4)}` : ''].filter(Boolean).join(' '),
		[text(beneficiary.country), text(beneficiary.currency)].filter(Boolean).join('/'),
		text(beneficiary.reference),
		text(beneficiary.status) && text(beneficiary.status) !== 'SUCCESS'
			? text(beneficiary.status)
			: '',
	];
	return { name: parts.filter(Boolean).join(' · '), value: text(beneficiary.id) };
}

async function search(
	context: ILoadOptionsFunctions,
	endpoint: string,
	qs: IDataObject,
	toItem: (record: IDataObject) => INodeListSearchItems,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = await getCursorPage.call(
		context,
		endpoint,
		qs,
		MAX_PAGE_SIZE,
		paginationToken || undefined,
	);
	return { results: page.records.map(toItem), paginationToken: page.nextCursor };
}

/**
 * Several filtered lists read side by side as one: the pagination token holds each list's next
 * cursor (null once it is done). A record already listed by an earlier filter (a customer whose
 * first name and last name both match the word) is left out of the later lists.
 */
async function searchMerged(
	context: ILoadOptionsFunctions,
	endpoint: string,
	filterSets: IDataObject[],
	toItem: (record: IDataObject) => INodeListSearchItems,
	shownEarlier: (record: IDataObject, filterIndex: number) => boolean,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	if (filterSets.length === 1)
		return await search(context, endpoint, filterSets[0], toItem, paginationToken);
	let cursors: Array<string | null | undefined> = filterSets.map(() => undefined);
	if (paginationToken) {
		try {
			cursors = JSON.parse(paginationToken) as Array<string | null>;
		} catch {
			cursors = filterSets.map(() => undefined);
		}
	}
	const results: INodeListSearchItems[] = [];
	const seen = new Set<string>();
	const next: Array<string | null> = [];
	for (const [index, qs] of filterSets.entries()) {
		if (cursors[index] === null) {
			next.push(null);
			continue;
		}
		const page = await getCursorPage.call(
			context,
			endpoint,
			qs,
			MAX_PAGE_SIZE,
			cursors[index] ?? undefined,
		);
		for (const record of page.records) {
			const item = toItem(record);
			if (seen.has(String(item.value)) || shownEarlier(record, index)) continue;
			seen.add(String(item.value));
			results.push(item);
		}
		next.push(page.nextCursor ?? null);
	}
	return {
		results,
		paginationToken: next.some((cursor) => cursor !== null) ? JSON.stringify(next) : undefined,
	};
}

export async function searchCustomers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const sets = customerFilterSets(filter);
	const word = (filter ?? '').trim().toLowerCase();
	// In the last-name list, a customer whose first name also matches was listed by the first-name list.
	const shownEarlier = (customer: IDataObject, index: number) =>
		index > 0 && text(customer.firstName).toLowerCase().includes(word);
	return await searchMerged(
		this,
		'/api/v2/customers',
		sets,
		customerItem,
		shownEarlier,
		paginationToken,
	);
}

/** Beneficiaries whose reference contains the search text (the list's `q` filter). */
export async function searchBeneficiaries(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const q = filter?.trim();
	return await search(
		this,
		'/api/v2/beneficiaries',
		q ? { q } : {},
		beneficiaryItem,
		paginationToken,
	);
}
