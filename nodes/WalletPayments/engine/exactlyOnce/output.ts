/**
 * The guarded pipeline's output step: one output per input item, in item order (settled, sent,
 * or its error), with Include Input Fields, and the Run Summary item when asked.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readPayeeName } from '../../controls/approval';
import { type RowFailure, withRowResult } from '../../output/rowResult';
import { runSummary, type SummaryRow } from '../../output/runSummary';
import { inItemOrder, type ItemResult } from '../itemLoop';
import type { PreparedItem } from './prepare';

export interface GuardedResults {
	prepared: Map<number, ItemResult<PreparedItem>>;
	sent: Map<number, ItemResult<IDataObject>>;
	settled: Map<number, IDataObject>;
}

export function guardedOutput(
	context: IExecuteFunctions,
	indexes: number[],
	{ prepared, sent, settled }: GuardedResults,
): INodeExecutionData[] {
	const outputs = new Map<number, ItemResult<INodeExecutionData[]>>();
	for (const itemIndex of indexes) {
		const json = settled.get(itemIndex);
		const result = json
			? { ok: true as const, value: json }
			: (sent.get(itemIndex) ?? prepared.get(itemIndex)!);
		outputs.set(
			itemIndex,
			result.ok
				? {
						ok: true,
						value: context.helpers.returnJsonArray(
							withInputFields(context, itemIndex, result.value as IDataObject, prepared),
						),
					}
				: {
						ok: false,
						errorItem: errorWithRow(context, itemIndex, result, prepared, sent.has(itemIndex)),
					},
		);
	}
	const out = inItemOrder(context, indexes, outputs);
	if (context.getNodeParameter('runSummary', 0, false) !== true) return out;
	const rows = indexes.map((itemIndex): SummaryRow => {
		const result = outputs.get(itemIndex)!;
		const preparedResult = prepared.get(itemIndex)!;
		const item = preparedResult.ok ? preparedResult.value : undefined;
		const sentResult = sent.get(itemIndex);
		const json = settled.get(itemIndex) ?? (sentResult?.ok ? sentResult.value : undefined);
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

/**
 * An item's error (Continue On Fail, or a refused row of an approved run) as a reconciliation file
 * needs it: with Include Input Fields, a line like any other row's.
 */
function errorWithRow(
	context: IExecuteFunctions,
	itemIndex: number,
	result: Extract<ItemResult<unknown>, { ok: false }>,
	prepared: Map<number, ItemResult<PreparedItem>>,
	atSend: boolean,
): INodeExecutionData {
	const failure = atSend && result.declined === true ? 'declined' : result.outcome;
	const json = withInputFields(context, itemIndex, result.errorItem.json, prepared, failure);
	return { ...result.errorItem, json };
}

/**
 * Include Input Fields (descriptions/fields.ts): the output as a reconciliation file's line. The
 * input row's fields first, the node's over them, the key to list to resend the row (once it was
 * worked out), and the row's result.
 */
function withInputFields(
	context: IExecuteFunctions,
	itemIndex: number,
	json: IDataObject,
	prepared: Map<number, ItemResult<PreparedItem>>,
	failure?: RowFailure,
) {
	if (context.getNodeParameter('includeInputFields', itemIndex, false) !== true) return json;
	const preparedResult = prepared.get(itemIndex);
	const key = preparedResult?.ok ? { idempotencyKey: preparedResult.value.key } : {};
	return {
		...context.getInputData()[itemIndex].json,
		...key,
		...withRowResult(json, failure),
	};
}
