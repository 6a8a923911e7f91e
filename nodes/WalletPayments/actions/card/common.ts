import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { REVEAL_CARD_DETAILS_HINT } from '../../output/cardMasking';
import { InvalidInput, numberInRange, requiredText } from '../../input/validation';

/** The contract's card amount bounds (create card, top up), in US dollars. */
export const CARD_AMOUNT_MIN = 3;
export const CARD_AMOUNT_MAX = 2500;

export const cardIdProperty: INodeProperties = {
	displayName: 'Card ID',
	name: 'cardId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3b2f6c1e-…',
	description: 'The ID of the virtual card to act on',
	hint: 'The "id" in the output of Card → Create, or the "cardId" of a card transaction or card event. The API has no operation that lists cards, so there is no list to pick from.',
};

/** The "Options" collection of operations whose output can carry a card number and CVV. */
export const cardOptionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Reveal Card Details',
			name: 'revealCardDetails',
			type: 'boolean',
			default: false,
			description:
				'Whether to output the full card number and CVV. When off, the card number keeps only its last four digits and the CVV shows as ***.',
			hint: REVEAL_CARD_DETAILS_HINT,
		},
	],
};

export function readCardId(context: IExecuteFunctions, itemIndex: number): string {
	return requiredText(context.getNodeParameter('cardId', itemIndex), 'Card ID', 100);
}

export function readRevealCardDetails(context: IExecuteFunctions, itemIndex: number): boolean {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return options.revealCardDetails === true;
}

/** A card amount in US dollars: 3 to 2,500, at most two decimal places (cents). */
export function cardAmount(value: unknown, field = 'Amount'): number {
	const amount = numberInRange(value, field, CARD_AMOUNT_MIN, CARD_AMOUNT_MAX, 'USD');
	if (Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6) {
		throw new InvalidInput(
			field,
			`${amount} USD has more than two decimal places; give dollars and cents, e.g. 10.50`,
		);
	}
	return amount;
}
