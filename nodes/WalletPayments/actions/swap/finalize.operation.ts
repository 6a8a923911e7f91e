import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { duplicateProtectionField } from '../../controls/idempotency';
import { sendBatchingField } from '../../input/batching';
import { requiredText } from '../../input/validation';
import type { GuardedOperation, GuardedRequest } from '../../engine/exactlyOnce/prepare';

const properties: INodeProperties[] = [
	{
		displayName: 'Quote ID',
		name: 'quoteId',
		type: 'string',
		required: true,
		default: '',
		description:
			'The ID returned by Swap → Get Quote. A quote expires about 250 seconds after it was made.',
	},
	duplicateProtectionField,
	sendBatchingField,
];

export const description = forOperation('swap', 'finalize', properties);

export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest> {
	const quoteId = requiredText(this.getNodeParameter('quoteId', itemIndex), 'Quote ID', 100);
	return { endpoint: '/api/v2/wallets/finalize-swap', body: { quoteId }, doneOnceFor: quoteId };
}

export const operation = { kind: 'guarded', description, prepare } satisfies GuardedOperation;
