import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { duplicateProtectionField, referenceField } from '../../controls/idempotency';
import { sendBatchingField } from '../../input/batching';
import { INT32_MAX, positiveInteger } from '../../input/validation';
import type { GuardedOperation, GuardedRequest } from '../../engine/exactlyOnce/prepare';
import { cardIdProperty, readCardId } from './common';

const properties: INodeProperties[] = [
	cardIdProperty,
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		required: true,
		default: 0,
		description:
			'Amount to take off the card back to your wallet, as a whole number (1 to 2,147,483,647). The API takes an int32 and states no unit: check your provider’s unit before relying on it. This operation moves money.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [referenceField('Your unique reference for this withdrawal')],
	},
	duplicateProtectionField,
	sendBatchingField,
];

export const description = forOperation('card', 'withdraw', properties);

export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		cardId: readCardId(this, itemIndex),
		amount: positiveInteger(this.getNodeParameter('amount', itemIndex), 'Amount', INT32_MAX),
	};

	return {
		endpoint: '/api/v1/virtualcards/withdraw',
		body,
		// The contract states no unit: counted as US dollars, so that a limit is never undercounted.
		money: { currency: 'USD', minor: (body.amount as number) * 100 },
		reference: { given: additional.reference },
	};
}

export const operation = { kind: 'guarded', description, prepare } satisfies GuardedOperation;
