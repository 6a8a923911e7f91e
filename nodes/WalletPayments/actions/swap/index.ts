import type { INodeProperties } from 'n8n-workflow';

import * as finalize from './finalize.operation';
import * as getQuote from './getQuote.operation';
import type { Operations } from '../operation';

export const operations = {
	finalize: finalize.operation,
	getQuote: getQuote.operation,
} satisfies Operations;

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
				description:
					'Moves money: converts between two of your wallets at the rate of a quote from Get Quote (valid about 250 seconds; each quote works once)',
				action: 'Finalize a swap',
			},
			{
				name: 'Get Quote',
				value: 'getQuote',
				description:
					'Gets an exchange rate and fee for swapping an amount (in major units) between two wallet currencies. Moves no money; the quote expires in about 250 seconds.',
				action: 'Get a swap quote',
			},
		],
		default: 'getQuote',
	},
	...getQuote.description,
	...finalize.description,
];
