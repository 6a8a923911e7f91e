import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../helpers/displayOptions';
import { requiredText } from '../../helpers/validation';
import { apiRequest } from '../../transport/request';

const properties: INodeProperties[] = [
	{
		displayName: 'Quote ID',
		name: 'quoteId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID returned by Swap → Get Quote. A quote expires about 250 seconds after it was made.',
	},
];

export const description = forOperation('swap', 'finalize', properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const quoteId = requiredText(this.getNodeParameter('quoteId', itemIndex), 'Quote ID', 100);
	const swap = await apiRequest.call(this, 'POST', '/api/v2/wallets/finalize-swap', {
		body: { quoteId },
		movesMoney: true,
	});
	return this.helpers.returnJsonArray(swap);
}
