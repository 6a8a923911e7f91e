/**
 * A run in which any item comes out already submitted says so above its output (issue #46,
 * point 3): a monthly payroll started with last month's rows, or with some rows unchanged, would
 * otherwise skip them silently (the keys are the same).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemResult } from '../engine/itemLoop';

/** The earliest day the repeats were sent, as the items say it (sentOn, or sentBefore). */
function earliest(repeats: IDataObject[]): string {
	const on = repeats.flatMap((json) => (typeof json.sentOn === 'string' ? [json.sentOn] : []));
	const before = repeats.flatMap((json) =>
		typeof json.sentBefore === 'string' ? [json.sentBefore] : [],
	);
	if (before.length > 0) return `, the earliest before ${before.sort()[0]}`;
	return on.length > 0 ? `, the earliest on ${on.sort()[0]}` : '';
}

export function noteRepeats(context: IExecuteFunctions, results: Array<ItemResult<IDataObject>>) {
	const repeats = results.flatMap((result) =>
		result.ok && result.value.alreadySubmitted === true ? [result.value] : [],
	);
	if (repeats.length === 0) return;
	const what =
		repeats.length === results.length
			? `Nothing was sent: all ${results.length} items were already submitted by an earlier run`
			: `${repeats.length} of ${results.length} items were not sent: already submitted by an earlier run`;
	context.addExecutionHints({
		type: 'warning',
		location: 'outputPane',
		message: `${what} (same idempotency keys${earliest(repeats)}). For a new period, such as next month's payroll, put the period from your data in Duplicate Protection → Idempotency Key, e.g. {{ $json.invoiceId }}-{{ $json.period }}; a key made from the date of the run ($now) changes when a run is retried on another day.`,
	});
}
