import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { placeValue } from '../../shared/ledger';
import { InvalidInput, optionalText } from '../input/validation';

export const REFERENCE_HINT =
	'Leave empty to send a reference made from this item’s idempotency key: a re-run of the same item sends the same reference, so a service that refuses reused references refuses it too';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with object keys sorted, so that the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.keys(value)
			.sort()
			.filter((key) => (value as IDataObject)[key] !== undefined)
			.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as IDataObject)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** Whether the node ran in this execution (or an earlier one a partial run builds on); not its pinned data. */
function ran(context: IExecuteFunctions, name: string): boolean {
	try {
		return (
			(context.getWorkflowDataProxy(0).$(name) as { isExecuted?: unknown }).isExecuted === true
		);
	} catch {
		return false;
	}
}

/**
 * The nodes this run started from: the roots above this node (nodes with no input), narrowed to
 * the execution's trigger when it is one of them. n8n 1.x names no trigger, nor does a partial
 * run in the editor (or it names another node): then the roots that ran, as another trigger's
 * pinned data is readable without it running; all roots when none did.
 */
function startNodeNames(context: IExecuteFunctions): string[] {
	const roots = context
		.getParentNodes(context.getNode().name)
		.filter((parent) => context.getParentNodes(parent.name).length === 0)
		.map((parent) => parent.name)
		.sort();
	// n8n 2.x's execution context names the trigger; 1.x's has no triggerNode.
	const executionContext = context.getExecutionContext?.() as
		| { triggerNode?: { name?: string } }
		| undefined;
	const trigger = executionContext?.triggerNode?.name;
	if (trigger !== undefined && roots.includes(trigger)) return [trigger];
	const started = roots.filter((name) => ran(context, name));
	return started.length > 0 ? started : roots;
}

/**
 * What identifies a start node's item: the event key where the Wallet Payments Trigger gives one
 * (two deliveries of one event can differ in their headers), else the whole item.
 */
function identity(item: { json: IDataObject }): unknown {
	return typeof item.json.eventKey === 'string' ? { eventKey: item.json.eventKey } : item.json;
}

/**
 * What started this run, as a fingerprint of the start nodes' output: the event a trigger
 * received, a schedule's time, the rows a sub-workflow was called with. It is the same when n8n
 * retries the execution (the trigger's output is carried over), when the editor runs the node
 * again on the same (or pinned) data, and when one event is delivered twice; it differs between
 * two scheduled runs. Empty when no start node's output can be read.
 */
export function runOrigin(context: IExecuteFunctions): string {
	const parts: string[] = [];
	for (const name of startNodeNames(context)) {
		try {
			const proxy = context.getWorkflowDataProxy(0);
			const items = (proxy.$(name) as { all: () => Array<{ json: IDataObject }> }).all();
			// A start node that gave nothing did not start this run (the other trigger of two).
			if (items.length > 0) parts.push(`${name}:${canonicalJson(items.map(identity))}`);
		} catch {
			// That node did not run in this execution.
		}
	}
	return parts.length === 0 ? '' : sha256(parts.join('\n'));
}

export interface KeyParts {
	workflowId: string;
	nodeId: string;
	origin: string;
	itemIndex: number;
	/** What the item asks the service to do: the request body without its reference. */
	request: IDataObject;
}

/**
 * An item's idempotency key when the user gives none: workflow, node, what started the run, the
 * item's position and its request. Never the execution ID, which a retry changes.
 */
export function derivedKey({ workflowId, nodeId, origin, itemIndex, request }: KeyParts): string {
	const content = Object.fromEntries(
		Object.entries(request).filter(([field]) => field !== 'reference'),
	);
	return `n8n:${sha256(canonicalJson([workflowId, nodeId, origin, itemIndex, content]))}`;
}

/**
 * Where a derived key's item stands: workflow, node, what started the run, its position and the
 * item it was given, not its request. A Retry gives the node the same items, so a row the
 * execution it repeats sent is found by its place even when an edit since changed its request
 * (issue #64, point 3; docs/ledger.md, "Places").
 */
export function placeOf({ workflowId, nodeId, origin, itemIndex }: KeyParts, input: IDataObject) {
	return placeValue(
		sha256(canonicalJson([workflowId, nodeId, origin, itemIndex, identity({ json: input })])),
	);
}

/**
 * The key of a request that can be done only once (finalizing a payout or a quote) when the user
 * gives none: the endpoint and the ID it acts on, whatever run or position the item comes from.
 */
export function doneOnceKey(endpoint: string, id: string): string {
	return `n8n-once:${sha256(`${endpoint} ${id}`)}`;
}

