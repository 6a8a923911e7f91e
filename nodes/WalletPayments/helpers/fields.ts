import type { INodeProperties } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../transport/pagination';
import { REFERENCE_HINT } from './reference';

/** Return All / Limit, as on n8n's built-in "Get Many" operations. */
export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		hint: `Fetched ${MAX_PAGE_SIZE} per request; more than ${MAX_PAGE_SIZE} takes several requests`,
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** The customer a money operation is for, by email (several operations take it). */
export function customerEmailField(description: string): INodeProperties {
	return {
		displayName: 'Customer Email',
		name: 'customerEmail',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description,
	};
}

/** A reference that, left empty, becomes the retry-safe derived one (helpers/reference.ts). */
export function referenceField(description: string, hint = REFERENCE_HINT): INodeProperties {
	return { displayName: 'Reference', name: 'reference', type: 'string', default: '', description, hint };
}

/** The wallet a payout is paid from. */
export const sourceWalletCurrencyField: INodeProperties = {
	displayName: 'Source Wallet Currency',
	name: 'sourceWalletCurrency',
	type: 'string',
	required: true,
	default: 'USD',
	placeholder: 'USD',
	description: 'Three-letter code of the wallet to debit',
};
