/**
 * A payout run's Preview and its approval (controls/approval.ts has the fields and the
 * fingerprint). A preview prepares every row as a run does (the same checks and reads), checks the
 * credential's limits, looks up each key's records without keeping anything (shared/ledger
 * peek.ts), and sends nothing: one item per row, then a summary with the fingerprint.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPairedItemData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { peekKeys, type Seen, type SentDay } from '../../../shared/ledger';
import {
	type Approval,
	approvalMessage,
	type ComparedRow,
	differText,
	fingerprintOf,
	readPayeeName,
	rowFingerprintOf,
	rowsDiffer,
} from '../../controls/approval';
import { addMoney, type Totals } from '../../output/runSummary';
import { limitsRefusal } from '../../controls/paymentLimits';
import { savedPayeesOf } from '../../controls/payeeCheck';
import { majorText } from '../../input/units';
import { type GuardedOperation, moneyOf, prepareItem, type PreparedItem } from './prepare';
import { sentFields, sentText } from './send';
import { periodCheck } from './run';

const fingerprintOfItems = (items: PreparedItem[]) => fingerprintOf(items.map((i) => i.approved));

/**
 * The rows of the preview that made `fingerprint`, when this node made it earlier in this
 * execution (Preview Until Approved: the rows came back after the approval); else undefined.
 */
function approvedRows(context: IExecuteFunctions, fingerprint: string): ComparedRow[] | undefined {
	if (typeof context.getWorkflowDataProxy !== 'function') return undefined;
	const proxy = context.getWorkflowDataProxy(0);
	for (let run = proxy.$thisRunIndex - 1; run >= 0; run--) {
		let out: INodeExecutionData[];
		try {
			out = proxy.$items(context.getNode().name, 0, run);
		} catch {
			continue; // no output in that run
		}
		const summary = out.at(-1)?.json;
		if (summary?.summary !== true || summary.fingerprint !== fingerprint) continue;
		return out.flatMap((item, at) => {
			const { rowFingerprint, idempotencyKey, amount } = item.json;
			if (typeof rowFingerprint !== 'string') return [];
			const paired = (item.pairedItem as IPairedItemData | undefined)?.item;
			return [
				{
					itemIndex: typeof paired === 'number' ? paired : at,
					key: String(idempotencyKey),
					rowFingerprint,
					...(typeof amount === 'string' ? { amount } : {}),
				},
			];
		});
	}
	return undefined;
}

const comparedOf = (item: PreparedItem): ComparedRow => ({
	itemIndex: item.itemIndex,
	key: item.key,
	rowFingerprint: rowFingerprintOf(item.approved),
	...(item.request.money
		? { amount: majorText(item.request.money.minor, item.request.money.currency) }
		: {}),
});

/** The run's error when an Approved Fingerprint is set and these rows do not make it. */
export function approvalRefusal(
	context: IExecuteFunctions,
	items: PreparedItem[],
	approval: Approval,
): NodeOperationError | undefined {
	if (approval.approvedFingerprint === '') return undefined;
	const now = fingerprintOfItems(items);
	if (now === approval.approvedFingerprint) return undefined;
	const approved = approvedRows(context, approval.approvedFingerprint);
	const which = approved
		? differText(rowsDiffer(approved, items.map(comparedOf)))
		: 'a row was added, removed or changed since the preview';
	return new NodeOperationError(
		context.getNode(),
		`Nothing was sent: these rows are not the approved ones (approved ${approval.approvedFingerprint}, these make ${now}): ${which}`,
		{
			description:
				'Preview these rows again and have that preview approved, or run the approved rows unchanged.',
		},
	);
}

/** Totals per currency in minor units, and the largest payment, of the rows to send. */
function tally(items: PreparedItem[]) {
	const totals: Totals = {};
	let largest: PreparedItem | undefined;
	for (const item of items) {
		const money = item.request.money;
		if (!money) continue;
		addMoney(totals, money);
		if (!largest || money.minor > largest.request.money!.minor) largest = item;
	}
	const big = largest?.request.money;
	return {
		totals,
		largest: big
			? {
					itemIndex: largest!.itemIndex,
					minor: big.minor,
					major: majorText(big.minor, big.currency),
				}
			: null,
	};
}

