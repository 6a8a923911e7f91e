import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as getAll from './getAll.operation';

export { create, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['beneficiary'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Save a payout destination (bank account or mobile money) for a country and currency',
				action: 'Create a beneficiary',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List beneficiaries, optionally filtered by status, currency, country or reference',
				action: 'Get many beneficiaries',
			},
		],
		default: 'create',
	},
	...create.description,
	...getAll.description,
];
