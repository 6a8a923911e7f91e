/**
 * The periods a node paid rows in (issue #64, points 1 and 3), kept in the workflow's own row of
 * n8n's store (scope 'workflow'), apart from the node's records: a few values a year, which the
 * node's row (trimmed by count) would drop after enough nights. Two runs are refused before they
 * send anything: one of a period that a node of this name paid and this one (another ID: it
 * replaced that node) finds none of its rows sent; and one of a period whose oldest records this
 * node's row dropped (its anchor, written before them, is gone), for the rows it finds new.
 * docs/ledger.md, "Periods".
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { daysOfNode } from './days';
import { peekKeys } from './peek';
import { KEYS_REMEMBERED, periodAnchor, periodById, periodByName } from './states';
import { openStore } from './store';

/** The most values the workflow's row keeps (n8n trims it by count, as every row). */
const PERIODS_KEPT = 10_000;
const options = { mode: 'entries', maxEntries: PERIODS_KEPT } as const;

/** An item as this check sees it: its place in the input, its row's key, its Period, Allow Resend. */
export interface PeriodItem {
	itemIndex: number;
	rowKey: string;
	period: string;
	allowResend: boolean;
}

/** A run refused: why, the period, its rows, and the oldest day the node's row keeps. */
export interface PeriodRefusal {
	cause: 'replaced' | 'dropped';
	period: string;
	itemIndexes: number[];
	keptSince?: string;
}

/** The periods' values for this node: by its ID and by its name. */
function periodValues(context: IExecuteFunctions, periods: string[]): string[] {
	const { id, name } = context.getNode();
	return periods.flatMap((p) => [periodById(id, p), periodByName(name, p)]);
}

/** Which of `periods` this node (by its ID) and a node of its name noted: asked, nothing left. */
async function notedPeriods(context: IExecuteFunctions, periods: string[]) {
	const { checkProcessedAndRecord, removeProcessed } = context.helpers;
	const { id, name } = context.getNode();
	const values = periodValues(context, periods);
	const answer = await checkProcessedAndRecord.call(context.helpers, values, 'workflow', options);
	const found = new Set(answer.processed.map(String));
	const absent = values.filter((value) => !found.has(value));
	if (absent.length > 0) await removeProcessed.call(context.helpers, absent, 'workflow', options);
	return {
		byId: new Set(periods.filter((p) => found.has(periodById(id, p)))),
		byName: new Set(periods.filter((p) => found.has(periodByName(name, p)))),
	};
}

/**
 * Checks a run's rows against the periods noted. Returns the refusal, if any, and the periods
 * this node has not noted (their anchors go into its row before their first records: anchorPeriods).
 * The workflow's row unreadable: no refusal (the node's own records still hold).
 */
export async function checkPeriods(context: IExecuteFunctions, items: PeriodItem[]) {
	// Rows sent on purpose (Allow Resend) are not checked; their period is anchored all the same.
	const byPeriod = new Map<string, PeriodItem[]>();
	for (const item of items.filter((i) => !i.allowResend))
		byPeriod.set(item.period, [...(byPeriod.get(item.period) ?? []), item]);
	const periods = [...new Set(items.map((item) => item.period))];
	if (periods.length === 0) return { fresh: [] as string[] };
	let noted: Awaited<ReturnType<typeof notedPeriods>>;
	try {
		noted = await notedPeriods(context, periods);
	} catch (error) {
		context.logger?.warn(`wallet-payments: the node's periods could not be read: ${String(error)}`);
		return { fresh: [] as string[] };
	}
	const fresh = periods.filter((p) => !noted.byId.has(p));
	const newRows = async (period: string) => {
		const rows = byPeriod.get(period) ?? [];
		const { seen } = await peekKeys(
			context,
			rows.map((row) => row.rowKey),
		);
		return rows.filter((row) => seen.get(row.rowKey) === 'new').map((row) => row.itemIndex);
	};
	for (const period of fresh.filter((p) => noted.byName.has(p))) {
		const unseen = await newRows(period);
		if (unseen.length > 0 && unseen.length === byPeriod.get(period)!.length)
			return {
				fresh,
				refusal: { cause: 'replaced', period, itemIndexes: unseen } as PeriodRefusal,
			};
	}
	const store = openStore(context, KEYS_REMEMBERED);
	const anchors = periods.filter((p) => noted.byId.has(p)).map(periodAnchor);
	const kept =
		anchors.length > 0 ? await store.atomically(async () => await store.ask(anchors)) : new Set();
	for (const period of periods.filter((p) => noted.byId.has(p) && !kept.has(periodAnchor(p)))) {
		const unseen = await newRows(period);
		if (unseen.length === 0) continue;
		const keptSince = (await store.atomically(async () => await daysOfNode(store))).at(-1);
		return {
			fresh,
			refusal: { cause: 'dropped', period, itemIndexes: unseen, keptSince } as PeriodRefusal,
		};
	}
	return { fresh };
}

/** Writes the anchors of periods this node has not noted, before their first records. */
export async function anchorPeriods(context: IExecuteFunctions, periods: string[]) {
	if (periods.length === 0) return;
	try {
		const store = openStore(context, KEYS_REMEMBERED);
		await store.atomically(async () => await store.record(periods.map(periodAnchor)));
	} catch (error) {
		// The run's own records fail the same way, item by item; without its anchor a period is
		// only not checked for dropped records later.
		context.logger?.warn(
			`wallet-payments: a period's anchor could not be written: ${String(error)}`,
		);
	}
}

/** Notes that this node paid rows in these periods. A failure is logged: the rows were sent. */
export async function notePaidPeriods(context: IExecuteFunctions, periods: string[]) {
	if (periods.length === 0) return;
	const values = periodValues(context, [...new Set(periods)]);
	try {
		await context.helpers.checkProcessedAndRecord.call(
			context.helpers,
			values,
			'workflow',
			options,
		);
	} catch (error) {
		context.logger?.warn(
			`wallet-payments: the node's periods could not be written: ${String(error)}`,
		);
	}
}
