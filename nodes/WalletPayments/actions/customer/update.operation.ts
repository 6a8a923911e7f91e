import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { customerLocator, locatorValue } from '../../descriptions/locators';
import {
	optionalDialCode,
	optionalPhone,
	optionalText,
	requiredEmail,
	requiredText,
} from '../../input/validation';
import { apiRequest } from '../../transport/request';
import type { WriteOperation } from '../operation';

const properties: INodeProperties[] = [
	customerLocator,
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description:
			'The customer’s email address, current or new. The API requires it on every update.',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
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
				displayName: 'First Name',
				name: 'firstName',
				type: 'string',
				default: '',
				description: 'The new first name; left out, it stays as it is',
			},
			{
				displayName: 'Last Name',
				name: 'lastName',
				type: 'string',
				default: '',
				description: 'The new last name; left out, it stays as it is',
			},
			{
				displayName: 'Phone',
				name: 'phone',
				type: 'string',
				default: '',
				placeholder: '712345678',
				description: 'The new phone number without the dial code; left out, it stays as it is',
			},
		],
	},
];

export const description = forOperation('customer', 'update', properties);

const UPDATE_FIELDS: Array<[name: string, label: string, maxLength: number]> = [
	['firstName', 'First Name', 100],
	['lastName', 'Last Name', 100],
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const customerId = requiredText(locatorValue(this, 'customerId', itemIndex), 'Customer ID', 100);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		email: requiredEmail(this.getNodeParameter('email', itemIndex), 'Email'),
	};
	for (const [name, label, maxLength] of UPDATE_FIELDS) {
		const value = optionalText(fields[name], label, maxLength);
		if (value !== undefined) body[name] = value;
	}
	const phone = optionalPhone(fields.phone, 'Phone');
	if (phone !== undefined) body.phone = phone;
	const countryCode = optionalDialCode(fields.countryCode, 'Country Dial Code');
	if (countryCode !== undefined) body.countryCode = countryCode;

	const customer = await apiRequest.call(
		this,
		'PUT',
		`/api/v2/customers/${encodeURIComponent(customerId)}`,
		{
			body,
		},
	);
	return this.helpers.returnJsonArray(customer);
}

export const operation = { kind: 'write', description, execute } satisfies WriteOperation;
