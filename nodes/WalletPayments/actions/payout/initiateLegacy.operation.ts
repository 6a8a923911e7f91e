import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { approvalProperties } from '../../controls/approval';
import { runSummaryField } from '../../output/runSummary';
import { forOperation } from '../../descriptions/displayOptions';
import {
	customerEmailField,
	includeInputFieldsField,
	sourceWalletCurrencyField,
} from '../../descriptions/fields';
import { duplicateProtectionField, referenceField } from '../../controls/idempotency';
import { sendBatchingField } from '../../input/batching';
import { beneficiaryLocator, locatorValue } from '../../descriptions/locators';
import {
	currencyCode,
	httpUrl,
	INT32_MAX,
	requiredEmail,
	requiredText,
} from '../../input/validation';
import { readMinorAmount } from '../../input/units';
import type { GuardedOperation, GuardedRequest } from '../../engine/exactlyOnce/prepare';
import { payoutAmountProperties } from './payoutAmount';

const properties: INodeProperties[] = [
	{
		displayName:
			'Two steps: this creates the payout, then Payout → Finalize (Legacy) with the returned ID must confirm it within about 4 minutes, before the rate moves',
		name: 'legacyNotice',
		type: 'notice',
		default: '',
	},
	sourceWalletCurrencyField,
	...payoutAmountProperties(INT32_MAX),
	beneficiaryLocator,
	customerEmailField('Email of the customer this payout is for'),
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		required: true,
		default: '',
		description: 'The purpose of the payout',
	},
	{
		displayName: 'Callback URL',
		name: 'callbackUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://your-n8n.example.com/webhook/…',
		description: 'Where the service sends this payout’s status events. The API requires it.',
		hint: 'Paste the Production URL of a Wallet Payments Trigger node here to receive the payout’s success or failure',
	},
	referenceField(
		'Your unique reference for this payout; the service refuses a reference it has seen before',
	),
	duplicateProtectionField,
	...approvalProperties,
	sendBatchingField,
	includeInputFieldsField,
	runSummaryField,
];

export const description = forOperation('payout', 'initiateLegacy', properties);

export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest> {
	const sourceWalletCurrency = currencyCode(
		this.getNodeParameter('sourceWalletCurrency', itemIndex, 'USD'),
		'Source Wallet Currency',
	);
	const body: IDataObject = {
		amount: readMinorAmount(this, itemIndex, sourceWalletCurrency, INT32_MAX),
		customerEmail: requiredEmail(
			this.getNodeParameter('customerEmail', itemIndex),
			'Customer Email',
		),
		description: requiredText(this.getNodeParameter('description', itemIndex), 'Description'),
		beneficiaryId: requiredText(
			locatorValue(this, 'beneficiaryId', itemIndex),
			'Beneficiary ID',
			100,
		),
		sourceWalletCurrency,
		callbackUrl: httpUrl(this.getNodeParameter('callbackUrl', itemIndex), 'Callback URL'),
	};
	return {
		endpoint: '/api/v1/wallets/payout/initialize',
		body,
		money: { currency: sourceWalletCurrency, minor: body.amount as number },
		reference: { given: this.getNodeParameter('reference', itemIndex, '') },
	};
}

export const operation = { kind: 'guarded', description, prepare } satisfies GuardedOperation;
