/**
 * The guarded pipeline: operations that create something at the service run in two passes. Every
 * item is built and validated first (a bad row stops the run before any money moves), the run
 * checked against the credential's limits and an Approved Fingerprint (or only previewed:
 * preview.ts), then the items are sent, up to Items per Batch at once, each at most once
 * (run.ts), and their records verified to have held. Items that asked to wait for their final
 * status then all wait together, their status checks within the same Batching bound on requests
 * in flight.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readApproval, readPayeeName } from '../../controls/approval';
import { type Batching, batchingOf } from '../../input/batching';
import { runOrigin } from '../../controls/idempotency';
import { inFlight } from '../inFlight';
import { limitsRefusal } from '../../controls/paymentLimits';
import { settlementFields, waitForFinalStatus } from '../settlement';
import { eachItem, eachItemBatched, inItemOrder, type ItemResult, refuseAll } from '../itemLoop';
import { approvalRefusal, previewRun } from './preview';
import { type GuardedOperation, moneyOf, prepareItem, type PreparedItem } from './prepare';
import { noteChangingKey } from '../../controls/changingKey';
import { noteRepeats } from '../../controls/repeats';
import { ledgerRun } from './run';
import { runSummary, type SummaryRow } from '../../output/runSummary';

export async function runGuarded(
	context: IExecuteFunctions,
	operation: GuardedOperation,
	indexes: number[],
): Promise<INodeExecutionData[]> {
	const origin = runOrigin(context);
	const approval = readApproval(context);
	if (indexes.length > 0) noteChangingKey(context, indexes[0]);
	if (approval.previewOnly) return await previewRun(context, operation, indexes, origin);
	const prepared = await eachItem(
		context,
		indexes,
		async (itemIndex) => await prepareItem(context, operation, itemIndex, origin),
	);
	const preparedItem = (itemIndex: number) =>
		(prepared.get(itemIndex) as { ok: true; value: PreparedItem }).value;
	const items = indexes.filter((itemIndex) => prepared.get(itemIndex)!.ok).map(preparedItem);
	const refusal = await limitsRefusal(context, moneyOf(items));
	const refused = refusal ?? approvalRefusal(context, items, approval);
	if (refused) return refuseAll(context, indexes, prepared, refused);
	const batching = items.length > 0 ? batchingOf(context) : undefined;
	const sent = batching
		? await sendOnce(context, items, origin, batching)
		: new Map<number, ItemResult<IDataObject>>();
	noteRepeats(context, [...sent.values()]);
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
	const checks = inFlight(batching && toWait.length > 0 ? batching.itemsPerBatch : 1);
	const waited = new Map<number, IDataObject>();
	await Promise.all(
		toWait.map(async (itemIndex) => {
			const json = (sent.get(itemIndex) as { ok: true; value: IDataObject }).value;
			try {
				const settlement = await waitForFinalStatus(
					context,
					json.id as string,
					preparedItem(itemIndex).request.waitForFinal!,
					checks,
				);
				waited.set(itemIndex, { ...json, ...settlementFields(settlement) });
			} catch (error) {
				// The payout was sent: a failed check does not make it a failed item.
				const waitError = (error as Error).message;
				waited.set(itemIndex, { ...json, settled: false, finalStatus: null, waitError });
			}
		}),
	);
	const outputs = new Map<number, ItemResult<INodeExecutionData[]>>();
	for (const itemIndex of indexes) {
		const json = waited.get(itemIndex);
		const result = json
			? { ok: true as const, value: json }
			: (sent.get(itemIndex) ?? prepared.get(itemIndex)!);
		outputs.set(
			itemIndex,
			result.ok
				? {
						ok: true,
						value: context.helpers.returnJsonArray(
							withInputFields(context, itemIndex, result.value as IDataObject),
						),
					}
				: result,
		);
	}
	const out = inItemOrder(context, indexes, outputs);
	if (context.getNodeParameter('runSummary', 0, false) !== true) return out;
	const rows = indexes.map((itemIndex): SummaryRow => {
		const result = outputs.get(itemIndex)!;
		const item = prepared.get(itemIndex)!.ok ? preparedItem(itemIndex) : undefined;
		const sentResult = sent.get(itemIndex);
		const json = waited.get(itemIndex) ?? (sentResult?.ok ? sentResult.value : undefined);
		return {
			itemIndex,
			payeeName: readPayeeName(context, itemIndex),
			body: item?.request.body,
			money: item?.request.money,
			...(result.ok ? { json } : { error: String(result.errorItem.json.error ?? '') }),
		};
	});
	return [...out, { json: runSummary(rows), pairedItem: indexes.map((item) => ({ item })) }];
}

/** Include Input Fields (descriptions/fields.ts): the input row's fields first, the node's over them. */
function withInputFields(context: IExecuteFunctions, itemIndex: number, json: IDataObject) {
	if (context.getNodeParameter('includeInputFields', itemIndex, false) !== true) return json;
	return { ...context.getInputData()[itemIndex].json, ...json };
}

/**
 * Sends the prepared items with the node's Batching (in flight at once, or batch after batch);
 * then, even when the run stops on a failed item, releases what was reserved but not sent and
 * verifies that every record of what was sent held in n8n's store. A failure to verify does not
 * hide the item's own error.
 */
async function sendOnce(
	context: IExecuteFunctions,
	items: PreparedItem[],
	origin: string,
	batching: Batching,
) {
	// Made at the first item: where n8n has no store for it, each item fails on its own.
	let run: ReturnType<typeof ledgerRun> | undefined;
	const send = async (itemIndex: number) =>
		await (run ??= ledgerRun(context, items, origin, batching.itemsPerBatch)).send(itemIndex);
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
