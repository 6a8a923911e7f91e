import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Requests a read operation keeps in flight at once by default (docs/performance.md). */
export const DEFAULT_ITEMS_PER_BATCH = 10;

/** Batching of an operation's items, as in n8n's HTTP Request node; the router reads it. */
function batchingField(description: string, itemsPerBatchDescription: string): INodeProperties {
	return {
		displayName: 'Batching',
		name: 'batching',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description,
		options: [
			{
				displayName: 'Batch Interval (Ms)',
				name: 'batchInterval',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description:
					'Milliseconds to wait between batches; 0 keeps Items per Batch requests in flight at all times. Use it to stay under a rate limit.',
			},
			{
				displayName: 'Items per Batch',
				name: 'itemsPerBatch',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_ITEMS_PER_BATCH,
				description: itemsPerBatchDescription,
			},
		],
	};
}

/** A read's Batching: requests at once. */
export const readBatchingField = batchingField(
	'How many items are requested at once. The output keeps the input order either way.',
	'How many items are requested at the same time. 1 requests one item after another.',
);

/**
 * Batching of an operation that creates something: requests at once. Each item is still sent at
 * most once, its key recorded before its request leaves (engine/exactlyOnce/).
 */
export const sendBatchingField = batchingField(
	'How many items are sent at once. Each item is still sent at most once, and the output keeps the input order either way.',
	'How many items are sent at the same time. 1 sends one item after another, in order.',
);

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
