/**
 * Lazy expiry of time-limited records, applied whenever one is read or moved.
 */
import { isPast, timestamp, type SandboxContext } from './context';
import type { WalletTransaction } from './state';

/** A legacy payout not finalized in time, or a collection not paid in time, becomes `expired`. */
export function applyExpiry(ctx: SandboxContext, tx: WalletTransaction): void {
	const deadline =
		tx.kind === 'payout' && tx.status === 'initiated'
			? tx.expiresAt
			: tx.kind === 'collection' && tx.status === 'processing'
				? tx.expiryDate
				: null;
	if (deadline && isPast(ctx, deadline)) {
		tx.status = 'expired';
		tx.updatedAt = timestamp(ctx);
	}
}
