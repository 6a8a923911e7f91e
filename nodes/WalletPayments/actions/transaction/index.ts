import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transaction'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Reads one payout, collection or swap transaction by ID, with its current status. Moves no money.',
				action: 'Get a transaction',
			},
		],
		default: 'get',
	},
	...get.description,
];
