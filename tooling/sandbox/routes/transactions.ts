/**
 * Get one wallet transaction (contract 4.6): payouts of both flows, collections, swaps.
 */
import { applyExpiry } from '../expiry';
import type { Route } from '../router';
import { findById } from '../state';
import { transactionView } from '../views';

export const transactionRoutes: Route[] = [
	{
		method: 'GET',
		path: '/api/v2/transactions/:transactionId',
		handler: ({ params }, ctx) => {
			const tx = findById(ctx.state.transactions, params.transactionId, 'Transaction');
			applyExpiry(ctx, tx);
			return { message: 'Transaction retrieved successfully', data: transactionView(tx) };
		},
	},
];
