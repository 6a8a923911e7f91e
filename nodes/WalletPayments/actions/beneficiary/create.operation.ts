import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { destinationProperties, readDestination } from '../../input/destination';
import { forOperation } from '../../descriptions/displayOptions';
import { customerEmailField } from '../../descriptions/fields';
import { duplicateProtectionField, referenceField } from '../../controls/idempotency';
import { sendBatchingField } from '../../input/batching';
import {
	countryCode,
	currencyCode,
	httpUrl,
	optionalText,
	requiredEmail,
} from '../../input/validation';
import { apiRequest } from '../../transport/request';
import type { GuardedOperation, GuardedRequest } from '../../engine/exactlyOnce/prepare';

const properties: INodeProperties[] = [
	{
		displayName: 'Country',
		name: 'country',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'KE',
		description: 'Two-letter code of the country the beneficiary is paid in (KE, NG, GH, …)',
		hint: 'Give a plain two-letter code to load the destination types and form the country offers; with an expression here, use Destination Type: Raw JSON',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'KES',
		description: 'Three-letter code of the currency the beneficiary receives (KES, NGN, GHS, …)',
	},
	customerEmailField('Email of the customer this beneficiary belongs to'),
	...destinationProperties({}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Callback URL',
				name: 'callbackUrl',
				type: 'string',
				default: '',
				placeholder: 'https://your-n8n.example.com/webhook/…',
				description: 'Address the service notifies when the beneficiary’s status changes',
				hint: 'Paste the Production URL of a Wallet Payments Trigger here to receive beneficiary.status.changed events',
			},
			referenceField('Your own reference for this beneficiary; Get Many can filter by it'),
		],
	},
	duplicateProtectionField,
	sendBatchingField,
];

export const description = forOperation('beneficiary', 'create', properties);

/** The beneficiary an earlier run created with this reference (the list filters by reference). */
async function findByReference(
	context: IExecuteFunctions,
	reference: string,
): Promise<IDataObject | undefined> {
	const page = await apiRequest.call(context, 'GET', '/api/v2/beneficiaries', {
		qs: { q: reference, limit: 100 },
	});
	const found = ((page.data ?? []) as IDataObject[]).find(
		(beneficiary) => beneficiary.reference === reference,
	);
	return found;
}

/**
 * Moves no money, but is guarded like the operations that do: a re-run outputs the beneficiary
 * the first run created (found by its reference) instead of creating a second one.
 */
export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const currency = currencyCode(this.getNodeParameter('currency', itemIndex), 'Currency');
	const country = countryCode(this.getNodeParameter('country', itemIndex), 'Country');
	const customerEmail = requiredEmail(
		this.getNodeParameter('customerEmail', itemIndex),
		'Customer Email',
	);
	// Checked here, before the form's requirements are read: nothing is requested for a bad row.
	const reference = optionalText(additional.reference, 'Reference', 100);
	const callbackText = optionalText(additional.callbackUrl, 'Callback URL', 2048);
	const callbackUrl =
		callbackText === undefined ? undefined : httpUrl(callbackText, 'Callback URL');
	// Last: the form is checked against the country's requirements, which takes a request.
	const destination = await readDestination(this, itemIndex, country);
	const body: IDataObject = { currency, country, destination, customerEmail };
	if (callbackUrl !== undefined) body.callbackUrl = callbackUrl;

	return {
		endpoint: '/api/v2/beneficiaries',
		body,
		reference: { given: reference },
		movesMoney: false,
		findExisting: findByReference,
	};
}

export const operation = { kind: 'guarded', description, prepare } satisfies GuardedOperation;
