import type { INodeProperties } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../transport/pagination';
import { REFERENCE_HINT } from './idempotency';
import { waitProperties } from './settlement';

/** Return All / Limit, as on n8n's built-in "Get Many" operations. */
export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		hint: `Fetched ${MAX_PAGE_SIZE} per request; more than ${MAX_PAGE_SIZE} takes several requests`,
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** The customer a money operation is for, by email (several operations take it). */
export function customerEmailField(description: string): INodeProperties {
	return {
		displayName: 'Customer Email',
		name: 'customerEmail',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description,
	};
}

/**
 * A reference that, left empty, becomes the retry-safe derived one (`referenceFromKey` in
 * helpers/idempotency.ts).
 */
export function referenceField(description: string, hint = REFERENCE_HINT): INodeProperties {
	return {
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		default: '',
		description,
		hint,
	};
}

/** The wallet a payout is paid from. */
export const sourceWalletCurrencyField: INodeProperties = {
	displayName: 'Source Wallet Currency',
	name: 'sourceWalletCurrency',
	type: 'string',
	required: true,
	default: 'USD',
	placeholder: 'USD',
	description: 'Three-letter code of the wallet to debit',
};

/**
 * Read by the router for every operation that creates something (actions/exactlyOnce.ts): the
 * item's idempotency key and the switch that sends an item again on purpose.
 */
export const duplicateProtectionField: INodeProperties = {
	displayName: 'Duplicate Protection',
	name: 'duplicateProtection',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description:
		'Each item is sent at most once: n8n remembers its idempotency key, and a re-run (Retry, Retry On Fail, running the step again, a repeated event) outputs it as already submitted instead of sending it again',
	options: [
		{
			displayName: 'Allow Resend',
			name: 'allowResend',
			type: 'boolean',
			default: false,
			description:
				'Whether to send items even when an earlier run already sent them. Turn it on only after checking (Transaction → Get) that an item whose outcome was unknown was not carried out.',
		},
		{
			displayName: 'Idempotency Key',
			name: 'idempotencyKey',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.invoiceId }}',
			description:
				'What makes this item unique, such as an invoice or payroll-row ID: an item whose key this node has already sent is not sent again, in any run. Leave empty to use the Reference if you set one; for a Finalize operation, the transaction or quote ID (each is finalized once); else a key made from the workflow, this node, what started the run (e.g. the trigger’s event), the item’s position and its fields.',
			hint: 'Set it when the same rows may reach this node from different runs (a later upload, a new webhook call) and must not be paid twice. Build it from the data (e.g. add a period column), never from $now or the execution: a Retry would make new keys and pay again.',
		},
	],
};

/**
 * "Wait for Final Status" on an operation that sends a payout: after sending, the router checks
 * the new transaction until it settles (helpers/settlement.ts).
 */
export function waitForFinalStatusProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Wait for Final Status',
			name: 'waitForFinalStatus',
			type: 'boolean',
			default: false,
			description:
				'Whether to check each payout after sending it until it settles, fails or is reversed, and output settled, finalStatus, waitedSeconds and checks with it. The payouts are sent first (see Batching); then they wait together.',
		},
		...waitProperties({ waitForFinalStatus: [true] }),
	];
}

/**
 * Include Input Fields: the input row's own fields in each output item (as the Set node's Include
 * Other Input Fields), so Convert to File can make a reconciliation file from this node's output.
 */
export const includeInputFieldsField: INodeProperties = {
	displayName: 'Include Input Fields',
	name: 'includeInputFields',
	type: 'boolean',
	default: false,
	description:
		'Whether to add the input row’s own fields (e.g. name, email, period) to each output item, beside the payout’s. Where a name is the same, the payout’s field wins.',
};

/** Requests a read operation keeps in flight at once by default (docs/performance.md). */
export const DEFAULT_ITEMS_PER_BATCH = 10;

/** Batching of an operation's items, as in n8n's HTTP Request node; the router reads it. */
function batchingField(description: string, itemsPerBatchDescription: string): INodeProperties {
	return {
		displayName: 'Batching',
		name: 'batching',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description,
		options: [
			{
				displayName: 'Batch Interval (Ms)',
				name: 'batchInterval',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description:
					'Milliseconds to wait between batches; 0 keeps Items per Batch requests in flight at all times. Use it to stay under a rate limit.',
			},
			{
				displayName: 'Items per Batch',
				name: 'itemsPerBatch',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_ITEMS_PER_BATCH,
				description: itemsPerBatchDescription,
			},
		],
	};
}

/** A read's Batching: requests at once. */
export const readBatchingField = batchingField(
	'How many items are requested at once. The output keeps the input order either way.',
	'How many items are requested at the same time. 1 requests one item after another.',
);

/**
 * Batching of an operation that creates something: requests at once. Each item is still sent at
 * most once, its key recorded before its request leaves (actions/exactlyOnce.ts).
 */
export const sendBatchingField = batchingField(
	'How many items are sent at once. Each item is still sent at most once, and the output keeps the input order either way.',
	'How many items are sent at the same time. 1 sends one item after another, in order.',
);
