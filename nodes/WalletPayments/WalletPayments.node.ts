import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as beneficiary from './actions/beneficiary';
import * as card from './actions/card';
import * as collection from './actions/collection';
import * as country from './actions/country';
import * as customer from './actions/customer';
import * as payout from './actions/payout';
import * as swap from './actions/swap';
import * as transaction from './actions/transaction';
import { router } from './actions/router';
import * as listSearch from './methods/listSearch';
import * as loadOptions from './methods/loadOptions';
import * as resourceMapping from './methods/resourceMapping';
import { toolDescriptionProperties } from './helpers/toolDescriptions';

export class WalletPayments implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Wallet Payments',
		name: 'walletPayments',
		icon: {
			light: 'file:../../icons/wallet-payments.svg',
			dark: 'file:../../icons/wallet-payments.dark.svg',
		},
		group: ['transform'],
		// 1.1: Card → Get Many Transactions lists newest first unless told otherwise.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Pay out, collect, swap currencies and manage virtual cards with a multi-currency wallet payments API',
		defaults: { name: 'Wallet Payments' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'walletPaymentsApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Beneficiary', value: 'beneficiary' },
					{ name: 'Card', value: 'card' },
					{ name: 'Collection', value: 'collection' },
					{ name: 'Country', value: 'country' },
					{ name: 'Customer', value: 'customer' },
					{ name: 'Payout', value: 'payout' },
					{ name: 'Swap', value: 'swap' },
					{ name: 'Transaction', value: 'transaction' },
				],
				default: 'payout',
			},
			...toolDescriptionProperties(),
			...beneficiary.description,
			...card.description,
			...collection.description,
			...country.description,
			...customer.description,
			...payout.description,
			...swap.description,
			...transaction.description,
		],
	};

	methods = { listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
