/**
 * The item loops: every input item runs once, in order or up to Items per Batch at once; a
 * failed item stops the node, or with Continue On Fail becomes exactly one error item, paired
 * with it; the outputs keep the items' order.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { Batching } from '../input/batching';
import { isAgentTool } from '../descriptions/toolDescriptions';
import { InvalidInput } from '../input/validation';
import { outcomeOf, type RequestOutcome, serviceDeclined } from '../transport/errors';

/** Every failure leaves the router as a NodeApiError or NodeOperationError that knows its item. */
function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof InvalidInput) {
		// An AI agent gets only the message of a tool's error (n8n drops the description): the
		// hint, which says what is allowed, goes into it.
		const forAgent = isAgentTool(context) && error.hint ? ` ${error.hint}` : '';
		return new NodeOperationError(
			context.getNode(),
			`${error.message} (item ${itemIndex})${forAgent}`,
			{
				itemIndex,
				description: error.hint,
			},
		);
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * An item's result. A failure keeps whether the service refused the request or may have carried
 * it out, and whether it declined it for a reason of its own (transport/errors.ts), for the row's
 * result (output/rowResult.ts).
 */
export type ItemResult<T> =
	| { ok: true; value: T }
	| { ok: false; errorItem: INodeExecutionData; outcome?: RequestOutcome; declined?: boolean };

const failed = (error: NodeApiError | NodeOperationError, itemIndex: number) => ({
	ok: false as const,
	errorItem: errorItem(error, itemIndex),
	outcome: outcomeOf(error),
	declined: serviceDeclined(error),
});

/**
 * The failures after which the other items go on without Continue On Fail (in an approved run,
 * a row refused: pipeline.ts).
 */
export type GoesOn = (error: NodeApiError | NodeOperationError) => boolean;
const stops: GoesOn = () => false;

/**
 * Runs `task` for every item, one after another, in order. A failed item stops the node, or
 * with Continue On Fail (or where `goesOn` says so) becomes exactly one error item (paired with
 * it) and the others go on.
 */
export async function eachItem<T>(
	context: IExecuteFunctions,
	indexes: number[],
	task: (itemIndex: number) => Promise<T>,
	goesOn: GoesOn = stops,
): Promise<Map<number, ItemResult<T>>> {
	const results = new Map<number, ItemResult<T>>();
	for (const itemIndex of indexes) {
		try {
			results.set(itemIndex, { ok: true, value: await task(itemIndex) });
		} catch (error) {
			const nodeError = asNodeError(context, error, itemIndex);
			if (!goesOn(nodeError) && !context.continueOnFail()) throw nodeError;
			results.set(itemIndex, failed(nodeError, itemIndex));
		}
	}
	return results;
}

/**
 * Like eachItem, with up to `itemsPerBatch` items in flight: with no interval a new item starts
 * as soon as one finishes; with an interval, batch after batch with a wait in between, as n8n's
 * HTTP Request node does. Results are kept by item index, so the output order is the input
 * order. Without Continue On Fail the first failing item (in input order) is thrown, as the
 * one-at-a-time loop would, once the items already in flight have finished; nothing new starts
 * after a failure (but one `goesOn` lets pass).
 */
export async function eachItemBatched<T>(
	context: IExecuteFunctions,
	indexes: number[],
	{ itemsPerBatch, batchInterval }: Batching,
	task: (itemIndex: number) => Promise<T>,
	goesOn: GoesOn = stops,
): Promise<Map<number, ItemResult<T>>> {
	if (itemsPerBatch <= 1 && batchInterval === 0) {
		return await eachItem(context, indexes, task, goesOn);
	}
	const results = new Map<number, ItemResult<T>>();
	const failures = new Map<number, NodeApiError | NodeOperationError>();
	const stopOnFailure = !context.continueOnFail();
	const runOne = async (itemIndex: number) => {
		try {
			results.set(itemIndex, { ok: true, value: await task(itemIndex) });
		} catch (error) {
			const nodeError = asNodeError(context, error, itemIndex);
			if (!goesOn(nodeError)) failures.set(itemIndex, nodeError);
			results.set(itemIndex, failed(nodeError, itemIndex));
		}
	};
	const stopped = () => stopOnFailure && failures.size > 0;
	if (batchInterval > 0) {
		for (let start = 0; start < indexes.length && !stopped(); start += itemsPerBatch) {
			if (start > 0) await sleep(batchInterval);
			await Promise.all(indexes.slice(start, start + itemsPerBatch).map(runOne));
		}
	} else {
		let next = 0;
		const worker = async () => {
			while (next < indexes.length && !stopped()) await runOne(indexes[next++]);
		};
		await Promise.all(Array.from({ length: Math.min(itemsPerBatch, indexes.length) }, worker));
	}
	if (stopped()) throw failures.get(Math.min(...failures.keys()))!;
	return results;
}

/**
 * A run refused as a whole before anything was sent (the credential's limits): the error stops
 * the node, or with Continue On Fail every item not already failed becomes one error item with it.
 */
export function refuseAll<T>(
	context: IExecuteFunctions,
	indexes: number[],
	results: Map<number, ItemResult<T>>,
	refusal: NodeOperationError,
): INodeExecutionData[] {
	if (!context.continueOnFail()) throw refusal;
	const outputs = new Map<number, ItemResult<INodeExecutionData[]>>();
	for (const itemIndex of indexes) {
		const result = results.get(itemIndex);
		outputs.set(
			itemIndex,
			result && !result.ok ? result : { ok: false, errorItem: errorItem(refusal, itemIndex) },
		);
	}
	return inItemOrder(context, indexes, outputs);
}

/**
 * An error item for n8n's On Error → Continue (using error output): n8n sends an item there only
 * when its json holds nothing but `error`, `message` and `details`, and then adds the input
 * item's fields itself. So the rest goes into `details`, less the input's own fields.
 */
function forErrorOutput(item: INodeExecutionData, input: IDataObject): INodeExecutionData {
	const { error, ...rest } = item.json;
	const details = Object.fromEntries(
		Object.entries(rest).filter(([key, value]) => !(key in input) || input[key] !== value),
	);
	return { ...item, json: Object.keys(details).length === 0 ? { error } : { error, details } };
}

/** The outputs in item order: each item's own, paired with it, or its error item. */
export function inItemOrder(
	context: IExecuteFunctions,
	indexes: number[],
	results: Map<number, ItemResult<INodeExecutionData[]>>,
): INodeExecutionData[] {
	const errorOutput = context.getNode().onError === 'continueErrorOutput';
	return indexes.flatMap((itemIndex) => {
		const result = results.get(itemIndex)!;
		if (!result.ok && errorOutput) {
			return [forErrorOutput(result.errorItem, context.getInputData()[itemIndex]?.json ?? {})];
		}
		if (!result.ok) return [result.errorItem];
		return context.helpers.constructExecutionMetaData(result.value, {
			itemData: { item: itemIndex },
		});
	});
}
