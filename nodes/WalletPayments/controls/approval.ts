/**
 * Preview and approval of a payout run (issue #31, points 1 and 2): Preview Only checks every row
 * as a run would and sends nothing; its fingerprint says exactly what would be sent; a run given
 * an Approved Fingerprint sends nothing unless its rows make the same one.
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { majorText } from '../input/units';
import { canonicalJson } from './idempotency';
import { sameName, type SavedPayee } from './payeeCheck';

export const approvalProperties: INodeProperties[] = [
	{
		displayName: 'Preview Only',
		name: 'previewOnly',
		type: 'boolean',
		default: false,
		description:
			'Whether to check every row as a run would (the same checks, reads, limits and duplicate records) and send nothing: one item per row (would send, already submitted, or refused, and why), then a summary with the totals and the fingerprint to approve',
	},
	{
		displayName: 'Preview Until Approved',
		name: 'previewUntilApproved',
		type: 'boolean',
		default: false,
		displayOptions: { show: { previewOnly: [false] } },
		description:
			'Whether to preview (send nothing) while Approved Fingerprint is empty, and to send once it is set: one node previews the rows, then pays them when they come back with the approved fingerprint in a column',
	},
	{
		displayName: 'Approved Fingerprint',
		name: 'approvedFingerprint',
		type: 'string',
		default: '',
		placeholder: 'fp-…',
		displayOptions: { show: { previewOnly: [false] } },
		description:
			'The fingerprint of a preview someone approved. When set, nothing is sent unless these rows are exactly the approved ones: none added, removed or changed. A row the preview showed refused comes out refused, one the service turns down at sending comes out failed (result and reason), and the others are sent.',
		hint: "The preview's last item has it, e.g. {{ $('Pay').last().json.fingerprint }}",
	},
	{
		displayName: 'Payee Name',
		name: 'payeeName',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.name }}',
		description:
			"The payee's name in the preview's message and table, ready to paste into a Slack, email or form message. Empty: the inline account's name, or the saved beneficiary's as the service knows it (shown beside this name where they differ).",
	},
];

export interface Approval {
	previewOnly: boolean;
	/** Empty: no approval asked for. */
	approvedFingerprint: string;
}

/** The node's Preview Only, Preview Until Approved and Approved Fingerprint (operations without them: none). */
export function readApproval(context: IExecuteFunctions): Approval {
	const fingerprint = context.getNodeParameter('approvedFingerprint', 0, '');
	const approvedFingerprint = typeof fingerprint === 'string' ? fingerprint.trim() : '';
	const untilApproved = context.getNodeParameter('previewUntilApproved', 0, false) === true;
	return {
		previewOnly:
			context.getNodeParameter('previewOnly', 0, false) === true ||
			(untilApproved && approvedFingerprint === ''),
		approvedFingerprint,
	};
}

/**
 * The fingerprint of what a run would send: every valid row's request (amount, currency, payee,
 * description, reference given) and the key the user gave, in any order of the rows. A key the
 * node derives is left out: it depends on what started the run, not on what is paid.
 */
export function fingerprintOf(rows: Array<{ key: string | null; body: IDataObject }>): string {
	const texts = rows.map(canonicalJson).sort();
	return `fp-${createHash('sha256').update(texts.join('\n')).digest('hex').slice(0, 32)}`;
}

/*
 * What a payout preview gives an approver, ready to paste into a Slack, e-mail or form message:
 * each row to send (payee, masked account, amount in the currency's units), the totals per
 * currency, the counts and the fingerprint; as plain text and as a Markdown table.
 */
