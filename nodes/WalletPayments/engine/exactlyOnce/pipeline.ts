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

import { readApproval } from '../../controls/approval';
import { type Batching, batchingOf } from '../../input/batching';
import { runOrigin } from '../../controls/idempotency';
import { limitsRefusal } from '../../controls/paymentLimits';
import { eachItem, eachItemBatched, type GoesOn, type ItemResult, refuseAll } from '../itemLoop';
import { serviceDeclined } from '../../transport/errors';
import { settleSent } from '../settlement';
import { approvalRefusal, previewRun } from './preview';
import { type GuardedOperation, moneyOf, prepareItem, type PreparedItem } from './prepare';
import { noteChangingKey } from '../../controls/changingKey';
import { noteRepeats } from '../../controls/repeats';
import { guardedOutput } from './output';
import { ledgerRun, notePeriods, periodCheck } from './run';
import { anchorPeriods } from '../../../shared/ledger';

export async function runGuarded(
	context: IExecuteFunctions,
	operation: GuardedOperation,
	indexes: number[],
): Promise<INodeExecutionData[]> {
	const origin = runOrigin(context);
	const approval = readApproval(context);
	if (indexes.length > 0) noteChangingKey(context, indexes[0]);
	if (approval.previewOnly) return await previewRun(context, operation, indexes, origin);
	// 1. Prepare: every item built and checked; nothing is sent yet. In an approved run a refused
	// row stops nothing: the approver saw it refused in the preview, and the fingerprint (step 2)
	// holds only while the same rows are refused, so it comes out as a refused row.
	const approved = approval.approvedFingerprint !== '';
	const prepared = await eachItem(
		context,
		indexes,
		async (itemIndex) => await prepareItem(context, operation, itemIndex, origin),
		() => approved,
	);
	const preparedItem = (itemIndex: number) =>
		(prepared.get(itemIndex) as { ok: true; value: PreparedItem }).value;
	const items = indexes.filter((itemIndex) => prepared.get(itemIndex)!.ok).map(preparedItem);
	// 2. Payment controls: the credential's limits, then the approval.
	const refusal =
		(await limitsRefusal(context, moneyOf(items))) ?? approvalRefusal(context, items, approval);
	// 3. A Period paid before whose records this node cannot show (run.ts periodCheck).
	const periods = refusal ? undefined : await periodCheck(context, items);
	const refused = refusal ?? periods?.refusal;
	if (refused) return refuseAll(context, indexes, prepared, refused);
	await anchorPeriods(context, periods?.fresh ?? []);
	// 4. Record and send, each item at most once.
	const batching = items.length > 0 ? batchingOf(context) : undefined;
	// An approved run pays every row it can: one the service declines comes out failed, with the
	// service's reason, and the others are sent (docs/payment-controls.md).
	const goesOn = approved ? serviceDeclined : undefined;
	const sent = batching
		? await recordAndSendAll(context, items, origin, batching, goesOn)
		: new Map<number, ItemResult<IDataObject>>();
	noteRepeats(context, [...sent.values()]);
	await notePeriods(context, items, (itemIndex) => sent.get(itemIndex)?.ok === true);
	// 5. Settle: Wait for Final Status. 6. Output, in item order.
	const waitOf = (itemIndex: number) => preparedItem(itemIndex).request.waitForFinal;
	const settled = await settleSent(context, sent, waitOf, batching);
	return guardedOutput(context, indexes, { prepared, sent, settled });
}

/**
 * Records and sends the prepared items with the node's Batching (in flight at once, or batch after batch);
 * then, even when the run stops on a failed item, releases what was reserved but not sent and
 * verifies that every record of what was sent held in n8n's store. A failure to verify does not
 * hide the item's own error.
 */
async function recordAndSendAll(
	context: IExecuteFunctions,
	items: PreparedItem[],
	origin: string,
	batching: Batching,
	goesOn?: GoesOn,
) {
	// Made at the first item: where n8n has no store for it, each item fails on its own.
	let run: ReturnType<typeof ledgerRun> | undefined;
	const recordAndSend = async (itemIndex: number) =>
		await (run ??= ledgerRun(context, items, origin, batching.itemsPerBatch)).recordAndSend(
			itemIndex,
		);
	let stopped = true;
	try {
		const sent = await eachItemBatched(
			context,
			items.map((item) => item.itemIndex),
			batching,
			recordAndSend,
			goesOn,
		);
		stopped = false;
		return sent;
	} finally {
		if (stopped) await run?.finish().catch(() => undefined);
		else await run?.finish();
	}
}
