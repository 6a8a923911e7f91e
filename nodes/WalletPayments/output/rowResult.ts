/**
 * What became of one row of a guarded run, in one column a reconciliation file can sort on:
 * `result` (paid, failed, sent, refused, already submitted, unknown) and, where there is one,
 * `reason`. docs/reference.md lists the values.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RequestOutcome } from '../transport/errors';

type RowResult = 'paid' | 'failed' | 'sent' | 'refused' | 'already submitted' | 'unknown';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * How a row's request failed: a request outcome (transport/errors.ts), or `declined`: sent, and
 * the service turned it down for a reason of its own.
 */
export type RowFailure = RequestOutcome | 'declined';

/**
 * The row's result from its output, or from its error item's fields (which have `error`) and
 * how its request failed.
 */
export function rowResult(
	json: IDataObject,
	failure?: RowFailure,
): { result: RowResult; reason?: string } {
	if (json.error !== undefined) {
		// A request that got no clear answer may have been carried out: not "refused". One the
		// service turned down reached it and failed there, as a payout that fails later does.
		const result =
			failure === 'unknown' ? 'unknown' : failure === 'declined' ? 'failed' : 'refused';
		return { result, reason: text(json.error) };
	}
	if (json.alreadySubmitted === true) {
		if (json.outcome === 'unknown') return { result: 'unknown', reason: text(json.message) };
		return { result: 'already submitted' };
	}
	if (json.settled === true) {
		if (json.finalStatus === 'success') return { result: 'paid' };
		return { result: 'failed', reason: text(json.failedReason) ?? text(json.finalStatus) };
	}
	return { result: 'sent', reason: json.settled === false ? text(json.waitError) : undefined };
}

/** The row's output with its result and reason added (the reason only where there is one). */
export function withRowResult(json: IDataObject, failure?: RowFailure): IDataObject {
	const { result, reason } = rowResult(json, failure);
	return { ...json, result, ...(reason === undefined ? {} : { reason }) };
}
