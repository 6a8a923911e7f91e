import { cardAction } from './cardAction';

/** Makes a frozen card usable again: POST /api/v1/virtualcards/unfreeze. */
export const { description, execute } = cardAction('unfreeze');
