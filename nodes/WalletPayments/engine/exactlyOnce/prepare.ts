/**
 * A guarded operation: one that creates something at the service (payouts, swaps, collections,
 * card money, beneficiaries). It exports `prepare` instead of `execute`: it builds and checks
 * the item's request and sends nothing; the pipeline (pipeline.ts) checks every item first, then
 * sends each at most once through the ledger (shared/ledger). Here: what an operation returns,
 * and the item's idempotency key: the user's (Duplicate Protection → Idempotency Key), else the
 * Reference they gave, else, for what can be done only once (finalizing a payout or a quote),
 * the ID it acts on, else one derived from what stays the same when n8n re-runs the node
 * (controls/idempotency.ts). Where the API takes a reference, the key also makes the reference.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { type LedgerItem, peekKeys } from '../../../shared/ledger';

import {
	derivedKey,
	doneOnceKey,
	optionalKey,
	periodKey,
	placeOf,
	referenceFromKey,
	resendChain,
	resendKeysOf,
} from '../../controls/idempotency';
import type { Money } from '../../controls/paymentLimits';
import type { KeepSettings } from '../keptRecords';
import type { WaitSettings } from '../settlement';
import { optionalText } from '../../input/validation';

/** What one item asks the service to do, built and validated before anything is sent. */
export interface GuardedRequest {
	endpoint: string;
	body: IDataObject;
	/** The API takes a `reference`: the one the user gave, if any (else one made from the key). */
	reference?: { given: unknown };
	/**
	 * What the request acts on when it can be done only once, ever (a payout or a quote is
	 * finalized once): its ID makes the key when the user gives none, so no later run sends it.
	 */
	doneOnceFor?: string;
	/** What the item would move, checked against the credential's limits (controls/paymentLimits.ts). */
	money?: Money;
	/** Payouts, swaps and card money say "may have been carried out" on unclear failures. */
	movesMoney?: boolean;
	/** The service's answer as this item's output (e.g. with card details masked). */
	present?: (data: IDataObject) => IDataObject;
	/** After sending, check the new transaction until its status is final (payouts). */
	waitForFinal?: WaitSettings;
	/**
	 * What of the service's answer the node keeps (engine/keptRecords.ts), so that a run that finds
	 * the item already submitted outputs it again (a collection's receiving account, a payout's ID).
	 */
	keep?: KeepSettings;
	/** A key to send under instead of the row's, when what it made expired (collections). */
	renewal?: (context: IExecuteFunctions, key: string, itemIndex: number) => Promise<string>;
	/** What an earlier run created, looked up by its reference, where the API can. */
	findExisting?: (
		context: IExecuteFunctions,
		reference: string,
	) => Promise<IDataObject | undefined>;
}

/**
 * Creates something at the service (the operation contract's third kind: ../operation.ts):
 * `prepare` builds and checks an item's request and sends nothing.
 */
export interface GuardedOperation {
	kind: 'guarded';
	description: INodeProperties[];
	prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest>;
}

/** An item ready to be sent: its request, and its key and Allow Resend for the ledger. */
export interface PreparedItem extends LedgerItem {
	request: GuardedRequest;
	reference?: string;
	/** The row's own key, when Resend Only These Keys sends it under a resend's key. */
	resendOf?: string;
	/** The key of what expired, when this item makes it again (Renew Expired). */
	renewalOf?: string;
	/** Duplicate Protection's Period, where the key was made from it. */
	period?: string;
	/** What an approval covers (controls/approval.ts): the request and the key the user gave. */
	approved: { key: string | null; body: IDataObject };
}

interface Protection {
	idempotencyKey?: unknown;
	period?: unknown;
	rowId?: unknown;
	allowResend?: unknown;
	resendKeys?: unknown;
}

/** The money of the items that move some, for the credential's limits (controls/paymentLimits.ts). */
export const moneyOf = (items: PreparedItem[]) =>
	items.flatMap(({ itemIndex, request }) =>
		request.money ? [{ itemIndex, money: request.money }] : [],
	);

/** Builds and checks the item's request and works out its key and reference; sends nothing. */
export async function prepareItem(
	context: IExecuteFunctions,
	operation: GuardedOperation,
	itemIndex: number,
	origin: string,
): Promise<PreparedItem> {
	const request = await operation.prepare.call(context, itemIndex);
	const protection = context.getNodeParameter('duplicateProtection', itemIndex, {}) as Protection;
	const workflowId = String(context.getWorkflow().id ?? '');
	const nodeId = context.getNode().id;
	const givenReference = request.reference
		? optionalText(request.reference.given, 'Reference', 100)
		: undefined;
	const givenKey = optionalKey(protection.idempotencyKey, 'Idempotency Key');
	const userKey = givenKey ?? periodKey(protection.rowId, protection.period);
	// The Period counts only where the node made the key from it (Idempotency Key wins).
	const period =
		givenKey === undefined && userKey !== undefined
			? optionalKey(protection.period, 'Period')
			: undefined;
	// A reference made from a derived key is left out of what an approval covers (it changes with
	// what started the run); one the user gave is part of the request.
	const bodyBefore = request.body;
	const parts = { workflowId, nodeId, origin, itemIndex, request: request.body };
	const madeKey =
		userKey ??
		givenReference ??
		(request.doneOnceFor === undefined
			? undefined
			: doneOnceKey(request.endpoint, request.doneOnceFor));
	const rowKey = madeKey ?? derivedKey(parts);
	const sendKey = await resendKey(
		context,
		resendChain(rowKey, resendKeysOf(protection.resendKeys)),
	);
	const key = request.renewal ? await request.renewal(context, sendKey, itemIndex) : sendKey;
	let reference: string | undefined;
	if (request.reference) {
		reference = givenReference ?? referenceFromKey(workflowId, nodeId, key);
		request.body = { ...request.body, reference };
	}
	const approved = {
		key: userKey ?? null,
		body: givenReference === undefined ? bodyBefore : request.body,
	};
	// Only a derived key changes with an edit of the request; a resend or a renewal is sent anew.
	const place =
		madeKey === undefined && key === rowKey
			? placeOf(parts, context.getInputData()[itemIndex]?.json ?? {})
			: undefined;
	return {
		itemIndex,
		request,
		key,
		...(place === undefined ? {} : { place }),
		reference,
		...(sendKey === rowKey ? {} : { resendOf: rowKey }),
		...(key === sendKey ? {} : { renewalOf: sendKey }),
		...(period === undefined ? {} : { period }),
		approved,
		allowResend: protection.allowResend === true,
	};
}

/**
 * The key a row is sent under when Resend Only These Keys lists it: the first of its chain never
 * sent (a listed row that was never sent is sent under its own key, so a later run without the
 * list cannot send it again), else the last, which the ledger then keeps from a second send.
 */
async function resendKey(context: IExecuteFunctions, chain: string[]): Promise<string> {
	if (chain.length === 1) return chain[0];
	const { seen } = await peekKeys(context, chain.slice(0, -1));
	return chain.find((key) => seen.get(key) === 'new') ?? chain[chain.length - 1];
}
