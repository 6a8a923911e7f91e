import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';
import type { Operations } from '../operation';

export const operations = {
	create: create.operation,
	getAll: getAll.operation,
	update: update.operation,
} satisfies Operations;

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
				description:
					'Registers a customer (first name, last name, email) of your merchant account. Moves no money.',
				action: 'Create a customer',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Lists customers, newest first, optionally filtered by name, email or phone. Moves no money.',
				action: 'Get many customers',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Changes a customer’s name, email, phone or dial code, by customer ID. Moves no money.',
				action: 'Update a customer',
			},
		],
		default: 'create',
	},
	...create.description,
	...update.description,
	...getAll.description,
];
