import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { DEFAULT_ITEMS_PER_BATCH } from '../helpers/fields';

import { runOrigin } from '../helpers/idempotency';
import { limiter } from '../helpers/limiter';
import { settlementFields, waitForFinalStatus } from '../helpers/settlement';
import { isAgentTool } from '../helpers/toolDescriptions';
import { InvalidInput } from '../helpers/validation';
import {
	guardedRun,
	isGuarded,
	prepareItem,
	type GuardedOperation,
	type PreparedItem,
} from './guarded/run';
import * as beneficiary from './beneficiary';
import * as card from './card';
import * as collection from './collection';
import * as country from './country';
import * as customer from './customer';
import * as payout from './payout';
import * as swap from './swap';
import * as transaction from './transaction';

type Operation = {
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
	/** A read: its items may be requested several at once (the Batching option). */
	reads?: boolean;
	/** Items per Batch when the user sets none (DEFAULT_ITEMS_PER_BATCH otherwise). */
	itemsPerBatchDefault?: number;
};

type GuardedRun = ReturnType<typeof guardedRun>;

const resources: Record<string, Record<string, unknown>> = {
	beneficiary,
	card,
	collection,
	country,
	customer,
	payout,
	swap,
	transaction,
};

function findOperation(
	context: IExecuteFunctions,
	resource: string,
	operation: string,
): Operation | GuardedOperation {
	const candidate = resources[resource]?.[operation] as Operation | undefined;
	if (typeof candidate?.execute !== 'function' && !isGuarded(candidate)) {
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return candidate;
}

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

type ItemResult<T> = { ok: true; value: T } | { ok: false; errorItem: INodeExecutionData };

/**
 * Runs `task` for every item, one after another, in order. A failed item stops the node, or
 * with Continue On Fail becomes exactly one error item (paired with it) and the others go on.
 */
async function eachItem<T>(
	context: IExecuteFunctions,
	indexes: number[],
	task: (itemIndex: number) => Promise<T>,
): Promise<Map<number, ItemResult<T>>> {
	const results = new Map<number, ItemResult<T>>();
	for (const itemIndex of indexes) {
		try {
			results.set(itemIndex, { ok: true, value: await task(itemIndex) });
		} catch (error) {
			const nodeError = asNodeError(context, error, itemIndex);
			if (!context.continueOnFail()) throw nodeError;
			results.set(itemIndex, { ok: false, errorItem: errorItem(nodeError, itemIndex) });
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
 * after a failure.
 */
async function eachItemBatched<T>(
	context: IExecuteFunctions,
	indexes: number[],
	{ itemsPerBatch, batchInterval }: Batching,
	task: (itemIndex: number) => Promise<T>,
): Promise<Map<number, ItemResult<T>>> {
	if (itemsPerBatch <= 1 && batchInterval === 0) return await eachItem(context, indexes, task);
	const results = new Map<number, ItemResult<T>>();
	const failures = new Map<number, NodeApiError | NodeOperationError>();
	const stopOnFailure = !context.continueOnFail();
	const runOne = async (itemIndex: number) => {
		try {
			results.set(itemIndex, { ok: true, value: await task(itemIndex) });
		} catch (error) {
			const nodeError = asNodeError(context, error, itemIndex);
			failures.set(itemIndex, nodeError);
			results.set(itemIndex, { ok: false, errorItem: errorItem(nodeError, itemIndex) });
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

interface Batching {
	itemsPerBatch: number;
	batchInterval: number;
}

/** The operation's Batching option (the first item's: it applies to the whole run). */
function batchingOf(
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

/** The outputs in item order: each item's own, paired with it, or its error item. */
function inItemOrder(
	context: IExecuteFunctions,
	indexes: number[],
	results: Map<number, ItemResult<INodeExecutionData[]>>,
): INodeExecutionData[] {
	return indexes.flatMap((itemIndex) => {
		const result = results.get(itemIndex)!;
		if (!result.ok) return [result.errorItem];
		return context.helpers.constructExecutionMetaData(result.value, {
			itemData: { item: itemIndex },
		});
	});
}

/**
 * Operations that create something at the service run in two passes: every item is built and
 * validated first (a bad row stops the run before any money moves), then the items are sent, up
 * to Items per Batch at once, each at most once (exactlyOnce.ts), and their records checked to
 * have held. Items that asked to wait for their final status then all wait together, their
 * status checks within the same Batching bound on requests in flight.
 */
async function runGuarded(
	context: IExecuteFunctions,
	operation: GuardedOperation,
	indexes: number[],
) {
	const origin = runOrigin(context);
	const prepared = await eachItem(
		context,
		indexes,
		async (itemIndex) => await prepareItem(context, operation, itemIndex, origin),
	);
	const preparedItem = (itemIndex: number) =>
		(prepared.get(itemIndex) as { ok: true; value: PreparedItem }).value;
	const sent = await sendOnce(
		context,
		indexes.filter((itemIndex) => prepared.get(itemIndex)!.ok).map(preparedItem),
		origin,
	);
	const toWait = [...sent.entries()]
		.filter(
			([itemIndex, result]) =>
				result.ok &&
				preparedItem(itemIndex).request.waitForFinal &&
				typeof result.value.id === 'string' &&
				!result.value.alreadySubmitted,
		)
		.map(([itemIndex]) => itemIndex);
	// Every sent payout waits at once; their status checks share the Batching bound on requests.
	const checks = limiter(toWait.length > 0 ? batchingOf(context).itemsPerBatch : 1);
	const waited = await eachItemBatched(
		context,
		toWait,
		{ itemsPerBatch: Math.max(1, toWait.length), batchInterval: 0 },
		async (itemIndex) => {
			const json = (sent.get(itemIndex) as { ok: true; value: IDataObject }).value;
			try {
				const settlement = await waitForFinalStatus(
					context,
					json.id as string,
					preparedItem(itemIndex).request.waitForFinal!,
					checks,
				);
				return { ...json, ...settlementFields(settlement) };
			} catch (error) {
				// The payout was sent: a failed check does not make it a failed item.
				return { ...json, settled: false, finalStatus: null, waitError: (error as Error).message };
			}
		},
	);
	const outputs = new Map<number, ItemResult<INodeExecutionData[]>>();
	for (const itemIndex of indexes) {
		const result = waited.get(itemIndex) ?? sent.get(itemIndex) ?? prepared.get(itemIndex)!;
		outputs.set(
			itemIndex,
			result.ok
				? { ok: true, value: context.helpers.returnJsonArray(result.value as IDataObject) }
				: result,
		);
	}
	return inItemOrder(context, indexes, outputs);
}

/**
 * Sends the prepared items with the node's Batching (in flight at once, or batch after batch);
 * then, even when the run stops on a failed item, frees what was claimed but not sent and makes
 * sure every record of what was sent held in n8n's store. A failure to settle does not hide the
 * item's own error.
 */
async function sendOnce(context: IExecuteFunctions, items: PreparedItem[], origin: string) {
	if (items.length === 0) return new Map<number, ItemResult<IDataObject>>();
	const batching = batchingOf(context);
	// Made at the first item: where n8n has no store for it, each item fails on its own.
	let run: GuardedRun | undefined;
	const send = async (itemIndex: number) =>
		await (run ??= guardedRun(context, items, origin, batching.itemsPerBatch)).send(itemIndex);
	let stopped = true;
	try {
		const sent = await eachItemBatched(
			context,
			items.map((item) => item.itemIndex),
			batching,
			send,
		);
		stopped = false;
		return sent;
	} finally {
		if (stopped) await run?.finish().catch(() => undefined);
		else await run?.finish();
	}
}

/** Runs the chosen operation for every input item; the outputs keep the items' order. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const indexes = [...this.getInputData().keys()];
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const found = findOperation(this, resource, operation);
	if (isGuarded(found)) return [await runGuarded(this, found, indexes)];

	const { execute } = found;
	const run = async (itemIndex: number) => await execute.call(this, itemIndex);
	const results = found.reads
		? await eachItemBatched(this, indexes, batchingOf(this, found.itemsPerBatchDefault), run)
		: await eachItem(this, indexes, run);
	return [inItemOrder(this, indexes, results)];
}
