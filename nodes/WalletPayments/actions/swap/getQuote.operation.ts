import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import type { Money } from '../../controls/paymentLimits';
import { majorAmountText, majorToMinor } from '../../input/units';
import { currencyCode, InvalidInput } from '../../input/validation';
import { apiRequest } from '../../transport/request';
import type { WriteOperation } from '../operation';

const properties: INodeProperties[] = [
	{
		displayName: 'Source Currency',
		name: 'sourceCurrency',
		type: 'string',
		required: true,
		default: 'USD',
		placeholder: 'USD',
		description: 'Three-letter code of the wallet to swap from',
	},
	{
		displayName: 'Target Currency',
		name: 'targetCurrency',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'NGN',
		description: 'Three-letter code of the wallet to swap into',
	},
	{
		displayName: 'Amount (Major Units)',
		name: 'amount',
		type: 'number',
		required: true,
		default: 0,
		description:
			'The amount of the source currency to swap, in MAJOR units, with at most the decimals the currency has (USD 2, JPY 0, KWD 3): 10.50 USD is 10.50, not 1050. The service takes major units here (its documentation says so), unlike payouts; the node never rounds.',
		hint: 'The quote expires in about 250 seconds; use its ID with Swap → Finalize before then',
	},
];

export const description = forOperation('swap', 'getQuote', properties);

/** The request body of one item's quote, checked; read once for the limits and the request. */
function quoteBody(context: IExecuteFunctions, itemIndex: number) {
	// Lower case, as the provider's own sample request sends them.
	const sourceCurrency = currencyCode(
		context.getNodeParameter('sourceCurrency', itemIndex),
		'Source Currency',
	);
	const body = {
		sourceCurrency: sourceCurrency.toLowerCase(),
		// Major units as text, with the source currency's decimals ("10.50"), as the provider's sample.
		amount: majorAmountText(context.getNodeParameter('amount', itemIndex), sourceCurrency),
		targetCurrency: currencyCode(
			context.getNodeParameter('targetCurrency', itemIndex),
			'Target Currency',
		).toLowerCase(),
	};
	if (body.sourceCurrency === body.targetCurrency) {
		throw new InvalidInput(
			'Target Currency',
			`must differ from the source currency (${body.sourceCurrency.toUpperCase()})`,
		);
	}
	return body;
}

/** What the quote would swap, for the credential's limits (controls/paymentLimits.ts). */
function money(this: IExecuteFunctions, itemIndex: number): Money {
	const body = quoteBody(this, itemIndex);
	const currency = body.sourceCurrency.toUpperCase();
	return {
		currency,
		minor: majorToMinor(body.amount, currency, Number.MAX_SAFE_INTEGER, { unitSwitch: false }),
		into: body.targetCurrency.toUpperCase(),
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const body = quoteBody(this, itemIndex);
	const quote = await apiRequest.call(this, 'POST', '/api/v1/wallets/initialize-swap', { body });
	return this.helpers.returnJsonArray(quote);
}

export const operation = { kind: 'write', description, execute, money } satisfies WriteOperation;
