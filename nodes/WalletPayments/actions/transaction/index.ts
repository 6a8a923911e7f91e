import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as waitForFinal from './waitForFinal.operation';
import type { Operations } from '../operation';

export const operations = {
	get: get.operation,
	waitForFinal: waitForFinal.operation,
} satisfies Operations;

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
				description:
					'Reads one payout, collection or swap transaction by ID, with its current status. Moves no money.',
				action: 'Get a transaction',
			},
			{
				name: 'Wait for Final Status',
				value: 'waitForFinal',
				description:
					'Checks a payout until it settles, fails or is reversed (or a maximum wait runs out), checking less and less often. Moves no money.',
				action: 'Wait for a transaction to settle',
			},
		],
		default: 'get',
	},
	...get.description,
	...waitForFinal.description,
];