/**
 * The reference sent for a key when the user gives none: the same key always gives the same
 * reference, and the workflow and node are part of it, so a key such as an invoice ID used by
 * two nodes does not give two operations one reference.
 */
export function referenceFromKey(workflowId: string, nodeId: string, key: string): string {
	return `n8n-${sha256(`${workflowId}:${nodeId}:${key}`).slice(0, 24)}`;
}

/** A user-given key or reference: text of at most 200 characters, or undefined when empty. */
export function optionalKey(value: unknown, field: string): string | undefined {
	return optionalText(value, field, 200);
}

/**
 * A reference that, left empty, becomes the retry-safe derived one (`referenceFromKey` in
 * controls/idempotency.ts).
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

/**
 * Read by the router for every operation that creates something (engine/exactlyOnce/): the
 * item's idempotency key and the switch that sends an item again on purpose.
 */
export const duplicateProtectionField: INodeProperties = {
	displayName: 'Duplicate Protection',
	name: 'duplicateProtection',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description:
		'Each item is sent at most once: n8n remembers its idempotency key, and a re-run (Retry, Retry On Fail, running the step again, a repeated event) outputs it as already submitted instead of sending it again. n8n keeps these records per workflow and node: a node deleted and added again, copied, or imported in a new workflow starts with none.',
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
		{
			displayName: 'Period',
			name: 'period',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.period }}',
			description:
				'The period each row is paid once in, from your data (e.g. 2026-11 for a monthly payroll). With Row ID, the node makes the key for you: a row is sent once per period, whatever else in it changes; the next period sends every row again.',
			hint: 'From a column or a value you set once, never from $now: a Retry in the next period would send this period again',
		},
		{
			displayName: 'Resend Only These Keys',
			name: 'resendKeys',
			type: 'string',
			default: '',
			placeholder: 'e.g. period:2026-11|row:EMP-103',
			description:
				"Idempotency keys of rows to send once more, separated by commas, as the output's idempotencyKey column shows them (with Row ID and Period: period:2026-11|row:EMP-103): each listed row is sent once more, under its key with |resend added, and every other row stays protected. Use it for a row that failed at the service, or whose outcome was unknown after checking (Transaction → Get) that it was not carried out.",
			hint: 'Each listed row is sent once: later runs with the key still here output it as already submitted. To resend it again, list the key its resend shows (…|resend).',
		},
		{
			displayName: 'Row ID',
			name: 'rowId',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.employeeId }}',
			description:
				'What identifies the row (an employee, invoice or contract ID). With Period: sent once per period; alone: sent once, ever. Not used when Idempotency Key is set.',
		},
	],
};

/**
 * The key made from Row ID and Period (Duplicate Protection) when the user gives no Idempotency
 * Key: one row sent once per period, or once ever without a period. Undefined when no Row ID.
 */
export function periodKey(rowId: unknown, period: unknown): string | undefined {
	const row = optionalKey(rowId, 'Row ID');
	const during = optionalKey(period, 'Period');
	if (row === undefined) {
		if (during !== undefined) {
			throw new InvalidInput(
				'Row ID',
				'is required with Period: it says which row is paid once in the period',
				'Set it to what identifies the row, e.g. {{ $json.employeeId }}.',
			);
		}
		return undefined;
	}
	return during === undefined ? `row:${row}` : `period:${during}|row:${row}`;
}

/** What a resend adds to a row's key: the resend is sent, and then kept, under its own key. */
const RESEND_SUFFIX = '|resend';

/**
 * Resend Only These Keys, for one row: the keys it may be sent under, oldest first. Its own key,
 * then one more (`|resend` added) for each resend asked for: listing the key asks for one,
 * listing the resend's key (`…|resend`) for a second. The row is sent under the first of them
 * that was never sent (prepare.ts), so each resend is sent once however often the list is left.
 */
export function resendChain(key: string, listed: Set<string>): string[] {
	let depth = 0;
	for (const entry of listed) {
		if (!entry.startsWith(key)) continue;
		const rest = entry.slice(key.length);
		const count = rest.split(RESEND_SUFFIX).length - 1;
		if (rest === RESEND_SUFFIX.repeat(count)) depth = Math.max(depth, count + 1);
	}
	const chain = [key];
	while (chain.length <= depth) chain.push(`${chain[chain.length - 1]}${RESEND_SUFFIX}`);
	return chain;
}

/** Resend Only These Keys: the keys listed, separated by commas (spaces around them ignored). */
export function resendKeysOf(value: unknown): Set<string> {
	if (typeof value !== 'string') return new Set();
	return new Set(
		value
			.split(',')
			.map((key) => key.trim())
			.filter((key) => key !== ''),
	);
}
