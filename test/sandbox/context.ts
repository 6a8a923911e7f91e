/**
 * What route handlers and controls share.
 */
import type { SandboxConfig } from './config';
import type { SandboxState } from './state';
import type { Controls } from './types';
import type { Settlement } from './settlement';
import type { WebhookDispatcher } from './webhooks';

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
