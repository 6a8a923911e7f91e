/**
 * What the node keeps of what it created: the service's answer per idempotency key, so that a
 * later run that finds the key already submitted outputs the same details (a collection's
 * receiving account, amount and expiry) instead of blanks. The service has no look-up of a
 * collection by its reference, so the node keeps them itself, in n8n's workflow static data for
 * this node: n8n saves it after every run except one started from the editor (manual), one row
 * per workflow, the last run's copy winning. Why, and what it does not cover: docs/collections.md.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** The newest this many records are kept (each a few hundred bytes of the workflow's row). */
export const MAX_KEPT = 1000;

interface Kept {
	/** When it was kept (ISO 8601). */
	at: string;
	record: IDataObject;
}

function keptMap(context: IExecuteFunctions): Record<string, Kept> {
	const data = context.getWorkflowStaticData('node');
	if (typeof data.kept !== 'object' || data.kept === null) data.kept = {};
	return data.kept as Record<string, Kept>;
}

/** Keeps `record` for `key`, dropping the oldest beyond MAX_KEPT. */
export function keepRecord(context: IExecuteFunctions, key: string, record: IDataObject): void {
	const kept = keptMap(context);
	delete kept[key]; // the newest last
	kept[key] = { at: new Date().toISOString(), record };
	const keys = Object.keys(kept);
	for (const old of keys.slice(0, Math.max(0, keys.length - MAX_KEPT))) delete kept[old];
	// A write that n8n sees, so that it saves the static data after the run.
	context.getWorkflowStaticData('node').keptCount = Math.min(keys.length, MAX_KEPT);
}

/** The record kept for `key`, if any. */
export function keptRecord(context: IExecuteFunctions, key: string): Kept | undefined {
	const kept = keptMap(context)[key];
	return kept && typeof kept.record === 'object' ? kept : undefined;
}

const NOT_KEPT =
	'This node did not keep its details: it was made by a run started from the editor (n8n does not save what such a run keeps), by an earlier version, or more than 1,000 records ago. Look it up in the service’s dashboard by its reference.';

const expiredNote = (expiryDate: string) =>
	`Its receiving account expired at ${expiryDate}: unless the customer paid before then, they can no longer pay into it. To bill them again in this period, turn on Renew Expired (a new collection for those the service says expired unpaid, under its own key).`;

/** What an operation keeps (GuardedRequest.keep): which fields, and whether to say when none were kept. */
export interface KeepSettings {
	fields: string[];
	/** Collections: an e-mail after the node needs the details, so their absence is said. */
	sayWhenMissing: boolean;
}

/** The fields of `data` the operation keeps. */
export const keptFields = (data: IDataObject, { fields }: KeepSettings): IDataObject =>
	Object.fromEntries(fields.filter((field) => data[field] !== undefined).map((f) => [f, data[f]]));

/**
 * What an already-submitted item outputs of what was created: the kept record, with
 * `detailsKept` and, where it has an expiry, `expired`; or, when nothing was kept, says so.
 */
export function keptDetails(
	context: IExecuteFunctions,
	key: string,
	{ sayWhenMissing }: KeepSettings,
): IDataObject {
	const kept = keptRecord(context, key);
	if (!kept) return sayWhenMissing ? { detailsKept: false, detailsNote: NOT_KEPT } : {};
	const expiryDate = kept.record.expiryDate;
	const expiry = typeof expiryDate === 'string' ? Date.parse(expiryDate) : NaN;
	if (!Number.isFinite(expiry)) return { ...kept.record, detailsKept: true, keptAt: kept.at };
	const expired = expiry <= Date.now();
	return {
		...kept.record,
		detailsKept: true,
		keptAt: kept.at,
		expired,
		...(expired ? { detailsNote: expiredNote(String(expiryDate)) } : {}),
	};
}
