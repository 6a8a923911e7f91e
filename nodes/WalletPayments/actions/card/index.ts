import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as freeze from './freeze.operation';
import * as getTransactions from './getTransactions.operation';
import * as registerUser from './registerUser.operation';
import * as terminate from './terminate.operation';
import * as topUp from './topUp.operation';
import * as unfreeze from './unfreeze.operation';
import * as withdraw from './withdraw.operation';
import type { Operations } from '../operation';

export const operations = {
	create: create.operation,
	freeze: freeze.operation,
	getTransactions: getTransactions.operation,
	registerUser: registerUser.operation,
	terminate: terminate.operation,
	topUp: topUp.operation,
	unfreeze: unfreeze.operation,
	withdraw: withdraw.operation,
} satisfies Operations;

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
				description:
					'Moves money: issues a virtual card to a registered card user and loads it with USD 3–2,500 from your wallet. The card is ready when its status is success.',
				action: 'Create a card',
			},
			{
				name: 'Freeze',
				value: 'freeze',
				description: 'Blocks a card temporarily (Unfreeze makes it usable again). Moves no money.',
				action: 'Freeze a card',
			},
			{
				name: 'Get Many Transactions',
				value: 'getTransactions',
				description: 'Lists a card’s top-ups, withdrawals and payments by card ID. Moves no money.',
				action: 'Get many card transactions',
			},
			{
				name: 'Register Card User',
				value: 'registerUser',
				description:
					'Registers an existing customer as a card holder with KYC details (needed once before Create). Moves no money.',
				action: 'Register a card user',
			},
			{
				name: 'Terminate',
				value: 'terminate',
				description:
					'Closes a card permanently: it cannot be used or unfrozen again. Moves no money by itself.',
				action: 'Terminate a card',
			},
			{
				name: 'Top Up',
				value: 'topUp',
				description: 'Moves money: adds USD 3–2,500 from your wallet to a virtual card, by card ID',
				action: 'Top up a card',
			},
			{
				name: 'Unfreeze',
				value: 'unfreeze',
				description: 'Makes a frozen card usable again. Moves no money.',
				action: 'Unfreeze a card',
			},
			{
				name: 'Withdraw',
				value: 'withdraw',
				description: 'Moves money: takes funds off a virtual card back to your wallet, by card ID',
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
