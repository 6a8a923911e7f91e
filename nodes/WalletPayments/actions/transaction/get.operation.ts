import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { readBatchingField } from '../../input/batching';
import { simplifyIfWanted, simplifyProperty } from '../../output/simplify';
import { requiredText } from '../../input/validation';
import { getTransaction } from '../../transport/request';
import type { ReadOperation } from '../operation';

const properties: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID of a payout, collection or swap transaction',
		hint: 'The answer gives amounts in major units as text (e.g. "10.50")',
	},
	simplifyProperty('transaction'),
	readBatchingField,
];

export const description = forOperation('transaction', 'get', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const transactionId = requiredText(
		this.getNodeParameter('transactionId', itemIndex),
		'Transaction ID',
		100,
	);
	const transaction = await getTransaction.call(this, transactionId);
	return this.helpers.returnJsonArray(
		simplifyIfWanted(this, itemIndex, transaction, 'transaction'),
	);
}

export const operation = { kind: 'read', description, execute } satisfies ReadOperation;
