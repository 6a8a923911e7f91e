import { cardAction } from './cardAction';
import type { WriteOperation } from '../operation';

/** Blocks a card until it is unfrozen: POST /api/v1/virtualcards/freeze. */
export const { description, execute } = cardAction('freeze');

export const operation = { kind: 'write', description, execute } satisfies WriteOperation;
