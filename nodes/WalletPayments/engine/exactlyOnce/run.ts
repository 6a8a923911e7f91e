import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	type Forgotten,
	KEYS_REMEMBERED,
	notePaidPeriods,
	PLACE_RECORDS_PER_ITEM,
	QUEUE_RECORDS_PER_ITEM,
	RECORDS_PER_ITEM,
	openLedger,
	RecordsLost,
	runMark,
	checkPeriods,
	type PeriodRefusal,
	type Verdict,
	windows,
} from '../../../shared/ledger';
import { itemRanges } from '../../input/itemRanges';
import type { PreparedItem } from './prepare';
import { sendItem } from './send';

/** The store could not record an item before its send: it is not sent, and nothing after it is. */
function notRecorded(
	context: IExecuteFunctions,
	error: unknown,
	sent: number[],
): NodeOperationError {
	const why = error instanceof Error ? error.message : String(error);
	const sentSoFar =
		sent.length === 0
			? 'No item of this run was sent.'
			: `Items sent by this run: ${itemRanges(sent)} (${sent.length}).`;
	const lost =
		error instanceof RecordsLost
			? ' The run it repeats may have sent items this run found new: check the items after those before running them again.'
			: '';
	return new NodeOperationError(
		context.getNode(),
		`Not sent: n8n could not record this item before sending it (${why})`,
		{
			description: `Nothing more was sent by this run. ${sentSoFar}${lost}`,
		},
	);
}

function forgottenRefusal(
	context: IExecuteFunctions,
	items: PreparedItem[],
	{ keptSince }: Forgotten,
): NodeOperationError {
	const since = keptSince === undefined ? '' : ` (it keeps them from ${keptSince}, UTC, on)`;
	return new NodeOperationError(
		context.getNode(),
		`Nothing was sent: this Retry repeats a run whose records n8n's store no longer keeps${since}, so it cannot tell which of items ${itemRanges(items.map((item) => item.itemIndex))} that run sent`,
		{
			description:
				'n8n keeps a node’s most recent records only. Check each item (Transaction → Get, or the provider’s dashboard). To send them anyway, turn on Duplicate Protection → Allow Resend, Retry with the saved workflow once, then turn it off again.',
		},
	);
}

/** The row's own key: the one a resend or a renewal was made from. */
const rowKeyOf = (item: Pick<PreparedItem, 'key' | 'resendOf' | 'renewalOf'>) =>
	item.resendOf ?? item.renewalOf ?? item.key;

const PERIOD_HOW =
	'Check the period’s payouts in the service (Transaction → Get, or its dashboard). To send them, turn on Duplicate Protection → Allow Resend for one run, then off again.';

/** The words of a period refusal (shared/ledger/periods.ts). */
function periodError(context: IExecuteFunctions, refused: PeriodRefusal): NodeOperationError {
	const items = itemRanges(refused.itemIndexes);
	const since =
		refused.keptSince === undefined ? '' : ` (it keeps them from ${refused.keptSince}, UTC, on)`;
	const message =
		refused.cause === 'replaced'
			? `Nothing was sent: a node named ${context.getNode().name} paid rows in period ${refused.period} before, and this one finds none of items ${items} sent: it replaced that node, and n8n keeps records per node`
			: `Nothing was sent: n8n's store no longer keeps this node's oldest records of period ${refused.period}${since}, so it cannot tell whether items ${items} were sent`;
	return new NodeOperationError(context.getNode(), message, { description: PERIOD_HOW });
}

/**
 * The items' Periods checked before anything is sent (shared/ledger/periods.ts): a refusal, and
 * the periods this node runs for the first time (anchored before their first records).
 */
export async function periodCheck(context: IExecuteFunctions, items: PreparedItem[]) {
	const withPeriod = items.flatMap(({ itemIndex, period, allowResend, ...item }) =>
		period === undefined ? [] : [{ itemIndex, rowKey: rowKeyOf(item), period, allowResend }],
	);
	const { fresh, refusal } = await checkPeriods(context, withPeriod);
	return { fresh, refusal: refusal && periodError(context, refusal) };
}