export async function previewRun(
	context: IExecuteFunctions,
	operation: GuardedOperation,
	indexes: number[],
	origin: string,
): Promise<INodeExecutionData[]> {
	// Every row is prepared, whatever Continue On Fail says: a refused row is reported, not thrown.
	const prepared = new Map<number, PreparedItem | string>();
	for (const itemIndex of indexes) {
		try {
			prepared.set(itemIndex, await prepareItem(context, operation, itemIndex, origin));
		} catch (error) {
			prepared.set(itemIndex, `${(error as Error).message} (item ${itemIndex})`);
		}
	}
	const items = indexes
		.map((itemIndex) => prepared.get(itemIndex)!)
		.filter((p): p is PreparedItem => typeof p !== 'string');
	const refusal =
		(await limitsRefusal(context, moneyOf(items))) ?? (await periodCheck(context, items)).refusal;
	const { seen, sent } = refusal
		? { seen: new Map<string, Seen>(), sent: new Map<string, SentDay>() }
		: await peekKeys(
				context,
				items.map((item) => item.key),
			);
	const earlier = new Set<string>();
	const toSend: PreparedItem[] = [];
	const counts = { send: 0, alreadySubmitted: 0, refused: 0 };
	const out: INodeExecutionData[] = indexes.map((itemIndex) => {
		const entry = prepared.get(itemIndex)!;
		let json: IDataObject;
		if (typeof entry === 'string') {
			json = { decision: 'refused', reason: entry };
		} else {
			const money = entry.request.money;
			const row: IDataObject = {
				idempotencyKey: entry.key,
				...(entry.reference === undefined ? {} : { reference: entry.reference }),
				...(money ? { amount: majorText(money.minor, money.currency) } : {}),
				request: entry.request.body,
				rowFingerprint: rowFingerprintOf(entry.approved),
			};
			const repeat = earlier.has(entry.key);
			earlier.add(entry.key);
			const found = seen.get(entry.key);
			if (refusal) json = { decision: 'refused', reason: refusal.message, ...row };
			else if (!entry.allowResend && (repeat || found !== 'new')) {
				const day = !repeat && found === 'accepted' ? sent.get(entry.key) : undefined;
				const reason = repeat
					? 'an earlier row of this run has the same key: it is sent once'
					: found === 'accepted'
						? `sent by an earlier run${sentText(day)}; the service accepted it`
						: 'sent by an earlier run with no clear answer: it may have been carried out';
				json = { decision: 'alreadySubmitted', reason, ...sentFields(day), ...row };
			} else {
				json = {
					decision: 'send',
					...(entry.allowResend && found !== 'new' ? { reason: 'Allow Resend' } : {}),
					...(entry.resendOf === undefined
						? {}
						: { reason: `Resend Only These Keys: sent once more (${entry.resendOf} was sent)` }),
					...row,
				};
				toSend.push(entry);
			}
		}
		counts[json.decision as keyof typeof counts]++;
		return { json: { preview: true, ...json }, pairedItem: { item: itemIndex } };
	});
	const totals = tally(toSend);
	const fingerprint = fingerprintOfItems(items);
	// The periods of the rows (Duplicate Protection → Period), for the approver to see.
	const period = [...new Set(items.flatMap((item) => (item.period ? [item.period] : [])))].join(
		', ',
	);
	// Saved beneficiaries as the service knows them: the approver sees who an ID pays.
	const savedIdOf = (item: PreparedItem) =>
		typeof item.request.body.beneficiaryId === 'string' ? item.request.body.beneficiaryId : '';
	const saved = await savedPayeesOf(context, [...new Set(toSend.map(savedIdOf))].filter(Boolean));
	const rows = toSend.map((item) => ({
		itemIndex: item.itemIndex,
		payeeName: readPayeeName(context, item.itemIndex),
		body: item.request.body,
		money: item.request.money,
		saved: saved?.get(savedIdOf(item)),
	}));
	const summary: IDataObject = {
		preview: true,
		summary: true,
		rows: indexes.length,
		toSend: counts.send,
		alreadySubmitted: counts.alreadySubmitted,
		refused: counts.refused,
		...totals,
		...(refusal ? { refusedBy: refusal.message } : {}),
		...(period ? { period } : {}),
		fingerprint,
		...approvalMessage(
			rows,
			{ rows: indexes.length, ...counts },
			totals.totals,
			fingerprint,
			period,
		),
	};
	out.push({ json: summary, pairedItem: indexes.map((item) => ({ item })) });
	return out;
}
