/**
 * The router: finds the chosen operation in the resources' table and runs it for every input
 * item, by its kind (operation.ts): guarded through the guarded pipeline ((engine/exactlyOnce/pipeline.ts)),
 * reads up to Items per Batch at once, writes item by item.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { batchingOf } from '../input/batching';
import { runGuarded } from '../engine/exactlyOnce/pipeline';
import { eachItem, eachItemBatched, inItemOrder } from '../engine/itemLoop';
import { refusedByLimits } from '../controls/paymentLimits';
import type { Operation } from './operation';
import { resources, type ResourceName } from './resources';

function findOperation(context: IExecuteFunctions, resource: string, operation: string): Operation {
	const operations = resources[resource as ResourceName]?.operations as
		| Record<string, Operation>
		| undefined;
	const found =
		operations && Object.hasOwn(operations, operation) ? operations[operation] : undefined;
	if (found === undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return found;
}

/** Runs the chosen operation for every input item; the outputs keep the items' order. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const indexes = [...this.getInputData().keys()];
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const found = findOperation(this, resource, operation);
	if (found.kind === 'guarded') return [await runGuarded(this, found, indexes)];

	if (found.kind === 'write' && found.money) {
		const refused = await refusedByLimits(this, indexes, found.money);
		if (refused) return [refused];
	}
	const { execute } = found;
	const run = async (itemIndex: number) => await execute.call(this, itemIndex);
	const results =
		found.kind === 'read'
			? await eachItemBatched(this, indexes, batchingOf(this, found.itemsPerBatchDefault), run)
			: await eachItem(this, indexes, run);
	return [inItemOrder(this, indexes, results)];
}
