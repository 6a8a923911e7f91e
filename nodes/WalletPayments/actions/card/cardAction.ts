import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { maskCardDetails } from '../../output/cardMasking';
import { forOperation } from '../../descriptions/displayOptions';
import { apiRequest } from '../../transport/request';
import { cardIdProperty, cardOptionsProperty, readCardId, readRevealCardDetails } from './common';

export type CardAction = 'freeze' | 'unfreeze' | 'terminate';

/**
 * Freeze, Unfreeze and Terminate share one shape: `POST /api/v1/virtualcards/<action>`
 * with `{ cardId }`, answered with the card (2.8), whose number and CVV are masked unless
 * Reveal Card Details is on. `notice` goes above the fields (e.g. Terminate's warning).
 */
export function cardAction(action: CardAction, notice?: string) {
	const properties: INodeProperties[] = [
		...(notice
			? [{ displayName: notice, name: `${action}Notice`, type: 'notice' as const, default: '' }]
			: []),
		cardIdProperty,
		cardOptionsProperty,
	];

	async function execute(
		this: IExecuteFunctions,
		itemIndex: number,
	): Promise<INodeExecutionData[]> {
		const cardId = readCardId(this, itemIndex);
		const reveal = readRevealCardDetails(this, itemIndex);
		const card = await apiRequest.call(this, 'POST', `/api/v1/virtualcards/${action}`, {
			body: { cardId },
		});
		return this.helpers.returnJsonArray(maskCardDetails(card, reveal));
	}

	return { description: forOperation('card', action, properties), execute };
}
