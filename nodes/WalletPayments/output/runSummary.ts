/**
 * Add Run Summary: one item after a payout run's rows, so a message or a report needs no code:
 * how many rows came out each way, the totals per currency, and the rows that need attention.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { payeeOf } from '../controls/approval';
import { majorText } from '../input/units';

export const runSummaryField: INodeProperties = {
	displayName: 'Add Run Summary',
	name: 'runSummary',
	type: 'boolean',
	default: false,
	description:
		'Whether to add one item after the rows: how many rows came out each way (e.g. success, failed, already submitted), the totals per currency sent and paid, the rows that need attention, and a text for a message',
};

/** One row of the run as the summary sees it. */
export interface SummaryRow {
	itemIndex: number;
	/** The Payee Name given for the row, else '' (the request's payee is used). */
	payeeName: string;
	body?: IDataObject;
	money?: { currency: string; minor: number };
	/** The row's output, or undefined when it failed (its error in `error`). */
	json?: IDataObject;
	error?: string;
}

/** What became of a row: its final status when it waited for one, else what the run did. */
function outcomeOf(row: SummaryRow): { outcome: string; reason?: string } {
	const json = row.json;
	if (!json) return { outcome: 'not sent', reason: row.error };
	if (json.alreadySubmitted === true) return { outcome: 'already submitted' };
	if (json.settled === true) {
		const reason = typeof json.failedReason === 'string' ? json.failedReason : undefined;
		return { outcome: String(json.finalStatus), reason };
	}
	if (json.settled === false) {
		const reason = typeof json.waitError === 'string' ? json.waitError : undefined;
		return { outcome: 'not final in time', reason };
	}
	return { outcome: typeof json.status === 'string' ? json.status : 'sent' };
}

/** Outcomes that are as the run meant them: anything else needs a person. */
const FINE = new Set([
	'success',
	'already submitted',
	'initiated',
	'pending',
	'sent',
	'processing',
]);

export type Totals = Record<string, { minor: number; major: string }>;

/** Adds a payment to the totals per currency, in minor units and as text. */
export function addMoney(totals: Totals, money: { currency: string; minor: number }): void {
	const minor = (totals[money.currency]?.minor ?? 0) + money.minor;
	totals[money.currency] = { minor, major: majorText(minor, money.currency) };
}

export function runSummary(rows: SummaryRow[]): IDataObject {
	const byOutcome: Record<string, number> = {};
	const sent: Totals = {};
	const paid: Totals = {};
	const attention: IDataObject[] = [];
	for (const row of rows) {
		const { outcome, reason } = outcomeOf(row);
		byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
		const sentNow = row.json !== undefined && row.json.alreadySubmitted !== true;
		if (row.money && sentNow) addMoney(sent, row.money);
		if (row.money && outcome === 'success') addMoney(paid, row.money);
		if (FINE.has(outcome)) continue;
		attention.push({
			itemIndex: row.itemIndex,
			payee: row.payeeName || (row.body ? payeeOf(row.body) : ''),
			...(row.money ? { amount: majorText(row.money.minor, row.money.currency) } : {}),
			outcome,
			...(reason ? { reason } : {}),
			...(typeof row.json?.id === 'string' ? { transactionId: row.json.id } : {}),
		});
	}
	const totalText = (totals: Totals) =>
		Object.values(totals)
			.map((total) => total.major)
			.join('; ') || 'nothing';
	const text = [
		`Payout run: ${rows.length} rows. ${Object.entries(byOutcome)
			.map(([outcome, count]) => `${outcome}: ${count}`)
			.join(', ')}.`,
		`Sent: ${totalText(sent)}. Paid (final status success): ${totalText(paid)}.`,
		...attention.map(
			(row) =>
				`Needs attention: ${String(row.payee)}${row.amount ? ` (${String(row.amount)})` : ''}: ${String(row.outcome)}${row.reason ? `, ${String(row.reason)}` : ''}`,
		),
	].join('\n');
	return { summary: true, rows: rows.length, byOutcome, sent, paid, attention, text };
}
