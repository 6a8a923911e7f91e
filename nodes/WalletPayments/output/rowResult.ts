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
 * The row's result from its output, or from its error item's fields (which have `error`) and
 * whether its request may have been carried out (`unknown`).
 */
export function rowResult(
	json: IDataObject,
	failure?: RequestOutcome,
): { result: RowResult; reason?: string } {
	if (json.error !== undefined) {
		// A request that got no clear answer may have been carried out: not "refused".
		const result = failure === 'unknown' ? 'unknown' : 'refused';
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
export function withRowResult(json: IDataObject, failure?: RequestOutcome): IDataObject {
	const { result, reason } = rowResult(json, failure);
	return { ...json, result, ...(reason === undefined ? {} : { reason }) };
}
