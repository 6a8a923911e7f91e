import { cardAction } from './cardAction';
import type { WriteOperation } from '../operation';

/** Closes a card for good: POST /api/v1/virtualcards/terminate. */
export const { description, execute } = cardAction(
	'terminate',
	'Terminating a card is permanent: the card cannot be unfrozen or used again. To block it for a while, use Freeze instead.',
);

export const operation = { kind: 'write', description, execute } satisfies WriteOperation;
