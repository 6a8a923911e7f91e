import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { customerEmailField } from '../../descriptions/fields';
import {
	countryCode,
	httpUrl,
	InvalidInput,
	isoDate,
	optionalPhone,
	optionalText,
	requiredEmail,
	requiredText,
} from '../../input/validation';
import { apiRequest } from '../../transport/request';
import type { WriteOperation } from '../operation';

const properties: INodeProperties[] = [
	customerEmailField(
		'Email of an existing customer (Customer → Create) to register as a card holder',
	),
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		required: true,
		default: '',
		description: 'The card holder’s first name, as on the KYC document',
	},
	{
		displayName: 'Last Name',
		name: 'lastName',
		type: 'string',
		required: true,
		default: '',
		description: 'The card holder’s last name, as on the KYC document',
	},
	{
		displayName: 'Country',
		name: 'country',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'NG',
		description: 'Two-letter code of the card holder’s country (NG, GH, KE, US, …)',
		hint: 'NG (Nigeria) also needs a BVN; GH (Ghana) also needs a Date of Birth: add them under Additional Fields',
	},
	{
		displayName: 'ID Type',
		name: 'idType',
		type: 'options',
		options: [
			{ name: 'BVN (Bank Verification Number)', value: 'BVN' },
			{ name: 'NIN (National Identification Number)', value: 'NIN' },
			{ name: 'Passport', value: 'PASSPORT' },
		],
		required: true,
		default: 'PASSPORT',
		description:
			'The kind of KYC document. Another type the provider accepts can be given with an expression.',
	},
	{
		displayName: 'ID Number',
		name: 'idNumber',
		type: 'string',
		required: true,
		default: '',
		description: 'The number of the KYC document',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Address Line 1',
				name: 'line1',
				type: 'string',
				default: '',
				description: 'Street and number',
			},
			{
				displayName: 'BVN',
				name: 'bvn',
				type: 'string',
				default: '',
				description: 'Bank Verification Number. Required when Country is NG (Nigeria).',
			},
			{
				displayName: 'City',
				name: 'city',
				type: 'string',
				default: '',
				description: 'City of the card holder’s address',
			},
			{
				displayName: 'Date of Birth',
				name: 'dateOfBirth',
				type: 'string',
				default: '',
				placeholder: '1990-04-25',
				description: 'Written yyyy-mm-dd. Required when Country is GH (Ghana).',
			},
			{
				displayName: 'House Name',
				name: 'houseName',
				type: 'string',
				default: '',
				description: 'House name or number',
			},
			{
				displayName: 'ID Image URL',
				name: 'idImage',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/document.jpg',
				description: 'Address of an image of the KYC document',
			},
			{
				displayName: 'Phone Number',
				name: 'phoneNumber',
				type: 'string',
				default: '',
				description: 'The card holder’s phone number',
			},
			{
				displayName: 'State',
				name: 'state',
				type: 'string',
				default: '',
				description: 'State, region or province',
			},
			{
				displayName: 'User Photo URL',
				name: 'userPhoto',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/photo.jpg',
				description: 'Address of a photo of the card holder',
			},
			{
				displayName: 'ZIP Code',
				name: 'zipCode',
				type: 'string',
				default: '',
				description: 'Postal code of the card holder’s address',
			},
		],
	},
];

export const description = forOperation('card', 'registerUser', properties);

const TEXT_FIELDS: Array<[name: string, label: string, maxLength: number]> = [
	['city', 'City', 100],
	['state', 'State', 100],
	['zipCode', 'ZIP Code', 20],
	['line1', 'Address Line 1', 200],
	['houseName', 'House Name', 100],
	['bvn', 'BVN', 20],
];

const URL_FIELDS: Array<[name: string, label: string]> = [
	['idImage', 'ID Image URL'],
	['userPhoto', 'User Photo URL'],
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		customerEmail: requiredEmail(
			this.getNodeParameter('customerEmail', itemIndex),
			'Customer Email',
		),
		firstName: requiredText(this.getNodeParameter('firstName', itemIndex), 'First Name', 100),
		lastName: requiredText(this.getNodeParameter('lastName', itemIndex), 'Last Name', 100),
		country: countryCode(this.getNodeParameter('country', itemIndex), 'Country'),
		idType: requiredText(this.getNodeParameter('idType', itemIndex), 'ID Type', 50),
		idNumber: requiredText(this.getNodeParameter('idNumber', itemIndex), 'ID Number', 100),
	};
	for (const [name, label, maxLength] of TEXT_FIELDS) {
		const value = optionalText(additional[name], label, maxLength);
		if (value !== undefined) body[name] = value;
	}
	for (const [name, label] of URL_FIELDS) {
		const value = optionalText(additional[name], label, 2048);
		if (value !== undefined) body[name] = httpUrl(value, label);
	}
	const phoneNumber = optionalPhone(additional.phoneNumber, 'Phone Number');
	if (phoneNumber !== undefined) body.phoneNumber = phoneNumber;
	const dateOfBirth = optionalText(additional.dateOfBirth, 'Date of Birth', 10);
	if (dateOfBirth !== undefined)
		body.dateOfBirth = isoDate(dateOfBirth, 'Date of Birth', { past: true });

	// Two country rules, checked before anything is sent: Nigeria (NG) needs a BVN and Ghana (GH)
	// a date of birth (docs/sandbox-spec.md, `POST /api/v1/virtualcards/registercarduser`).
	if (body.country === 'NG' && body.bvn === undefined) {
		throw new InvalidInput(
			'BVN',
			'is required when Country is NG (Nigeria)',
			'Add BVN under Additional Fields.',
		);
	}
	if (body.country === 'GH' && body.dateOfBirth === undefined) {
		throw new InvalidInput(
			'Date of Birth',
			'is required when Country is GH (Ghana)',
			'Add Date of Birth (yyyy-mm-dd) under Additional Fields.',
		);
	}

	const cardUser = await apiRequest.call(this, 'POST', '/api/v1/virtualcards/registercarduser', {
		body,
	});
	// The contract does not show this response; pass through whatever object it holds.
	return this.helpers.returnJsonArray(
		typeof cardUser === 'object' && cardUser !== null ? cardUser : {},
	);
}

export const operation = { kind: 'write', description, execute } satisfies WriteOperation;
