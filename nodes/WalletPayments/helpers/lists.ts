import type { IExecuteFunctions } from 'n8n-workflow';

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
