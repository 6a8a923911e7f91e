import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { readBatchingField } from '../../input/batching';
import { readReturnAllAndLimit, returnAllAndLimit } from '../../input/lists';
import { simplifyIfWanted, simplifyProperty } from '../../output/simplify';
import { InvalidInput } from '../../input/validation';
import { getAllByPage } from '../../transport/pagination';
import { cardIdProperty, readCardId } from './common';
import type { ReadOperation } from '../operation';

const ORDERS = ['ASC', 'DESC'];

const properties: INodeProperties[] = [
	cardIdProperty,
	...returnAllAndLimit,
	simplifyProperty('cardTransaction'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				options: [
					{ name: 'Newest First', value: 'DESC' },
					{ name: 'Oldest First', value: 'ASC' },
				],
				default: 'DESC',
				description:
					'The order the service returns the transactions in. Without this option: newest first (nodes added before version 1.1 of this node keep oldest first).',
			},
		],
	},
	readBatchingField,
];

export const description = forOperation('card', 'getTransactions', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const cardId = readCardId(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	// Version 1.1 made newest first the default; nodes saved as version 1 keep what they did.
	const defaultOrder = this.getNode().typeVersion >= 1.1 ? 'DESC' : 'ASC';
	const order =
		typeof options.order === 'string' && options.order !== ''
			? options.order.toUpperCase()
			: defaultOrder;
	if (!ORDERS.includes(order))
		throw new InvalidInput('Order', `"${order}" is not one of ${ORDERS.join(', ')}`);

	const transactions = await getAllByPage.call(this, {
		endpoint: `/api/v1/virtualcards/cards/${encodeURIComponent(cardId)}/transactions`,
		itemsKey: 'cardTransactions',
		qs: { order },
		...readReturnAllAndLimit(this, itemIndex),
	});
	return this.helpers.returnJsonArray(
		simplifyIfWanted(this, itemIndex, transactions, 'cardTransaction'),
	);
}

export const operation = { kind: 'read', description, execute } satisfies ReadOperation;
