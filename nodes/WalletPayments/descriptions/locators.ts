import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * Pickers ("resource locators"): pick a record from a searchable list (the Get Many endpoint
 * with its filters, paged by the API's cursor) or give its ID. Both modes hold the ID itself,
 * read with `extractValue: true`.
 */
function locator(options: {
	displayName: string;
	name: string;
	description: string;
	searchListMethod: string;
	listPlaceholder: string;
	idHint: string;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: options.listPlaceholder,
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3b2f6c1e-8d4a-4f0b-9c1e-2a7d5e6f8091',
				hint: options.idHint,
			},
		],
	};
}

export const customerLocator = locator({
	displayName: 'Customer',
	name: 'customerId',
	description: 'The customer to update: search by email or name, or give the customer’s ID',
	searchListMethod: 'searchCustomers',
	listPlaceholder: 'Search by email, or first and last name…',
	idHint: 'The "id" in the output of Customer → Create or Get Many',
});

export const beneficiaryLocator = locator({
	displayName: 'Beneficiary',
	name: 'beneficiaryId',
	description:
		'The saved beneficiary who receives the money: search by reference, or give the beneficiary’s ID',
	searchListMethod: 'searchBeneficiaries',
	listPlaceholder: 'Search by reference…',
	idHint: 'The "id" in the output of Beneficiary → Create or Get Many',
});

/** The ID a picker holds, in either mode (or a plain value from an expression). */
export function locatorValue(context: IExecuteFunctions, name: string, itemIndex: number): unknown {
	return context.getNodeParameter(name, itemIndex, '', { extractValue: true });
}
