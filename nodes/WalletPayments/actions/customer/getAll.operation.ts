import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { readBatchingField } from '../../input/batching';
import { readReturnAllAndLimit, returnAllAndLimit } from '../../input/lists';
import { simplifyIfWanted, simplifyProperty } from '../../output/simplify';
import { optionalText } from '../../input/validation';
import { getAllByCursor } from '../../transport/pagination';
import type { ReadOperation } from '../operation';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	simplifyProperty('customer'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'Only customers whose email matches this text',
			},
			{
				displayName: 'First Name',
				name: 'firstName',
				type: 'string',
				default: '',
				description: 'Only customers whose first name matches this text',
			},
			{
				displayName: 'Last Name',
				name: 'lastName',
				type: 'string',
				default: '',
				description: 'Only customers whose last name matches this text',
			},
			{
				displayName: 'Phone',
				name: 'phone',
				type: 'string',
				default: '',
				description: 'Only customers whose phone number matches this text',
			},
		],
	},
	readBatchingField,
];

export const description = forOperation('customer', 'getAll', properties);

const FILTERS: Array<[name: string, label: string]> = [
	['email', 'Email'],
	['firstName', 'First Name'],
	['lastName', 'Last Name'],
	['phone', 'Phone'],
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	for (const [name, label] of FILTERS) {
		const value = optionalText(filters[name], label, 254);
		if (value !== undefined) qs[name] = value;
	}
	const customers = await getAllByCursor.call(this, {
		endpoint: '/api/v2/customers',
		qs,
		...readReturnAllAndLimit(this, itemIndex),
	});
	return this.helpers.returnJsonArray(simplifyIfWanted(this, itemIndex, customers, 'customer'));
}

export const operation = { kind: 'read', description, execute } satisfies ReadOperation;
