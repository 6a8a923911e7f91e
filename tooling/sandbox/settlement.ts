/**
 * Automatic settlement: like a real service, a payout reaches a final status some time after it
 * was sent (v2) or finalized (legacy), with the same event the controls send. Off unless
 * `settlement.delayMs` is set. A rule can make a beneficiary's (or an account number's) payouts
 * fail, or settle and then be reversed (after a second delay).
 */
import type { SandboxContext, Settlement } from './context';

/** The rule for a payout's beneficiary or account number, if any. */
export function settlementRule(ctx: SandboxContext, beneficiaryId: string | null, accountNumber: string | undefined) {
	return ctx.config.settlement.rules.find(
		(r) =>
			(r.beneficiaryId !== undefined && r.beneficiaryId === beneficiaryId) ||
			(r.accountNumber !== undefined && r.accountNumber === accountNumber),
	);
}

export function createSettlement(ctx: SandboxContext): Settlement {
	const timers = new Set<NodeJS.Timeout>();
	const after = (ms: number, fn: () => Promise<unknown>) => {
		const timer = setTimeout(() => {
			timers.delete(timer);
			// The payout may have been settled by hand (a control) in the meantime: nothing to do.
			fn().catch(() => undefined);
		}, ms);
		timers.add(timer);
	};
	return {
		schedule(tx) {
			const { delayMs } = ctx.config.settlement;
			if (delayMs === null) return;
			const rule = settlementRule(ctx, tx.beneficiaryId, tx.destination.accountNumber);
			if (rule?.outcome === 'failed') {
				after(delayMs, async () => await ctx.controls.failPayout(tx.id, rule.reason));
				return;
			}
			after(delayMs, async () => {
				await ctx.controls.settlePayout(tx.id);
				if (rule?.outcome === 'reversed') after(delayMs, async () => await ctx.controls.reversePayout(tx.id, rule.reason));
			});
		},
		cancel() {
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
		},
	};
}
