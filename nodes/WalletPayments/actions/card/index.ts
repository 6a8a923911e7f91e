import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as freeze from './freeze.operation';
import * as getTransactions from './getTransactions.operation';
import * as registerUser from './registerUser.operation';
import * as terminate from './terminate.operation';
import * as topUp from './topUp.operation';
import * as unfreeze from './unfreeze.operation';
import * as withdraw from './withdraw.operation';

export { create, freeze, getTransactions, registerUser, terminate, topUp, unfreeze, withdraw };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['card'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Issue a virtual card to a registered card user and fund it. Moves money.',
				action: 'Create a card',
			},
			{
				name: 'Freeze',
				value: 'freeze',
				description: 'Block a card temporarily',
				action: 'Freeze a card',
			},
			{
				name: 'Get Many Transactions',
				value: 'getTransactions',
				description: 'List a card’s top-ups, withdrawals and payments',
				action: 'Get many card transactions',
			},
			{
				name: 'Register Card User',
				value: 'registerUser',
				description: 'Onboard a customer as a card holder (KYC) before issuing cards',
				action: 'Register a card user',
			},
			{
				name: 'Terminate',
				value: 'terminate',
				description: 'Close a card permanently: it cannot be used or unfrozen again',
				action: 'Terminate a card',
			},
			{
				name: 'Top Up',
				value: 'topUp',
				description: 'Add funds to a virtual card. Moves money.',
				action: 'Top up a card',
			},
			{
				name: 'Unfreeze',
				value: 'unfreeze',
				description: 'Make a frozen card usable again',
				action: 'Unfreeze a card',
			},
			{
				name: 'Withdraw',
				value: 'withdraw',
				description: 'Take funds off a virtual card back to the wallet. Moves money.',
				action: 'Withdraw from a card',
			},
		],
		default: 'registerUser',
	},
	...registerUser.description,
	...create.description,
	...topUp.description,
	...withdraw.description,
	...freeze.description,
	...unfreeze.description,
	...terminate.description,
	...getTransactions.description,
];
