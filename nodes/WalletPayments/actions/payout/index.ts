import type { INodeProperties } from 'n8n-workflow';

import * as finalizeLegacy from './finalizeLegacy.operation';
import * as initiate from './initiate.operation';
import * as initiateLegacy from './initiateLegacy.operation';
import type { Operations } from '../operation';

export const operations = {
	finalizeLegacy: finalizeLegacy.operation,
	initiate: initiate.operation,
	initiateLegacy: initiateLegacy.operation,
} satisfies Operations;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payout'] } },
		options: [
			{
				name: 'Finalize (Legacy)',
				value: 'finalizeLegacy',
				description:
					'Moves money: confirms a payout started with Initiate (Legacy), which debits your wallet and pays the beneficiary. Needs the transaction ID from Initiate (Legacy), within about 4 minutes.',
				action: 'Finalize a legacy payout',
			},
			{
				name: 'Initiate',
				value: 'initiate',
				description:
					'Moves money: pays a beneficiary (bank account or mobile money) from one of your wallets at once. Needs an amount, the wallet currency, the customer’s email, a purpose, and a saved beneficiary ID or the beneficiary’s country, currency and account.',
				action: 'Initiate a payout',
			},
			{
				name: 'Initiate (Legacy)',
				value: 'initiateLegacy',
				description:
					'Step 1 of a two-step payout to a saved beneficiary: creates the payout; money moves when Finalize (Legacy) confirms it within about 4 minutes. Needs a callback URL.',
				action: 'Initiate a legacy payout',
			},
		],
		default: 'initiate',
	},
	...initiate.description,
	...initiateLegacy.description,
	...finalizeLegacy.description,
];
