import type { INodeProperties } from 'n8n-workflow';

import * as initialize from './initialize.operation';

export { initialize };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['collection'] } },
		options: [
			{
				name: 'Initialize',
				value: 'initialize',
				description: 'Issue a receiving account a customer pays into, with an expiry',
				action: 'Initialize a collection',
			},
		],
		default: 'initialize',
	},
	...initialize.description,
];