/** Notes the Periods of the items that came out sent or already submitted (periods.ts). */
export async function notePeriods(
	context: IExecuteFunctions,
	items: PreparedItem[],
	done: (itemIndex: number) => boolean,
) {
	const periods = items.filter((item) => item.period !== undefined && done(item.itemIndex));
	await notePaidPeriods(
		context,
		periods.map((item) => item.period!),
	);
}

/**
 * One run of a node's items through the ledger: each item's key is reserved before its request
 * leaves (in windows, ahead of the senders: shared/ledger/windows.ts), an item reserved before is
 * output as already submitted, and `finish` writes what is left and verifies that every record
 * held.
 */
export function ledgerRun(
	context: IExecuteFunctions,
	items: PreparedItem[],
	origin: string,
	inFlight: number,
) {
	// Items with a place (a derived key) keep two records more each: a run may send fewer.
	const extra = items.some((item) => item.place !== undefined) ? PLACE_RECORDS_PER_ITEM : 0;
	const limit = (perItem: number) => Math.floor(KEYS_REMEMBERED / (2 * (perItem + extra)));
	if (items.length > limit(RECORDS_PER_ITEM)) {
		throw new NodeOperationError(
			context.getNode(),
			`Nothing was sent: ${items.length} items are more than one run of this node may send (${limit(RECORDS_PER_ITEM)})`,
			{
				description: `The node remembers ${Math.floor(KEYS_REMEMBERED / (RECORDS_PER_ITEM + extra))} items so that no re-run sends one twice; one run may use half of that. Split the items over several runs (e.g. with a Loop Over Items node).`,
			},
		);
	}
	const ledger = openLedger(context, origin === '' ? undefined : runMark(origin));
	const ahead = windows(ledger, items, inFlight);
	const byIndex = new Map(items.map((item) => [item.itemIndex, item]));
	const sent: number[] = [];
	let sizeChecked: Promise<void> | undefined;
	/**
	 * A Retry of a run whose records the store dropped would find that run's items new and send
	 * them again: it sends nothing unless told to (forgotten.ts).
	 */
	const checkRetry = async () => {
		if (context.getMode() !== 'retry' || items.every((item) => item.allowResend)) return;
		const forgotten = await ledger.forgotten();
		if (forgotten) throw forgottenRefusal(context, items, forgotten);
	};
	/** Claims keep more records per item (states.ts): a run may send fewer items. */
	const checkQueueSize = async () => {
		const most = limit(QUEUE_RECORDS_PER_ITEM);
		if (items.length > most && (await ledger.claimWait()) !== undefined) {
			throw new NodeOperationError(
				context.getNode(),
				`Nothing was sent: ${items.length} items are more than one run of this node may send while its records are claims across n8n processes (${most})`,
				{
					description: `With claims (the credential's n8n Runs As, unless One Process Only) the node remembers ${Math.floor(KEYS_REMEMBERED / (QUEUE_RECORDS_PER_ITEM + extra))} items so that no re-run sends one twice; one run may use half of that. Split the items over several runs (e.g. with a Loop Over Items node).`,
				},
			);
		}
	};
	return {
		/** The item's verdict from its window (reserved ahead), then sendItem: the one place that sends. */
		recordAndSend: async (itemIndex: number): Promise<IDataObject> => {
			await (sizeChecked ??= checkQueueSize().then(checkRetry));
			const item = byIndex.get(itemIndex)!;
			try {
				let verdict: Verdict;
				try {
					verdict = await ahead.verdictFor(itemIndex);
				} catch (error) {
					throw notRecorded(context, error, sent);
				}
				return await sendItem(context, ledger, item, verdict, () => sent.push(itemIndex));
			} finally {
				ahead.finished(itemIndex);
			}
		},
		/** Releases the keys of items reserved but never sent, writes what is left, verifies it held. */
		finish: async () => {
			await ahead.releaseUnsent();
			await ledger.flush();
			await ledger.verify();
		},
	};
}
