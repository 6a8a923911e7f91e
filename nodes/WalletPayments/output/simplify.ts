import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { booleanFlag } from '../input/validation';

/**
 * "Simplify": a small subset of a record's own fields, under the API's own names and with
 * the API's own values (nothing renamed, converted or added), so a simplified field can never
 * be mistaken for something the API did not send. Where a record carries both `amount`
 * (major units) and `centAmount` (minor units), only `centAmount` is kept.
 */
const FIELDS = {
	beneficiary: [
		'id',
		'status',
		'country',
		'currency',
		'destination',
		'reference',
		'createdAt',
		'updatedAt',
	],
	cardTransaction: [
		'id',
		'method',
		'status',
		'centAmount',
		'currency',
		'reference',
		'cardId',
		'createdAt',
		'updatedAt',
	],
	customer: [
		'id',
		'email',
		'firstName',
		'lastName',
		'phone',
		'countryCode',
		'createdAt',
		'updatedAt',
	],
	transaction: [
		'id',
		'type',
		'channel',
		'status',
		'failedReason',
		'amount',
		'currency',
		'reference',
		'createdAt',
		'updatedAt',
	],
} as const;

export type RecordKind = keyof typeof FIELDS;

function simplifyRecord(record: IDataObject, kind: RecordKind): IDataObject {
	const simple: IDataObject = {};
	for (const field of FIELDS[kind]) {
		const name = field === 'amount' && record.centAmount !== undefined ? 'centAmount' : field;
		if (record[name] !== undefined) simple[name] = record[name];
	}
	return simple;
}

/** The Simplify switch (on by default, as in n8n's own nodes); the hint lists what stays. */
export function simplifyProperty(kind: RecordKind): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		hint: `Simplified output keeps only ${FIELDS[kind].join(', ')}, with the API’s own names and values`,
	};
}

/** The records as the API gave them, or simplified when Simplify is on. */
export function simplifyIfWanted<T extends IDataObject | IDataObject[]>(
	context: IExecuteFunctions,
	itemIndex: number,
	data: T,
	kind: RecordKind,
): T {
	if (!booleanFlag(context.getNodeParameter('simplify', itemIndex, true), 'Simplify')) return data;
	return (
		Array.isArray(data)
			? data.map((record) => simplifyRecord(record, kind))
			: simplifyRecord(data, kind)
	) as T;
}
