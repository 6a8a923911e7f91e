import type { INodeProperties } from 'n8n-workflow';

import { amountProperties } from '../../input/units';

/** Amount Unit and Amount of a payout, in the source wallet's currency; `max` in minor units. */
export function payoutAmountProperties(max?: number): INodeProperties[] {
	return amountProperties({
		currencyField: 'source wallet currency',
		purpose: 'The amount to send',
		minorExample: '1 USD is 100, 10.50 USD is 1050',
		majorExample: '10.50 for ten dollars fifty',
		max,
	});
}
