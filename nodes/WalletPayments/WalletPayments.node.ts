import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceOptions, resourceProperties } from './actions/resources';
import { router } from './actions/router';
import * as listSearch from './methods/listSearch';
import * as loadOptions from './methods/loadOptions';
import * as resourceMapping from './methods/resourceMapping';
import { toolDescriptionProperties } from './descriptions/toolDescriptions';
import { CREDENTIAL_TYPE } from '../shared/credential';

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
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceOptions,
				default: 'payout',
			},
			...toolDescriptionProperties(),
			...resourceProperties,
		],
	};

	methods = { listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
