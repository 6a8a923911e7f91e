import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InvalidInput } from '../helpers/validation';
import * as beneficiary from './beneficiary';
import * as card from './card';
import * as collection from './collection';
import * as country from './country';
import * as customer from './customer';
import * as payout from './payout';
import * as swap from './swap';
import * as transaction from './transaction';

type Operation = {
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
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

function findOperation(context: IExecuteFunctions, resource: string, operation: string): Operation {
	const candidate = resources[resource]?.[operation] as Operation | undefined;
	if (typeof candidate?.execute !== 'function') {
		throw new NodeOperationError(context.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	return candidate;
}

/** Every failure leaves the router as a NodeApiError or NodeOperationError that knows its item. */
function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof InvalidInput) {
		return new NodeOperationError(context.getNode(), `${error.message} (item ${itemIndex})`, {
			itemIndex,
			description: error.hint,
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Runs the chosen operation once per input item. Each item's output is paired with it; with
 * Continue On Fail a failed item yields exactly one error item and the others go on.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const { execute } = findOperation(this, resource, operation);

	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await execute.call(this, itemIndex);
			output.push(...this.helpers.constructExecutionMetaData(results, { itemData: { item: itemIndex } }));
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			output.push(errorItem(nodeError, itemIndex));
		}
	}
	return [output];
}
