import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import { optionalText } from './validation';

export const REFERENCE_HINT =
	'Leave empty to use a reference derived from this execution, node and item: n8n’s Retry On Fail then resends the same reference, and the service refuses it as already submitted instead of paying twice';

/**
 * A reference that stays the same when n8n retries this node for this item within the same
 * execution (Retry On Fail), and differs between items and executions.
 */
export function derivedReference(context: IExecuteFunctions, itemIndex: number): string {
	const seed = `${context.getExecutionId() ?? ''}:${context.getWorkflow().id ?? ''}:${context.getNode().id}:${itemIndex}`;
	return `n8n-${createHash('sha256').update(seed).digest('hex').slice(0, 24)}`;
}

/** The reference the user gave, or the derived one when the field is empty. */
export function referenceOrDerived(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field = 'Reference',
): string {
	return optionalText(value, field, 100) ?? derivedReference(context, itemIndex);
}
