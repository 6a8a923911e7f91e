import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { readBatchingField } from '../../input/batching';
import {
	readWaitSettings,
	settlementFields,
	waitForFinalStatus,
	waitProperties,
} from '../../engine/settlement';
import { requiredText } from '../../input/validation';
import type { ReadOperation } from '../operation';

const properties: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID of a payout: the ID that Payout → Initiate or Finalize (Legacy) outputs',
		hint: 'Output: the transaction as last read, with settled (true/false), finalStatus, waitedSeconds and checks',
	},
	...waitProperties(),
	{
		...readBatchingField,
		description: 'How many items wait at the same time. Each check is one request.',
	},
];

export const description = forOperation('transaction', 'waitForFinal', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const transactionId = requiredText(
		this.getNodeParameter('transactionId', itemIndex),
		'Transaction ID',
		100,
	);
	const settlement = await waitForFinalStatus(
		this,
		transactionId,
		readWaitSettings(this, itemIndex),
	);
	return this.helpers.returnJsonArray({
		...settlement.transaction,
		...settlementFields(settlement),
	});
}

/** Many items wait at once: 100 in flight unless Batching says otherwise. */
export const operation = {
	kind: 'read',
	description,
	execute,
	itemsPerBatchDefault: 100,
} satisfies ReadOperation;
