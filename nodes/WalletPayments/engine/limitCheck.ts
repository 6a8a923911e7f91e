/**
 * The credential's limits for an operation that moves money but is not guarded (Swap → Get
 * Quote: the amount is given there; Finalize carries only the quote's ID). Every item's money is
 * read first; a run that breaks a limit runs no item.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { limitsRefusal, type Money } from '../controls/paymentLimits';
import { refuseAll } from './itemLoop';

export type ReadMoney = (this: IExecuteFunctions, itemIndex: number) => Money;

/** The run's output when the limits refuse it, else undefined (the items run as usual). */
export async function refusedByLimits(
	context: IExecuteFunctions,
	indexes: number[],
	readMoney: ReadMoney,
): Promise<INodeExecutionData[] | undefined> {
	const items: Array<{ itemIndex: number; money: Money }> = [];
	for (const itemIndex of indexes) {
		try {
			items.push({ itemIndex, money: readMoney.call(context, itemIndex) });
		} catch {
			// An item that cannot be read fails on its own when it runs.
		}
	}
	const refusal = await limitsRefusal(context, items);
	return refusal ? refuseAll(context, indexes, new Map(), refusal) : undefined;
}
