import type { INodeProperties } from 'n8n-workflow';

/** The customer a money operation is for, by email (several operations take it). */
export function customerEmailField(description: string): INodeProperties {
	return {
		displayName: 'Customer Email',
		name: 'customerEmail',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description,
	};
}

/** The wallet a payout is paid from. */
export const sourceWalletCurrencyField: INodeProperties = {
	displayName: 'Source Wallet Currency',
	name: 'sourceWalletCurrency',
	type: 'string',
	required: true,
	default: 'USD',
	placeholder: 'USD',
	description: 'Three-letter code of the wallet to debit',
};

/**
 * Include Input Fields: the input row's own fields in each output item (as the Set node's Include
 * Other Input Fields), so Convert to File can make a reconciliation file from this node's output.
 */
export const includeInputFieldsField: INodeProperties = {
	displayName: 'Include Input Fields',
	name: 'includeInputFields',
	type: 'boolean',
	default: false,
	description:
		'Whether to add the input row’s own fields (e.g. name, email, period) to each output item, beside the service’s, with the row’s result (paid, failed, sent, refused, already submitted or unknown) and its reason. Where a name is the same, the service’s field wins.',
};
