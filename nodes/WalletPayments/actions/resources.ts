/**
 * The node's resources, in the order the Resource field lists them, each with its operations (the
 * router's table) and its fields (the node's description): the one list of what the node does.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as beneficiary from './beneficiary';
import * as card from './card';
import * as collection from './collection';
import * as country from './country';
import * as customer from './customer';
import type { Operations } from './operation';
import * as payout from './payout';
import * as swap from './swap';
import * as transaction from './transaction';

interface Resource {
	/** The Resource field's label. */
	name: string;
	operations: Operations;
	/** The Operation field and every operation's fields. */
	description: INodeProperties[];
}

export const resources = {
	beneficiary: { name: 'Beneficiary', ...beneficiary },
	card: { name: 'Card', ...card },
	collection: { name: 'Collection', ...collection },
	country: { name: 'Country', ...country },
	customer: { name: 'Customer', ...customer },
	payout: { name: 'Payout', ...payout },
	swap: { name: 'Swap', ...swap },
	transaction: { name: 'Transaction', ...transaction },
} satisfies Record<string, Resource>;

export type ResourceName = keyof typeof resources;

/** The Resource field's options. */
export const resourceOptions: INodePropertyOptions[] = Object.entries(resources).map(
	([value, resource]) => ({ name: resource.name, value }),
);

/** Every resource's Operation field and operation fields, in the resources' order. */
export const resourceProperties: INodeProperties[] = Object.values(resources).flatMap(
	(resource) => resource.description,
);
