/**
 * The operation contract: each `<operation>.operation.ts` exports `operation`, which states with
 * `satisfies` which kind it is (a read, a write, or guarded: engine/exactlyOnce/prepare.ts). The kind decides
 * how the router runs its items.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { GuardedOperation } from '../engine/exactlyOnce/prepare';
import type { ReadMoney } from '../controls/paymentLimits';

type Execute = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

/** Reads: moves nothing, so items may be requested several at once (the Batching option). */
export interface ReadOperation {
	kind: 'read';
	description: INodeProperties[];
	execute: Execute;
	/** Items per Batch when the user sets none (DEFAULT_ITEMS_PER_BATCH otherwise). */
	itemsPerBatchDefault?: number;
}

/** Changes something at the service that a repeat does no harm to: item by item. */
export interface WriteOperation {
	kind: 'write';
	description: INodeProperties[];
	execute: Execute;
	/** What each item's money is (Swap → Get Quote), checked against the credential's limits first. */
	money?: ReadMoney;
}

export type { GuardedOperation };

export type Operation = ReadOperation | WriteOperation | GuardedOperation;

/** A resource's operations, by the Operation field's value. */
export type Operations = Record<string, Operation>;
