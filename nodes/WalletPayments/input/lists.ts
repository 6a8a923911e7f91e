import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../transport/pagination';

import { booleanFlag, integerInRange } from './validation';

/** Reads Return All and Limit; the limit must be a whole number of at least 1. */
export function readReturnAllAndLimit(
	context: IExecuteFunctions,
	itemIndex: number,
): { returnAll: boolean; limit: number } {
	const returnAll = booleanFlag(
		context.getNodeParameter('returnAll', itemIndex, false),
		'Return All',
	);
	if (returnAll) return { returnAll, limit: Number.MAX_SAFE_INTEGER };
	const limit = integerInRange(
		context.getNodeParameter('limit', itemIndex, 50),
		'Limit',
		1,
		Number.MAX_SAFE_INTEGER,
	);
	return { returnAll, limit };
}

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
