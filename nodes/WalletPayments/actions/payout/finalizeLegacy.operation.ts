import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../helpers/displayOptions';
import { requiredText } from '../../helpers/validation';
import { apiRequest } from '../../transport/request';

const properties: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		description:
			'The ID returned by Payout → Initiate (Legacy). Finalize within about 4 minutes of initiating. The answer gives amount, fees and spotPrice as text, as the service sends them.',
	},
];

export const description = forOperation('payout', 'finalizeLegacy', properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const transactionId = requiredText(this.getNodeParameter('transactionId', itemIndex), 'Transaction ID', 100);
	const payout = await apiRequest.call(this, 'POST', '/api/v1/wallets/payout/finalize', {
		body: { transactionId },
		movesMoney: true,
	});
	return this.helpers.returnJsonArray(payout);
}
