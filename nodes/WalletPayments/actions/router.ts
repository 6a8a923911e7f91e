/**
 * The router: finds the chosen operation and runs it for every input item. An operation that
 * creates something at the service (it exports `prepare`) goes through the guarded pipeline
 * (guarded/pipeline.ts); any other runs item by item, reads up to Items per Batch at once.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { batchingOf } from '../helpers/batching';
import * as beneficiary from './beneficiary';
import * as card from './card';
import * as collection from './collection';
import * as country from './country';
import * as customer from './customer';
import { runGuarded } from './guarded/pipeline';
import { type GuardedOperation, isGuarded } from './guarded/request';
import { eachItem, eachItemBatched, inItemOrder } from './itemLoop';
import { type ReadMoney, refusedByLimits } from './limitCheck';
import * as payout from './payout';
import * as swap from './swap';
import * as transaction from './transaction';

type Operation = {
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
	/** A read: its items may be requested several at once (the Batching option). */
	reads?: boolean;
	/** Items per Batch when the user sets none (DEFAULT_ITEMS_PER_BATCH otherwise). */
	itemsPerBatchDefault?: number;
	/** What each item's money is (Swap → Get Quote), checked against the credential's limits first. */
	money?: ReadMoney;
};

const resources: Record<string, Record<string, unknown>> = {
	beneficiary,
	card,
	collection,
	country,
	customer,
	payout,
	swap,
	transaction,
};

function findOperation(
	context: IExecuteFunctions,
	resource: string,
	operation: string,
): Operation | GuardedOperation {
	const candidate = resources[resource]?.[operation] as Operation | undefined;
	if (typeof candidate?.execute !== 'function' && !isGuarded(candidate)) {
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return candidate;
}

/** Runs the chosen operation for every input item; the outputs keep the items' order. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const indexes = [...this.getInputData().keys()];
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const found = findOperation(this, resource, operation);
	if (isGuarded(found)) return [await runGuarded(this, found, indexes)];

	if (found.money) {
		const refused = await refusedByLimits(this, indexes, found.money);
		if (refused) return [refused];
	}
	const { execute } = found;
	const run = async (itemIndex: number) => await execute.call(this, itemIndex);
	const results = found.reads
		? await eachItemBatched(this, indexes, batchingOf(this, found.itemsPerBatchDefault), run)
		: await eachItem(this, indexes, run);
	return [inItemOrder(this, indexes, results)];
}
