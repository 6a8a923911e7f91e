import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getCountryRequirements } from '../../input/destination';
import { forOperation } from '../../descriptions/displayOptions';
import { readBatchingField } from '../../input/batching';
import { countryCode } from '../../input/validation';
import type { ReadOperation } from '../operation';

const properties: INodeProperties[] = [
	{
		displayName: 'Country Code',
		name: 'countryCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'KE',
		description: 'Two-letter code of the payout country (ISO 3166-1 alpha-2)',
		hint: 'The answer lists, per destination type, the fields a beneficiary in this country needs',
	},
	readBatchingField,
];

export const description = forOperation('country', 'getRequirements', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const code = countryCode(this.getNodeParameter('countryCode', itemIndex), 'Country Code');
	const requirements = await getCountryRequirements.call(this, code);
	return this.helpers.returnJsonArray(requirements);
}

export const operation = { kind: 'read', description, execute } satisfies ReadOperation;
