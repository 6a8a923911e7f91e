import type { INodeProperties } from 'n8n-workflow';

import * as initialize from './initialize.operation';
import type { Operations } from '../operation';

export const operations = {
	initialize: initialize.operation,
} satisfies Operations;

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
				description:
					'Issues a temporary bank account for a customer to pay a given amount into (money comes in when the customer pays; nothing leaves your wallet). Returns the account number and its expiry.',
				action: 'Initialize a collection',
			},
		],
		default: 'initialize',
	},
	...initialize.description,
];
