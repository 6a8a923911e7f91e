/**
 * The claim's timing assumption, watched in production: no store call may last two claim waits
 * (docs/ledger.md, "The timing assumption"). A run whose slowest store call took more than half
 * the claim wait says so, in its output and in n8n's log, before the bound is reached.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/** The share of the claim wait above which a store call is reported. */
export const SLOW_CALL_SHARE = 0.5;

/** Says so when `slowestMs` is over SLOW_CALL_SHARE of the claim wait (none: One Process Only). */
export function noteSlowCall(
	context: IExecuteFunctions,
	slowestMs: number,
	waitMs: number | undefined,
): void {
	if (waitMs === undefined || slowestMs <= waitMs * SLOW_CALL_SHARE) return;
	const message = `One of n8n's store calls took ${slowestMs} ms, more than half the claim wait (${waitMs} ms). Nothing was done twice, but a call as long as two claim waits could let two n8n processes both act on the same row: raise the credential's Claim Wait, or find what slows n8n's database.`;
	context.logger?.warn(`wallet-payments: ${message}`);
	context.addExecutionHints?.({ type: 'warning', location: 'outputPane', message });
}
