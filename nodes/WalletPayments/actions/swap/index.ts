import type { INodeProperties } from 'n8n-workflow';

import * as finalize from './finalize.operation';
import * as getQuote from './getQuote.operation';

export { finalize, getQuote };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['swap'] } },
		options: [
			{
				name: 'Finalize',
				value: 'finalize',
				description: 'Carry out a swap quote. Moves money between your wallets.',
				action: 'Finalize a swap',
			},
			{
				name: 'Get Quote',
				value: 'getQuote',
				description: 'Get an exchange quote between two wallet currencies; it expires in about 250 seconds',
				action: 'Get a swap quote',
			},
		],
		default: 'getQuote',
	},
	...getQuote.description,
	...finalize.description,
];
