import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { forOperation } from '../../helpers/displayOptions';

// STUB: to be replaced by the real operation.
const properties: INodeProperties[] = [];

export const description = forOperation('transaction', 'get', properties);

export async function execute(this: IExecuteFunctions, _itemIndex: number): Promise<INodeExecutionData[]> {
	throw new NodeOperationError(this.getNode(), 'Not implemented yet');
}
