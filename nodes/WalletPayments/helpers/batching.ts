import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_ITEMS_PER_BATCH } from './fields';

/** The Batching option: how many items are in flight at once, and the wait between batches. */
export interface Batching {
	itemsPerBatch: number;
	batchInterval: number;
}

/** The operation's Batching option (the first item's: it applies to the whole run). */
export function batchingOf(
	context: IExecuteFunctions,
	itemsPerBatchDefault = DEFAULT_ITEMS_PER_BATCH,
): Batching {
	const batching = context.getNodeParameter('batching', 0, {}) as IDataObject;
	const itemsPerBatch = Number(batching.itemsPerBatch ?? itemsPerBatchDefault);
	const batchInterval = Number(batching.batchInterval ?? 0);
	if (!Number.isInteger(itemsPerBatch) || itemsPerBatch < 1) {
		throw new NodeOperationError(
			context.getNode(),
			`Invalid "Items per Batch": must be a whole number of 1 or more, not ${String(batching.itemsPerBatch)}`,
		);
	}
	if (!Number.isFinite(batchInterval) || batchInterval < 0) {
		throw new NodeOperationError(
			context.getNode(),
			`Invalid "Batch Interval (Ms)": must be 0 or more, not ${String(batching.batchInterval)}`,
		);
	}
	return { itemsPerBatch, batchInterval };
}
