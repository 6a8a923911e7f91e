import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InvalidInput, jsonObject, requiredText } from './validation';

/** Destination shapes of the contract (section 2.3): the fields each type requires. */
export const DESTINATION_FIELDS: Record<string, Array<[name: string, label: string]>> = {
	BANK: [
		['bankCode', 'Bank Code'],
		['bankName', 'Bank Name'],
		['accountName', 'Account Name'],
		['accountNumber', 'Account Number'],
	],
	MOBILEMONEY: [
		['network', 'Mobile Network'],
		['accountName', 'Account Name'],
		['accountNumber', 'Account Number'],
	],
	NUBAN: [
		['bankCode', 'Bank Code'],
		['accountName', 'Account Name'],
		['accountNumber', 'Account Number'],
	],
};

const TYPES = Object.keys(DESTINATION_FIELDS);

function showFor(show: IDisplayOptions['show'], types?: string[]): IDisplayOptions {
	return { show: { ...show, ...(types ? { destinationType: types } : {}) } };
}

/**
 * The destination form: a type, then the fields that type needs; or raw JSON (for
 * expressions and for shapes beyond the three the contract shows).
 * `show` limits every field to the operation (and mode) that uses it.
 */
export function destinationProperties(show: IDisplayOptions['show']): INodeProperties[] {
	const typesWith = (name: string) => TYPES.filter((type) => DESTINATION_FIELDS[type].some(([field]) => field === name));
	return [
		{
			displayName: 'Destination Type',
			name: 'destinationType',
			type: 'options',
			options: [
				{ name: 'Bank Account', value: 'BANK', description: 'Bank code, bank name, account name and number' },
				{ name: 'Mobile Money', value: 'MOBILEMONEY', description: 'Mobile network, account name and number (phone)' },
				{ name: 'NUBAN (Nigerian Bank Account)', value: 'NUBAN', description: 'Bank code, account name and 10-digit NUBAN' },
				{ name: 'Raw JSON', value: 'json', description: 'Give the whole destination object as JSON' },
			],
			default: 'BANK',
			description: 'Which kind of account receives the money. Country → Get Payout Requirements lists what a country accepts.',
			displayOptions: showFor(show),
		},
		{
			displayName: 'Bank Code',
			name: 'bankCode',
			type: 'string',
			required: true,
			default: '',
			displayOptions: showFor(show, typesWith('bankCode')),
		},
		{
			displayName: 'Bank Name',
			name: 'bankName',
			type: 'string',
			required: true,
			default: '',
			displayOptions: showFor(show, typesWith('bankName')),
		},
		{
			displayName: 'Mobile Network',
			name: 'network',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'MPESA',
			description: 'The mobile money network, as Country → Get Payout Requirements names it',
			displayOptions: showFor(show, typesWith('network')),
		},
		{
			displayName: 'Account Name',
			name: 'accountName',
			type: 'string',
			required: true,
			default: '',
			description: 'The account holder’s name',
			displayOptions: showFor(show, typesWith('accountName')),
		},
		{
			displayName: 'Account Number',
			name: 'accountNumber',
			type: 'string',
			required: true,
			default: '',
			description: 'The bank account number, or the phone number for mobile money (in the format the country requires)',
			displayOptions: showFor(show, typesWith('accountNumber')),
		},
		{
			displayName: 'Destination (JSON)',
			name: 'destinationJson',
			type: 'json',
			required: true,
			default: '{\n  "type": "MOBILEMONEY",\n  "network": "",\n  "accountName": "",\n  "accountNumber": ""\n}',
			description: 'The destination object as the API takes it, with its "type" (BANK, NUBAN, MOBILEMONEY, …)',
			displayOptions: showFor(show, ['json']),
		},
	];
}

/** Reads and checks the destination for one item: the fields its type requires are present. */
export function readDestination(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const type = context.getNodeParameter('destinationType', itemIndex) as string;
	if (type === 'json') {
		const destination = jsonObject(context.getNodeParameter('destinationJson', itemIndex), 'Destination (JSON)');
		const jsonType = requiredText(destination.type, 'Destination (JSON) → type', 40).toUpperCase();
		const fields = DESTINATION_FIELDS[jsonType];
		// Shapes the contract does not show are passed through for the service to judge.
		for (const [name] of fields ?? []) requiredText(destination[name], `Destination (JSON) → ${name}`);
		return { ...destination, type: jsonType } as IDataObject;
	}
	const fields = DESTINATION_FIELDS[type];
	if (!fields) throw new InvalidInput('Destination Type', `"${type}" is not one of ${TYPES.join(', ')}`);
	const destination: IDataObject = { type };
	for (const [name, label] of fields) {
		destination[name] = requiredText(context.getNodeParameter(name, itemIndex, ''), label, 200);
	}
	return destination;
}
