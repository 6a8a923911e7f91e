import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { destinationProperties, readDestination } from '../../input/destination';
import { readRowPayee, rowPayeeProperties } from './rowPayee';
import { approvalProperties } from '../../controls/approval';
import { runSummaryField } from '../../output/runSummary';
import { forOperation } from '../../descriptions/displayOptions';
import {
	customerEmailField,
	includeInputFieldsField,
	sourceWalletCurrencyField,
} from '../../descriptions/fields';
import { duplicateProtectionField } from '../../controls/idempotency';
import { sendBatchingField } from '../../input/batching';
import { waitForFinalStatusProperties, waitSettingsIfAsked } from '../../engine/settlement';
import { beneficiaryLocator, locatorValue } from '../../descriptions/locators';
import { checkPayee, payeeCheckField } from '../../controls/payeeCheck';
import {
	countryCode,
	currencyCode,
	InvalidInput,
	requiredEmail,
	requiredText,
} from '../../input/validation';
import { readMinorAmount } from '../../input/units';
import type { GuardedOperation, GuardedRequest } from '../../engine/exactlyOnce/prepare';
import { payoutAmountProperties } from './payoutAmount';

const INLINE = { beneficiaryMode: ['inline'] };

const properties: INodeProperties[] = [
	sourceWalletCurrencyField,
	...payoutAmountProperties(),
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
		displayName: 'Beneficiary',
		name: 'beneficiaryMode',
		type: 'options',
		options: [
			{
				name: 'By ID',
				value: 'id',
				description: 'A beneficiary saved with Beneficiary → Create',
			},
			{
				name: 'Inline',
				value: 'inline',
				description: 'Give the country, currency and destination account here',
			},
			{
				name: 'From Row Columns',
				value: 'columns',
				description:
					"Each row's own columns: a saved beneficiary's ID, or a bank or mobile money account with its country and currency (a sheet that mixes them)",
			},
		],
		default: 'id',
		description:
			'Who receives the money: a saved beneficiary, one described here, or whoever each row names',
	},
	{
		...beneficiaryLocator,
		displayName: 'Saved Beneficiary',
		displayOptions: { show: { beneficiaryMode: ['id'] } },
	},
	{
		displayName: 'Beneficiary Country',
		name: 'country',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'KE',
		description: 'Two-letter code of the country the money is paid out in',
		hint: 'Give a plain two-letter code to load the destination types and form the country offers; with an expression here, use Destination Type: Raw JSON',
		displayOptions: { show: INLINE },
	},
	{
		displayName: 'Beneficiary Currency',
		name: 'currency',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'KES',
		description: 'Three-letter code of the currency the beneficiary receives',
		displayOptions: { show: INLINE },
	},
	...destinationProperties(INLINE),
	...rowPayeeProperties({ beneficiaryMode: ['columns'] }),
	payeeCheckField,
	duplicateProtectionField,
	...approvalProperties,
	sendBatchingField,
	...waitForFinalStatusProperties(),
	includeInputFieldsField,
	runSummaryField,
];

export const description = forOperation('payout', 'initiate', properties);

/** Keys that identify a saved beneficiary; an inline beneficiary carrying one is both at once. */
const ID_KEYS = ['id', 'beneficiaryId'];

const BOTH = 'give either a beneficiary ID or an inline beneficiary, not both';

/**
 * Exactly one of `beneficiaryId` and `beneficiary` (contract 4.1, rule 1), checked before
 * any request: neither, or both (e.g. an inline JSON destination that also carries an ID), fail.
 */
async function readBeneficiary(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const mode = context.getNodeParameter('beneficiaryMode', itemIndex) as string;
	if (mode === 'id') {
		const id = locatorValue(context, 'beneficiaryId', itemIndex);
		if (typeof id === 'object' && id !== null) {
			throw new InvalidInput(
				'Beneficiary ID',
				`must be an ID (text), but the value is an object; ${BOTH}`,
				'In an expression, pick the ID field, e.g. {{ $json.id }}.',
			);
		}
		if (id === undefined || id === null || (typeof id === 'string' && id.trim() === '')) {
			throw new InvalidInput(
				'Beneficiary',
				'neither a beneficiary ID nor an inline beneficiary was given; exactly one is needed',
			);
		}
		const beneficiaryId = requiredText(id, 'Beneficiary ID', 100);
		await checkPayee(context, itemIndex, beneficiaryId);
		return { beneficiaryId };
	}
	if (mode === 'columns') {
		const payee = await readRowPayee(context, itemIndex);
		if (typeof payee.beneficiaryId === 'string')
			await checkPayee(context, itemIndex, payee.beneficiaryId);
		return payee;
	}
	if (mode !== 'inline') {
		throw new InvalidInput(
			'Beneficiary',
			`"${String(mode)}" is not By ID, Inline or From Row Columns; exactly one beneficiary is needed`,
		);
	}
	const country = countryCode(
		context.getNodeParameter('country', itemIndex),
		'Beneficiary Country',
	);
	const beneficiary: IDataObject = {
		country,
		currency: currencyCode(context.getNodeParameter('currency', itemIndex), 'Beneficiary Currency'),
	};
	beneficiary.destination = await readDestination(context, itemIndex, country);
	const destination = beneficiary.destination as IDataObject;
	for (const key of ID_KEYS) {
		if (destination[key] !== undefined && destination[key] !== null && destination[key] !== '') {
			throw new InvalidInput(
				'Beneficiary',
				`the inline destination carries "${key}"; ${BOTH}`,
				'To pay a saved beneficiary, choose Beneficiary: By ID.',
			);
		}
	}
	return { beneficiary };
}

/** Moves money; the API takes no reference, so n8n's record of the item's key is the only guard. */
export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest> {
	const sourceWalletCurrency = currencyCode(
		this.getNodeParameter('sourceWalletCurrency', itemIndex, 'USD'),
		'Source Wallet Currency',
	);
	const body: IDataObject = {
		amount: readMinorAmount(this, itemIndex, sourceWalletCurrency),
		sourceWalletCurrency,
		customerEmail: requiredEmail(
			this.getNodeParameter('customerEmail', itemIndex),
			'Customer Email',
		),
		description: requiredText(this.getNodeParameter('description', itemIndex), 'Description'),
		...(await readBeneficiary(this, itemIndex)),
	};
	return {
		endpoint: '/api/v2/wallets/payout/initialize',
		body,
		money: {
			currency: sourceWalletCurrency,
			minor: body.amount as number,
			inlineBeneficiary: body.beneficiary !== undefined,
		},
		waitForFinal: waitSettingsIfAsked(this, itemIndex),
		// A later run that finds the row already submitted outputs the payout's ID again, and with
		// Wait for Final Status its final status, as the service knows it.
		// Not its status then: a repeat shows the status now (Wait for Final Status) or none.
		keep: { fields: ['id', 'reference', 'createdAt'], sayWhenMissing: false },
	};
}

export const operation = { kind: 'guarded', description, prepare } satisfies GuardedOperation;
