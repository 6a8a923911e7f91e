/**
 * Renew Expired: a collection made for this customer and period whose receiving account expired
 * unpaid is made again, under a key of its own (the old key with `|renewal:<expired id>`), so a
 * reminder run gives the customer an account they can still pay into. Only when the service says
 * the old one is `expired`: one paid before it expired is never billed again. docs/collections.md.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { keptRecord } from '../../engine/keptRecords';
import { getTransaction } from '../../transport/request';

/** Renewals followed from one row's key in one run (each expired one adds one). */
const MAX_RENEWALS = 12;

export const renewExpiredField: INodeProperties = {
	displayName: 'Renew Expired',
	name: 'renewExpired',
	type: 'boolean',
	default: false,
	description:
		'Whether to make a new collection for a row whose collection in this period expired unpaid (the service says expired), under its own key, instead of outputting the expired one. A collection paid before it expired is never made again. Turn it on in a reminder workflow.',
};

/** The key to send the row under: its own, or that of the newest renewal of it. */
export async function renewedKey(
	context: IExecuteFunctions,
	key: string,
	itemIndex: number,
): Promise<string> {
	if (context.getNodeParameter('renewExpired', itemIndex, false) !== true) return key;
	let current = key;
	for (let renewal = 0; renewal < MAX_RENEWALS; renewal++) {
		const record = keptRecord(context, current)?.record;
		const expiry = Date.parse(String(record?.expiryDate));
		if (typeof record?.id !== 'string' || !(expiry <= Date.now())) return current;
		const now = await getTransaction.call(context, record.id);
		if (String(now.status).toLowerCase() !== 'expired') return current;
		current = `${current}|renewal:${record.id}`;
	}
	return current;
}
