import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../helpers/displayOptions';
import { currencyCode, InvalidInput, requiredText } from '../../helpers/validation';
import { apiRequest } from '../../transport/request';

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
			'The amount of the source currency to swap, in MAJOR units (whole currency with up to two decimals): 10.50 USD is 10.50, not 1050. Unlike payouts, this endpoint does not take cents.',
		hint: 'The quote expires in about 250 seconds; use its ID with Swap → Finalize before then',
	},
];

export const description = forOperation('swap', 'getQuote', properties);

const FIELD = 'Amount (Major Units)';
const DECIMAL = /^\d+(\.\d{1,2})?$/;

/** A positive major-unit amount with at most two decimals, as the text the API takes ("10.50"). */
function majorAmount(value: unknown): string {
	if (typeof value === 'number' && !Number.isFinite(value)) {
		throw new InvalidInput(FIELD, `must be a finite number, not ${value}`);
	}
	const text = requiredText(value, FIELD, 20);
	if (!DECIMAL.test(text)) {
		const problem = /^\d+\.\d{3,}$/.test(text)
			? `has more than two decimals (${text})`
			: `must be a positive number in major units, not "${text}"`;
		throw new InvalidInput(FIELD, problem, 'Write major units with up to two decimals, e.g. 10.50 for ten dollars fifty.');
	}
	const [whole, fraction = ''] = text.split('.');
	const amount = `${whole.replace(/^0+(?=\d)/, '')}.${fraction.padEnd(2, '0')}`;
	if (Number(amount) <= 0) throw new InvalidInput(FIELD, `must be greater than zero, not ${text}`);
	return amount;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	// Lower case, as the provider's own sample request sends them.
	const body = {
		sourceCurrency: currencyCode(this.getNodeParameter('sourceCurrency', itemIndex), 'Source Currency').toLowerCase(),
		amount: majorAmount(this.getNodeParameter('amount', itemIndex)),
		targetCurrency: currencyCode(this.getNodeParameter('targetCurrency', itemIndex), 'Target Currency').toLowerCase(),
	};
	if (body.sourceCurrency === body.targetCurrency) {
		throw new InvalidInput('Target Currency', `must differ from the source currency (${body.sourceCurrency.toUpperCase()})`);
	}
	const quote = await apiRequest.call(this, 'POST', '/api/v1/wallets/initialize-swap', { body });
	return this.helpers.returnJsonArray(quote);
}
