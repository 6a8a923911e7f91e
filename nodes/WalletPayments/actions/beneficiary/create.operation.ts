import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { destinationProperties, readDestination } from '../../helpers/destination';
import { forOperation } from '../../helpers/displayOptions';
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
		hint: 'Country → Get Payout Requirements shows which destination types and fields a country takes',
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
	{
		displayName: 'Customer Email',
		name: 'customerEmail',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'Email of the customer this beneficiary belongs to',
	},
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
			{
				displayName: 'Reference',
				name: 'reference',
				type: 'string',
				default: '',
				description: 'Your own reference for this beneficiary; Get Many can filter by it',
				hint: 'Leave empty to use a reference derived from this execution, node and item: it stays the same when n8n’s Retry On Fail resends the request',
			},
		],
	},
];

export const description = forOperation('beneficiary', 'create', properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		currency: currencyCode(this.getNodeParameter('currency', itemIndex), 'Currency'),
		country: countryCode(this.getNodeParameter('country', itemIndex), 'Country'),
		destination: readDestination(this, itemIndex),
		customerEmail: requiredEmail(this.getNodeParameter('customerEmail', itemIndex), 'Customer Email'),
		reference: referenceOrDerived(this, itemIndex, additional.reference),
	};
	const callbackUrl = optionalText(additional.callbackUrl, 'Callback URL', 2048);
	if (callbackUrl !== undefined) body.callbackUrl = httpUrl(callbackUrl, 'Callback URL');

	const beneficiary = await apiRequest.call(this, 'POST', '/api/v2/beneficiaries', { body });
	return this.helpers.returnJsonArray(beneficiary);
}
