import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { readBatchingField } from '../../input/batching';
import { readReturnAllAndLimit, returnAllAndLimit } from '../../input/lists';
import { simplifyIfWanted, simplifyProperty } from '../../output/simplify';
import { countryCode, currencyCode, InvalidInput, optionalText } from '../../input/validation';
import { getAllByCursor } from '../../transport/pagination';
import type { ReadOperation } from '../operation';

const STATUSES = ['FAILED', 'PENDING', 'PROCESSING', 'SUCCESS'];

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	simplifyProperty('beneficiary'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Country',
				name: 'country',
				type: 'string',
				default: '',
				placeholder: 'KE',
				description: 'Only beneficiaries in this country (two-letter code)',
			},
			{
				displayName: 'Currency',
				name: 'currency',
				type: 'string',
				default: '',
				placeholder: 'KES',
				description: 'Only beneficiaries paid in this currency (three-letter code)',
			},
			{
				displayName: 'Reference',
				name: 'reference',
				type: 'string',
				default: '',
				description: 'Only beneficiaries whose reference contains this text',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: STATUSES.map((status) => ({
					name: status.charAt(0) + status.slice(1).toLowerCase(),
					value: status,
				})),
				default: 'SUCCESS',
				description: 'Only beneficiaries in this status',
			},
		],
	},
	readBatchingField,
];

export const description = forOperation('beneficiary', 'getAll', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	const status = optionalText(filters.status, 'Status', 20)?.toUpperCase();
	if (status !== undefined) {
		if (!STATUSES.includes(status))
			throw new InvalidInput('Status', `"${status}" is not one of ${STATUSES.join(', ')}`);
		qs.status = status;
	}
	if (optionalText(filters.currency, 'Currency') !== undefined)
		qs.currency = currencyCode(filters.currency, 'Currency');
	if (optionalText(filters.country, 'Country') !== undefined)
		qs.country = countryCode(filters.country, 'Country');
	const reference = optionalText(filters.reference, 'Reference', 100);
	if (reference !== undefined) qs.q = reference;

	const beneficiaries = await getAllByCursor.call(this, {
		endpoint: '/api/v2/beneficiaries',
		qs,
		...readReturnAllAndLimit(this, itemIndex),
	});
	return this.helpers.returnJsonArray(
		simplifyIfWanted(this, itemIndex, beneficiaries, 'beneficiary'),
	);
}

export const operation = { kind: 'read', description, execute } satisfies ReadOperation;
