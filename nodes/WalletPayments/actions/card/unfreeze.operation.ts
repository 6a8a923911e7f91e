import { cardAction } from './cardAction';
import type { WriteOperation } from '../operation';

/** Makes a frozen card usable again: POST /api/v1/virtualcards/unfreeze. */
export const { description, execute } = cardAction('unfreeze');

export const operation = { kind: 'write', description, execute } satisfies WriteOperation;
