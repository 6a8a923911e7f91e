import type { INodeProperties } from 'n8n-workflow';

import * as getRequirements from './getRequirements.operation';
import type { Operations } from '../operation';

export const operations = {
	getRequirements: getRequirements.operation,
} satisfies Operations;

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
				description:
					'Reads which destination types (bank, NUBAN, mobile money) a payout country offers and the fields and formats each needs. Moves no money.',
				action: 'Get payout requirements for a country',
			},
		],
		default: 'getRequirements',
	},
	...getRequirements.description,
];
