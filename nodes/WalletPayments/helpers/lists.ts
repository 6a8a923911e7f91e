import type { IExecuteFunctions } from 'n8n-workflow';

import { integerInRange } from './validation';

/** Reads Return All and Limit; the limit must be a whole number of at least 1. */
export function readReturnAllAndLimit(
	context: IExecuteFunctions,
	itemIndex: number,
): { returnAll: boolean; limit: number } {
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return { returnAll, limit: Number.MAX_SAFE_INTEGER };
	const limit = integerInRange(context.getNodeParameter('limit', itemIndex, 50), 'Limit', 1, Number.MAX_SAFE_INTEGER);
	return { returnAll, limit };
}
