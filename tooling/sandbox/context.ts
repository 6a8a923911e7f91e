/**
 * What route handlers and controls share.
 */
import type { SandboxConfig } from './config';
import { referenceUsed } from './errors';
import type { PayoutRecord, SandboxState } from './state';
import type { Controls } from './types';
import type { WebhookDispatcher } from './webhooks';

export interface Settlement {
	/** Settles (or fails, or settles and reverses) the payout after the configured delay. */
	schedule(tx: PayoutRecord): void;
	/** Drops every settlement not yet due (reset, close). */
	cancel(): void;
}

export interface SandboxContext {
	config: SandboxConfig;
	state: SandboxState;
	webhooks: WebhookDispatcher;
	controls: Controls;
	settlement: Settlement;
}

/** The injectable clock as an ISO timestamp. */
export const timestamp = (ctx: SandboxContext): string => ctx.config.now().toISOString();

/** `from` plus `seconds`, as an ISO timestamp. */
export const addSeconds = (from: string, seconds: number): string =>
	new Date(Date.parse(from) + seconds * 1000).toISOString();

export const isPast = (ctx: SandboxContext, iso: string): boolean => ctx.config.now().getTime() > Date.parse(iso);

/**
 * 409 when a record of `list` already carries this reference. The one place a reused
 * reference is refused, so `references: 'lenient'` (a service that does not enforce unique
 * references) lets every such call through and the caller makes a new record as for a first use.
 */
export function assertReferenceFree(
	ctx: SandboxContext,
	list: Array<{ reference: string }>,
	reference: string,
): void {
	if (ctx.config.references === 'lenient') return;
	if (list.some((item) => item.reference === reference)) throw referenceUsed(reference);
}
