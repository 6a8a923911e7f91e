import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as getAll from './getAll.operation';
import type { Operations } from '../operation';

export const operations = {
	create: create.operation,
	getAll: getAll.operation,
} satisfies Operations;

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
				description:
					'Saves a payout destination (bank account or mobile money) for a country and currency, checked against the country’s requirements; returns its ID for Payout → Initiate. Moves no money.',
				action: 'Create a beneficiary',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Lists saved beneficiaries, newest first, optionally filtered by status, currency, country or reference. Moves no money.',
				action: 'Get many beneficiaries',
			},
		],
		default: 'create',
	},
	...create.description,
	...getAll.description,
];
