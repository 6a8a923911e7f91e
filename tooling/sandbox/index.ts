/**
 * The in-memory sandbox of the wallet payments service (docs/sandbox-spec.md).
 *
 *   const sandbox = await startSandbox({ seed: { customers: 250 } });
 *   await fetch(`${sandbox.url}/api/v2/customers`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
 *   await sandbox.close();
 */
import type { AddressInfo } from 'net';

import { runAdminRoute } from './admin-routes';
import { applyConfigPatch, resolveOptions } from './config';
import type { SandboxContext } from './context';
import { createControls } from './controls';
import { FailureRules } from './failures';
import { API_ROUTES } from './routes';
import { applySeed } from './seed';
import { createSandboxServer } from './server';
import { createSettlement } from './settlement';
import { clearState, createState } from './state';
import type { RecordedRequest, Sandbox, SandboxOptions } from './types';
import { WebhookDispatcher } from './webhooks';

export type {
	BeneficiaryStatus,
	CardTransactionOutcome,
	ControlResult,
	Controls,
	DeliveryAttempt,
	FailurePhase,
	FailureRule,
	RecordedRequest,
	Latency,
	SettlementOptions,
	SettlementRule,
	ReferenceMode,
	Sandbox,
	SandboxConfigPatch,
	SandboxOptions,
	TlsOptions,
	WebhookAlgorithm,
	WebhookOptions,
} from './types';
export type { SandboxState } from './state';
export { ApiError } from './errors';
export { signBody } from './webhooks';
export { isLuhnValid } from './card-numbers';
export { COUNTRIES } from './countries';
export { selfSignedCertificate, type SelfSignedCertificate } from './tls';

function urlHost(host: string): string {
	if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
	return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const config = resolveOptions(options);
	const state = createState();
	const webhooks = new WebhookDispatcher(() => config.webhook, config.now);
	const ctx = { config, state, webhooks } as SandboxContext;
	ctx.controls = createControls(ctx);
	ctx.settlement = createSettlement(ctx);
	const failures = new FailureRules();
	const requests: RecordedRequest[] = [];
	applySeed(ctx);

	const sandbox: Sandbox = {
		url: '',
		port: 0,
		apiKey: config.apiKey,
		requests,
		clearRequests: () => {
			requests.length = 0;
		},
		injectFailure: (rule) => failures.add(rule),
		clearFailures: () => failures.clear(),
		reset: () => {
			clearState(state);
			requests.length = 0;
			failures.clear();
			webhooks.clear();
			ctx.settlement.cancel();
			applySeed(ctx);
		},
		deliveries: webhooks.deliveries,
		controls: ctx.controls,
		state,
		configure: (patch) => applyConfigPatch(config, patch),
		idle: () => webhooks.idle(),
		openConnections: () => http.openConnections(),
		close: async () => {
			webhooks.cancel();
			ctx.settlement.cancel();
			await http.close();
		},
	};

	const http = createSandboxServer({
		ctx,
		routes: API_ROUTES,
		failures,
		requests,
		admin: (method, name, body) => runAdminRoute(sandbox, config, method, name, body),
		tls: options.tls,
	});
	await new Promise<void>((resolve, reject) => {
		http.server.once('error', reject);
		http.server.listen(config.port, config.host, () => {
			http.server.off('error', reject);
			resolve();
		});
	});
	const port = (http.server.address() as AddressInfo).port;
	sandbox.port = port;
	sandbox.url = `${options.tls ? 'https' : 'http'}://${urlHost(config.host)}:${port}`;
	return sandbox;
}
