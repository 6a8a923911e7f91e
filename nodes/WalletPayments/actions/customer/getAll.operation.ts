import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../helpers/displayOptions';
import { returnAllAndLimit } from '../../helpers/fields';
import { readReturnAllAndLimit } from '../../helpers/lists';
import { optionalText } from '../../helpers/validation';
import { getAllByCursor } from '../../transport/pagination';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' },
			{ displayName: 'First Name', name: 'firstName', type: 'string', default: '' },
			{ displayName: 'Last Name', name: 'lastName', type: 'string', default: '' },
			{ displayName: 'Phone', name: 'phone', type: 'string', default: '' },
		],
	},
];

export const description = forOperation('customer', 'getAll', properties);

const FILTERS: Array<[name: string, label: string]> = [
	['email', 'Email'],
	['firstName', 'First Name'],
	['lastName', 'Last Name'],
	['phone', 'Phone'],
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
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
	return this.helpers.returnJsonArray(customers);
}
