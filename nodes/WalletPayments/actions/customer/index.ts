import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export { create, getAll, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['customer'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Register a customer of your merchant account',
				action: 'Create a customer',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List customers, optionally filtered by name, email or phone',
				action: 'Get many customers',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change a customer’s details',
				action: 'Update a customer',
			},
		],
		default: 'create',
	},
	...create.description,
	...update.description,
	...getAll.description,
];
