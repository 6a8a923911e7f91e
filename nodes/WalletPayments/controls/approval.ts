/**
 * Preview and approval of a payout run (issue #31, points 1 and 2): Preview Only checks every row
 * as a run would and sends nothing; its fingerprint says exactly what would be sent; a run given
 * an Approved Fingerprint sends nothing unless its rows make the same one.
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { canonicalJson } from './idempotency';

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
		displayName: 'Approved Fingerprint',
		name: 'approvedFingerprint',
		type: 'string',
		default: '',
		placeholder: 'fp-…',
		displayOptions: { show: { previewOnly: [false] } },
		description:
			'The fingerprint of a preview someone approved. When set, nothing is sent unless these rows are exactly the approved ones: none added, removed or changed.',
		hint: "The preview's last item has it, e.g. {{ $('Pay').last().json.fingerprint }}",
	},
];

export interface Approval {
	previewOnly: boolean;
	/** Empty: no approval asked for. */
	approvedFingerprint: string;
}

/** The node's Preview Only and Approved Fingerprint (operations without them: neither). */
export function readApproval(context: IExecuteFunctions): Approval {
	const fingerprint = context.getNodeParameter('approvedFingerprint', 0, '');
	return {
		previewOnly: context.getNodeParameter('previewOnly', 0, false) === true,
		approvedFingerprint: typeof fingerprint === 'string' ? fingerprint.trim() : '',
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
