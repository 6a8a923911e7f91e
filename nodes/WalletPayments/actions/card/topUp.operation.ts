import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../helpers/displayOptions';
import { referenceField } from '../../helpers/fields';
import { referenceOrDerived } from '../../helpers/reference';
import { optionalText } from '../../helpers/validation';
import { apiRequest } from '../../transport/request';
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
				description: 'The card network, in lower case, as in the card’s cardBrand. Sent only when set.',
			},
			referenceField('Your unique reference for this top-up'),
		],
	},
];

export const description = forOperation('card', 'topUp', properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		cardId: readCardId(this, itemIndex),
		amount: cardAmount(this.getNodeParameter('amount', itemIndex), 'Amount (USD)'),
		reference: referenceOrDerived(this, itemIndex, additional.reference),
	};
	const cardBrand = optionalText(additional.cardBrand, 'Card Brand', 50);
	if (cardBrand !== undefined) body.cardBrand = cardBrand;

	const transaction = await apiRequest.call(this, 'POST', '/api/v1/virtualcards/topup', { body, movesMoney: true });
	return this.helpers.returnJsonArray(transaction);
}
