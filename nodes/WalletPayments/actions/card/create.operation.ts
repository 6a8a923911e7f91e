import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { maskCardDetails } from '../../output/cardMasking';
import { forOperation } from '../../descriptions/displayOptions';
import { customerEmailField } from '../../descriptions/fields';
import { duplicateProtectionField, referenceField } from '../../controls/idempotency';
import { sendBatchingField } from '../../input/batching';
import { optionalText, requiredEmail } from '../../input/validation';
import type { GuardedOperation, GuardedRequest } from '../../engine/exactlyOnce/prepare';
import { cardAmount } from './common';

const properties: INodeProperties[] = [
	customerEmailField(
		'Email of the card holder. The customer must already exist (Customer → Create) and be registered as a card user (Card → Register Card User).',
	),
	{
		displayName: 'Amount (USD)',
		name: 'amount',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		required: true,
		default: 0,
		description:
			'Amount loaded on the new card, in US dollars (not cents): USD, 3 to 2,500. It is taken from your wallet: this operation moves money.',
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
					'The card network, in lower case. The API needs it only for one brand of card.',
			},
			{
				displayName: 'Card Type',
				name: 'cardType',
				type: 'string',
				default: '',
				description: 'The kind of card; the API defaults it to a brand name when left empty',
			},
			{
				displayName: 'First Name',
				name: 'firstName',
				type: 'string',
				default: '',
				description: 'Card holder’s first name. Only needed on the provider’s sandbox.',
			},
			{
				displayName: 'Last Name',
				name: 'lastName',
				type: 'string',
				default: '',
				description: 'Card holder’s last name. Only needed on the provider’s sandbox.',
			},
			referenceField('Your unique reference for this card creation'),
		],
	},
	duplicateProtectionField,
	sendBatchingField,
];

export const description = forOperation('card', 'create', properties);

const OPTIONAL_FIELDS: Array<[name: string, label: string, maxLength: number]> = [
	['cardBrand', 'Card Brand', 50],
	['cardType', 'Card Type', 50],
	['firstName', 'First Name', 100],
	['lastName', 'Last Name', 100],
];

export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		customerEmail: requiredEmail(
			this.getNodeParameter('customerEmail', itemIndex),
			'Customer Email',
		),
		amount: cardAmount(this.getNodeParameter('amount', itemIndex), 'Amount (USD)'),
	};
	for (const [name, label, maxLength] of OPTIONAL_FIELDS) {
		const value = optionalText(additional[name], label, maxLength);
		if (value !== undefined) body[name] = value;
	}
	return {
		endpoint: '/api/v1/virtualcards/create',
		body,
		reference: { given: additional.reference },
		// The create answer carries no card number; mask anyway, should a service send one.
		present: (card) => maskCardDetails(card),
	};
}

export const operation = { kind: 'guarded', description, prepare } satisfies GuardedOperation;
