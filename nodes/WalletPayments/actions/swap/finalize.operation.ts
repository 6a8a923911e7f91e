import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../helpers/displayOptions';
import { duplicateProtectionField, sendBatchingField } from '../../helpers/fields';
import { requiredText } from '../../helpers/validation';
import type { GuardedOperation, GuardedRequest } from '../guarded/prepare';

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
