import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { customerEmailField, includeInputFieldsField } from '../../descriptions/fields';
import { duplicateProtectionField, referenceField } from '../../controls/idempotency';
import { sendBatchingField } from '../../input/batching';
import {
	countryCode,
	currencyCode,
	InvalidInput,
	optionalText,
	requiredEmail,
} from '../../input/validation';
import { amountProperties, minorToMajor, readMinorAmount } from '../../input/units';
import type { GuardedOperation, GuardedRequest } from '../../engine/exactlyOnce/prepare';
import { renewedKey, renewExpiredField } from './renewal';

const properties: INodeProperties[] = [
	{
		displayName: 'Country',
		name: 'country',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'NG',
		description: 'Two-letter code of the country the customer pays from',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'NGN',
		description: 'Three-letter code of the currency to collect',
	},
	customerEmailField('Email of the customer who pays'),
	...amountProperties({
		currencyField: 'currency',
		purpose: 'The amount to collect',
		minorExample: '1 NGN is 100, 2,500.00 NGN is 250000',
		majorExample: '2500 or 2500.00 for two thousand five hundred naira',
	}),
	referenceField(
		'Your unique reference for this collection; the service refuses a reference it has seen before',
	),
	{
		displayName: 'API Version',
		name: 'apiVersion',
		type: 'options',
		options: [
			{
				name: 'V1',
				value: 'v1',
				description: 'POST /api/v1/wallets/collections/initialize (older path)',
			},
			{ name: 'V2', value: 'v2', description: 'POST /api/v2/wallets/collections/initialize' },
		],
		default: 'v2',
		description: 'Which version of the endpoint to call. Both take the same fields.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Account Name',
				name: 'accountName',
				type: 'string',
				default: '',
				description:
					'Account name to request for the receiving account (sent as payload.accountName)',
			},
			{
				displayName: 'Bank Name (Sent as Payload Type)',
				name: 'bankName',
				type: 'string',
				default: '',
				description:
					'Bank to issue the receiving account at. The service takes it as payload.type.',
			},
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				description: 'What the collection is for',
			},
		],
	},
	duplicateProtectionField,
	renewExpiredField,
	includeInputFieldsField,
	sendBatchingField,
];

export const description = forOperation('collection', 'initialize', properties);

const PATHS: Record<string, string> = {
	v1: '/api/v1/wallets/collections/initialize',
	v2: '/api/v2/wallets/collections/initialize',
};

/** Asks a customer for money: a duplicate would bill them twice, so it is guarded like a payout. */
export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const version = this.getNodeParameter('apiVersion', itemIndex, 'v2') as string;
	const path = PATHS[version];
	if (!path) throw new InvalidInput('API Version', `"${version}" is not v1 or v2`);

	const currency = currencyCode(this.getNodeParameter('currency', itemIndex), 'Currency');
	const body: IDataObject = {
		country: countryCode(this.getNodeParameter('country', itemIndex), 'Country'),
		currency,
		customerEmail: requiredEmail(
			this.getNodeParameter('customerEmail', itemIndex),
			'Customer Email',
		),
		amount: readMinorAmount(this, itemIndex, currency),
	};
	const descriptionText = optionalText(additional.description, 'Description');
	if (descriptionText !== undefined) body.description = descriptionText;
	const payload: IDataObject = {};
	const bankName = optionalText(additional.bankName, 'Bank Name', 200);
	const accountName = optionalText(additional.accountName, 'Account Name', 200);
	if (bankName !== undefined) payload.type = bankName;
	if (accountName !== undefined) payload.accountName = accountName;
	if (Object.keys(payload).length > 0) body.payload = payload;

	const minor = body.amount as number;
	return {
		endpoint: path,
		body,
		reference: { given: this.getNodeParameter('reference', itemIndex, '') },
		movesMoney: false,
		// One unit in the output whatever the service echoes (providers differ): the amount asked
		// for, in major units, beside it in minor units (docs/collections.md).
		present: (data) => ({
			...data,
			amount: minorToMajor(minor, currency),
			centAmount: minor,
		}),
		keep: { fields: KEPT_FIELDS, sayWhenMissing: true },
		renewal: renewedKey,
	};
}

/**
 * What a later run outputs again for a collection already made: what the customer pays into (not
 * its status then, which a payment since has changed).
 */
const KEPT_FIELDS = [
	'id',
	'reference',
	'accountName',
	'accountNumber',
	'bankName',
	'amount',
	'centAmount',
	'currency',
	'createdAt',
	'expiryDate',
	'expiryInSeconds',
	'renewalOf',
];

export const operation = { kind: 'guarded', description, prepare } satisfies GuardedOperation;
