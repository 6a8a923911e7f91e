import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { destinationProperties, readDestination } from '../../helpers/destination';
import { forOperation } from '../../helpers/displayOptions';
import { customerEmailField, referenceField } from '../../helpers/fields';
import { referenceOrDerived } from '../../helpers/reference';
import { countryCode, currencyCode, httpUrl, optionalText, requiredEmail } from '../../helpers/validation';
import { apiRequest } from '../../transport/request';

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
			referenceField(
				'Your own reference for this beneficiary; Get Many can filter by it',
				'Leave empty to use a reference derived from this execution, node and item: it stays the same when n8n’s Retry On Fail resends the request',
			),
		],
	},
];

export const description = forOperation('beneficiary', 'create', properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const currency = currencyCode(this.getNodeParameter('currency', itemIndex), 'Currency');
	const country = countryCode(this.getNodeParameter('country', itemIndex), 'Country');
	const customerEmail = requiredEmail(this.getNodeParameter('customerEmail', itemIndex), 'Customer Email');
	const reference = referenceOrDerived(this, itemIndex, additional.reference);
	const callbackText = optionalText(additional.callbackUrl, 'Callback URL', 2048);
	const callbackUrl = callbackText === undefined ? undefined : httpUrl(callbackText, 'Callback URL');
	// Last: the form is checked against the country's requirements, which takes a request.
	const destination = await readDestination(this, itemIndex, country);
	const body: IDataObject = { currency, country, destination, customerEmail, reference };
	if (callbackUrl !== undefined) body.callbackUrl = callbackUrl;

	const beneficiary = await apiRequest.call(this, 'POST', '/api/v2/beneficiaries', { body });
	return this.helpers.returnJsonArray(beneficiary);
}
