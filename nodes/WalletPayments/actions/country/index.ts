import type { INodeProperties } from 'n8n-workflow';

import * as getRequirements from './getRequirements.operation';

export { getRequirements };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['country'] } },
		options: [
			{
				name: 'Get Payout Requirements',
				value: 'getRequirements',
				description: 'Read the destination types and fields a payout country needs',
				action: 'Get payout requirements for a country',
			},
		],
		default: 'getRequirements',
	},
	...getRequirements.description,
];
