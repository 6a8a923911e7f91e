/**
 * The periods a node paid rows in (issue #64, points 1 and 3), kept in the workflow's own row of
 * n8n's store (scope 'workflow'), apart from the node's records: a few values a year, which the
 * node's row (trimmed by count) would drop after enough nights, and which a node that replaced
 * this one under the same name still finds. A run of a period the node paid before in which it
 * finds none of its rows was sent is refused before sending: its rows are new, their Row ID
 * changed, the node is not the one that paid them, or the records of that period are gone.
 * docs/ledger.md, "Periods".
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { peekKeys } from './peek';
import { periodById, periodByName } from './states';

/** The most values the workflow's row keeps (n8n trims it by count, as every row). */
const PERIODS_KEPT = 10_000;
const options = { mode: 'entries', maxEntries: PERIODS_KEPT } as const;

/** A period's values: by the node's ID (kept through a rename) and by its name (a replacement). */
function periodValues(context: IExecuteFunctions, period: string): string[] {
	const node = context.getNode();
	return [periodById(node.id, period), periodByName(node.name, period)];
}

/** An item as this check sees it: its place in the input, its row's key and its Period. */
export interface PeriodItem {
	itemIndex: number;
	rowKey: string;
	period: string;
}

/** The periods among `periods` this node paid rows in: asked, the values not there removed. */
async function paidPeriods(context: IExecuteFunctions, periods: string[]): Promise<Set<string>> {
	const { checkProcessedAndRecord, removeProcessed } = context.helpers;
	const values = periods.flatMap((period) => periodValues(context, period));
	const answer = await checkProcessedAndRecord.call(context.helpers, values, 'workflow', options);
	const found = new Set(answer.processed.map(String));
	const absent = values.filter((value) => !found.has(value));
	if (absent.length > 0) await removeProcessed.call(context.helpers, absent, 'workflow', options);
	return new Set(periods.filter((p) => periodValues(context, p).some((v) => found.has(v))));
}

/**
 * The first period this node paid rows in before, of which it finds none of these rows sent,
 * with those rows. Undefined when there is none, or the workflow's row cannot be read (the
 * node's own records still hold: this check adds to them).
 */
export async function unseenRowsOfPaidPeriod(
	context: IExecuteFunctions,
	items: PeriodItem[],
): Promise<{ period: string; itemIndexes: number[] } | undefined> {
	if (items.length === 0) return undefined;
	const byPeriod = new Map<string, PeriodItem[]>();
	for (const item of items) byPeriod.set(item.period, [...(byPeriod.get(item.period) ?? []), item]);
	let paid: Set<string>;
	try {
		paid = await paidPeriods(context, [...byPeriod.keys()]);
	} catch (error) {
		context.logger?.warn(`wallet-payments: the node's periods could not be read: ${String(error)}`);
		return undefined;
	}
	for (const period of paid) {
		const rows = byPeriod.get(period)!;
		const { seen } = await peekKeys(
			context,
			rows.map((row) => row.rowKey),
		);
		if ([...seen.values()].every((found) => found === 'new'))
			return { period, itemIndexes: rows.map((row) => row.itemIndex) };
	}
	return undefined;
}

/** Writes that this node paid rows in these periods. A failure is logged: the run's rows were sent. */
export async function notePaidPeriods(context: IExecuteFunctions, periods: string[]) {
	if (periods.length === 0) return;
	const values = [...new Set(periods)].flatMap((period) => periodValues(context, period));
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