export interface MessageRow {
	itemIndex: number;
	/** The Payee Name given for the row ('' when none). */
	payeeName: string;
	body: IDataObject;
	money?: { currency: string; minor: number };
	/** A saved beneficiary as the service knows it (null: it has none with the row's ID). */
	saved?: SavedPayee | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The row's Payee Name ('' when none is set, or the operation has no such field). */
export const readPayeeName = (context: IExecuteFunctions, itemIndex: number): string =>
	String(context.getNodeParameter('payeeName', itemIndex, '') ?? '').trim();

/** The payee's name as the request gives it: the inline account's name, else the saved beneficiary's ID. */
export function payeeOf(body: IDataObject): string {
	const beneficiary = (body.beneficiary ?? {}) as IDataObject;
	const destination = (beneficiary.destination ?? {}) as IDataObject;
	const name = text(destination.accountName) || text(destination.name);
	if (name) return name;
	const id = text(body.beneficiaryId);
	return id ? `beneficiary ${id}` : 'payee not named';
}

const masked = (account: string) =>
	!account ? '' : account.length <= 4 ? '••••' : `••••${account.slice(-4)}`;

/** The account with all but its last 4 characters hidden; '' when the request carries none. */
export function maskedAccountOf(body: IDataObject): string {
	const beneficiary = (body.beneficiary ?? {}) as IDataObject;
	const destination = (beneficiary.destination ?? {}) as IDataObject;
	return masked(text(destination.accountNumber) || text(destination.iban));
}

/**
 * The row's payee for an approver: a saved beneficiary as the service knows it (its name beside
 * the sheet's where they differ, its account), so a wrong ID is seen before it is approved.
 */
function payeeLine(row: MessageRow): { name: string; account: string } {
	const given = row.payeeName || payeeOf(row.body);
	if (row.saved === null) {
		return { name: `${given} (no saved beneficiary has this ID)`, account: '' };
	}
	if (row.saved === undefined) return { name: given, account: maskedAccountOf(row.body) };
	const known = row.saved.accountName;
	const name =
		!known || (row.payeeName && sameName(row.payeeName, known))
			? given
			: row.payeeName
				? `${row.payeeName} (saved as ${known})`
				: known;
	return { name, account: masked(row.saved.accountNumber) };
}

const amountOf = (row: MessageRow) =>
	row.money ? majorText(row.money.minor, row.money.currency) : '';

/** A cell of a Markdown table: no line breaks, and a pipe that does not end the cell. */
const cell = (value: string) => value.replace(/\s+/g, ' ').replace(/\|/g, '\\|');

export function approvalMessage(
	rows: MessageRow[],
	counts: { rows: number; send: number; alreadySubmitted: number; refused: number },
	totals: Record<string, { major: string }>,
	fingerprint: string,
	period?: string,
): { message: string; table: string } {
	const totalText =
		Object.entries(totals)
			.map(([, total]) => total.major)
			.join('; ') || 'nothing';
	const lines = rows.map((row, at) => {
		const payee = payeeLine(row);
		return [`${at + 1}. ${payee.name}`, payee.account, amountOf(row)]
			.filter((part) => part !== '')
			.join(' · ');
	});
	const message = [
		`Payout run to approve: ${counts.send} of ${counts.rows} rows to send (${counts.alreadySubmitted} already submitted, ${counts.refused} refused)`,
		...(period ? [`Period: ${period}`] : []),
		...lines,
		`Total: ${totalText}`,
		`Fingerprint: ${fingerprint}`,
	].join('\n');
	const table = [
		...(period ? [`Period: ${period}`, ''] : []),
		'| # | Payee | Account | Amount |',
		'| --- | --- | --- | --- |',
		...rows.map((row, at) => {
			const payee = payeeLine(row);
			return `| ${at + 1} | ${cell(payee.name)} | ${cell(payee.account)} | ${cell(amountOf(row))} |`;
		}),
		`| | Total | | ${cell(totalText)} |`,
	].join('\n');
	return { message, table };
}

/** One row's own fingerprint (its part of fingerprintOf): a preview row carries it. */
export const rowFingerprintOf = (row: { key: string | null; body: IDataObject }): string =>
	createHash('sha256').update(canonicalJson(row)).digest('hex').slice(0, 16);

/** A row as the approval compares it: where it is, its key, its row fingerprint and amount. */
export interface ComparedRow {
	/** The item's place in the node's input (in the preview's run, or in this one). */
	itemIndex: number;
	key: string;
	rowFingerprint: string;
	amount?: string;
}

/**
 * What differs between the approved preview's rows and these: `changed` (the same key, another
 * request), `added` (not in the preview) and `removed` (in the preview, not here).
 */
export function rowsDiffer(approved: ComparedRow[], now: ComparedRow[]) {
	const unmatched = groupBy(approved, (row) => row.rowFingerprint);
	const extra = now.filter((row) => !unmatched.get(row.rowFingerprint)?.shift());
	const missing = [...unmatched.values()].flat();
	const missingByKey = groupBy(missing, (row) => row.key);
	const changed: Array<{ now: ComparedRow; approved: ComparedRow }> = [];
	const added: ComparedRow[] = [];
	for (const row of extra) {
		const old = missingByKey.get(row.key)?.shift();
		if (old) changed.push({ now: row, approved: old });
		else added.push(row);
	}
	const paired = new Set(changed.map((pair) => pair.approved));
	return { changed, added, removed: missing.filter((row) => !paired.has(row)) };
}

/** The rows by `keyOf`, each group in the rows' order. */
function groupBy(rows: ComparedRow[], keyOf: (row: ComparedRow) => string) {
	const groups = new Map<string, ComparedRow[]>();
	for (const row of rows) {
		const group = groups.get(keyOf(row));
		if (group) group.push(row);
		else groups.set(keyOf(row), [row]);
	}
	return groups;
}

/** The rows that differ, in words (at most `shown` of them named). */
export function differText(differ: ReturnType<typeof rowsDiffer>, shown = 10): string {
	const parts = [
		...differ.changed.map(
			({ now, approved }) =>
				`item ${now.itemIndex} (${now.key}) changed${now.amount && approved.amount && now.amount !== approved.amount ? `: ${approved.amount} approved, ${now.amount} now` : ''}`,
		),
		...differ.added.map((row) => `item ${row.itemIndex} (${row.key}) added`),
		...differ.removed.map((row) => `${row.key} removed (item ${row.itemIndex} of the preview)`),
	];
	const more = parts.length > shown ? `; and ${parts.length - shown} more` : '';
	return parts.slice(0, shown).join('; ') + more;
}
