import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { duplicateProtectionField, referenceField } from '../../controls/idempotency';
import { sendBatchingField } from '../../input/batching';
import { optionalText } from '../../input/validation';
import type { GuardedOperation, GuardedRequest } from '../../engine/exactlyOnce/prepare';
import { cardAmount, cardIdProperty, readCardId } from './common';

const properties: INodeProperties[] = [
	cardIdProperty,
	{
		displayName: 'Amount (USD)',
		name: 'amount',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		required: true,
		default: 0,
		description:
			'Amount to add to the card, in US dollars: USD, 3 to 2,500. It is taken from your wallet: this operation moves money.',
		hint: 'The contract calls it cents in one place but bounds it in dollars: give dollars (10.50 for ten dollars fifty)',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Card Brand',
				name: 'cardBrand',
				type: 'string',
				default: '',
				placeholder: 'visa',
				description:
					'The card network, in lower case, as in the card’s cardBrand. Sent only when set.',
			},
			referenceField('Your unique reference for this top-up'),
		],
	},
	duplicateProtectionField,
	sendBatchingField,
];

export const description = forOperation('card', 'topUp', properties);

export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		cardId: readCardId(this, itemIndex),
		amount: cardAmount(this.getNodeParameter('amount', itemIndex), 'Amount (USD)'),
	};
	const cardBrand = optionalText(additional.cardBrand, 'Card Brand', 50);
	if (cardBrand !== undefined) body.cardBrand = cardBrand;

	return {
		endpoint: '/api/v1/virtualcards/topup',
		body,
		money: { currency: 'USD', minor: Math.round((body.amount as number) * 100) },
		reference: { given: additional.reference },
	};
}

export const operation = { kind: 'guarded', description, prepare } satisfies GuardedOperation;
