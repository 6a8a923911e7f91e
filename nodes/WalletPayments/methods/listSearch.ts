import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

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
 * The search box as the customer list's filters: text with an "@" filters by email; otherwise
 * the first word is the first name and the rest, if any, the last name ("Ann Doe").
 */
function customerFilters(filter?: string): IDataObject {
	const search = filter?.trim() ?? '';
	if (search === '') return {};
	if (search.includes('@')) return { email: search };
	const [firstName, ...rest] = search.split(/\s+/);
	return rest.length > 0 ? { firstName, lastName: rest.join(' ') } : { firstName };
}

function customerItem(customer: IDataObject): INodeListSearchItems {
	const name = [text(customer.firstName), text(customer.lastName)].filter(Boolean).join(' ');
	const email = text(customer.email);
	return { name: name && email ? `${name} (${email})` : name || email || text(customer.id), value: text(customer.id) };
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
		text(beneficiary.status) && text(beneficiary.status) !== 'SUCCESS' ? text(beneficiary.status) : '',
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
	const page = await getCursorPage.call(context, endpoint, qs, MAX_PAGE_SIZE, paginationToken || undefined);
	return { results: page.records.map(toItem), paginationToken: page.nextCursor };
}

export async function searchCustomers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await search(this, '/api/v2/customers', customerFilters(filter), customerItem, paginationToken);
}

/** Beneficiaries whose reference contains the search text (the list's `q` filter). */
export async function searchBeneficiaries(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const q = filter?.trim();
	return await search(this, '/api/v2/beneficiaries', q ? { q } : {}, beneficiaryItem, paginationToken);
}
