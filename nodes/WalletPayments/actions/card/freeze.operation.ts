import { cardAction } from './cardAction';

/** Blocks a card until it is unfrozen: POST /api/v1/virtualcards/freeze. */
export const { description, execute } = cardAction('freeze');
