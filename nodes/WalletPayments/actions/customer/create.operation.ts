import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import {
	optionalDialCode,
	optionalPhone,
	requiredEmail,
	requiredText,
} from '../../input/validation';
import { apiRequest } from '../../transport/request';
import type { WriteOperation } from '../operation';

const properties: INodeProperties[] = [
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		required: true,
		default: '',
		description: 'The customer’s first (given) name',
	},
	{
		displayName: 'Last Name',
		name: 'lastName',
		type: 'string',
		required: true,
		default: '',
		description: 'The customer’s last (family) name',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description:
			'The customer’s email address. Payouts, collections and cards refer to the customer by it.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Country Dial Code',
				name: 'countryCode',
				type: 'string',
				default: '',
				placeholder: '+254',
				description: 'The phone number’s country dial code, with or without the plus sign',
			},
			{
				displayName: 'Phone',
				name: 'phone',
				type: 'string',
				default: '',
				placeholder: '712345678',
				description: 'The phone number without the dial code (give that under Country Dial Code)',
			},
		],
	},
];

export const description = forOperation('customer', 'create', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		firstName: requiredText(this.getNodeParameter('firstName', itemIndex), 'First Name'),
		lastName: requiredText(this.getNodeParameter('lastName', itemIndex), 'Last Name'),
		email: requiredEmail(this.getNodeParameter('email', itemIndex), 'Email'),
	};
	const phone = optionalPhone(additional.phone, 'Phone');
	const countryCode = optionalDialCode(additional.countryCode, 'Country Dial Code');
	if (phone !== undefined) body.phone = phone;
	if (countryCode !== undefined) body.countryCode = countryCode;

	const customer = await apiRequest.call(this, 'POST', '/api/v2/customers', { body });
	return this.helpers.returnJsonArray(customer);
}

export const operation = { kind: 'write', description, execute } satisfies WriteOperation;
