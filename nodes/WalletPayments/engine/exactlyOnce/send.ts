/**
 * Sending one guarded item, and what a failure means. A key recorded before is not sent again:
 * the item is output as already submitted. A key is released only when the service clearly
 * refused (4xx); after a timeout, a 5xx or an unreadable answer it stays, because the money may
 * have moved.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Ledger, SentDay, Verdict } from '../../../shared/ledger';
import { alreadySentForAgent, isAgentTool } from '../../descriptions/toolDescriptions';
import { outcomeOf } from '../../transport/errors';
import { apiRequest } from '../../transport/request';
import { keepRecord, keptDetails, keptFields } from '../keptRecords';
import type { PreparedItem } from './prepare';

const RESEND_HOW =
	'To send it once more (e.g. it failed at the service), put its idempotencyKey in Duplicate Protection → Resend Only These Keys: the next run sends it once, under that key with |resend added.';

function alreadySubmitted(
	item: PreparedItem,
	fields: IDataObject,
	existing?: IDataObject,
): IDataObject {
	return {
		...existing,
		alreadySubmitted: true,
		idempotencyKey: item.key,
		...(item.reference === undefined ? {} : { reference: item.reference }),
		...fields,
	};
}

async function existingRecord(
	context: IExecuteFunctions,
	item: PreparedItem,
): Promise<IDataObject | undefined> {
	if (item.request.keep) return keptDetails(context, item.key, item.request.keep);
	if (!item.request.findExisting || item.reference === undefined) return undefined;
	try {
		return await item.request.findExisting(context, item.reference);
	} catch {
		return undefined; // the look-up is a courtesy; the item is already submitted either way
	}
}

/**
 * A failed send: refused as already submitted (an earlier run did it) gives an output; a clear
 * refusal forgets the key, so the item can be sent again once fixed; anything else may have been
 * carried out, so the key stays and the error says that a re-run will not send it again.
 */
async function afterFailure(
	context: IExecuteFunctions,
	ledger: Ledger,
	item: PreparedItem,
	error: unknown,
): Promise<IDataObject> {
	const outcome = outcomeOf(error);
	if (outcome === 'alreadySubmitted') {
		ledger.accepted(item.key, 'earlier');
		const said = error instanceof Error ? error.message : String(error);
		return alreadySubmitted(
			item,
			{
				sent: true,
				outcome: 'accepted',
				message: `The service refused it as already done: an earlier run did this. ${said}`,
			},
			await existingRecord(context, item),
		);
	}
	if (outcome === 'refused') ledger.release(item.key);
	else if (error instanceof NodeApiError) {
		error.description =
			`${error.description ?? ''} This item will not be sent again by a re-run of this node (idempotency key ${item.key}): after checking that it was not carried out, put that key in Duplicate Protection → Resend Only These Keys and run it again.`.trim();
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) throw error;
	throw new NodeOperationError(context.getNode(), error as Error);
}

/** When the earlier send was, as output fields: `sentOn` (its day, UTC) or `sentBefore`. */
export function sentFields(day: SentDay | undefined): IDataObject {
	if (day?.on !== undefined) return { sentOn: day.on };
	if (day?.before !== undefined) return { sentBefore: day.before };
	return {};
}

/** The same in words, for a message: " on 2026-10-26 (UTC)", or nothing. */
export const sentText = (day: SentDay | undefined) =>
	day?.on !== undefined
		? ` on ${day.on} (UTC)`
		: day?.before !== undefined
			? ` before ${day.before} (UTC)`
			: '';

/** Sends one prepared item whose key was reserved, unless an earlier run sent it; returns its output. */
export async function sendItem(
	context: IExecuteFunctions,
	ledger: Ledger,
	item: PreparedItem,
	verdict: Verdict,
	onSend: () => void,
): Promise<IDataObject> {
	if (verdict !== 'new' && !item.allowResend) {
		const day = verdict === 'accepted' ? ledger.sentDay(item.key) : undefined;
		const message =
			verdict === 'concurrent'
				? `Not sent: another run of this node (in another n8n process) recorded this item at the same moment and sends it. ${RESEND_HOW}`
				: verdict === 'accepted'
					? `Not sent again: an earlier run of this node already sent this item${sentText(day)} and the service accepted it. ${RESEND_HOW}`
					: 'Not sent again: an earlier run of this node sent this item but got no clear answer (a timeout, an HTTP 5xx, or the run was stopped), so it may have been carried out. Check with Transaction → Get or in the service’s dashboard; only if it was not, put its idempotencyKey in Duplicate Protection → Resend Only These Keys and run it again (it is sent once).';
		const outcome = verdict === 'concurrent' ? 'unknown' : verdict;
		// An AI agent reads the message: first what it means for it, in plain words.
		const said = isAgentTool(context) ? `${alreadySentForAgent(outcome)} ${message}` : message;
		return alreadySubmitted(
			item,
			{ sent: false, outcome, ...sentFields(day), message: said },
			await existingRecord(context, item),
		);
	}
	onSend();
	let data: IDataObject;
	try {
		data = await apiRequest.call(context, 'POST', item.request.endpoint, {
			body: item.request.body,
			movesMoney: item.request.movesMoney ?? true,
		});
	} catch (error) {
		return await afterFailure(context, ledger, item, error);
	}
	ledger.accepted(item.key);
	const presented = item.request.present ? item.request.present(data) : data;
	const output =
		item.renewalOf === undefined
			? presented
			: {
					...presented,
					renewalOf: item.renewalOf,
					renewalNote: `A new one, under its own key: the one made under ${item.renewalOf} expired unpaid.`,
				};
	if (item.request.keep) keepRecord(context, item.key, keptFields(output, item.request.keep));
	return output;
}
