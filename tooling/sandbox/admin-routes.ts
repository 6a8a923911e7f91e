/**
 * The HTTP control endpoints under `/__sandbox/` (no auth, not recorded, never failed by
 * injection). Every answer uses the normal envelope.
 */
import { configView, type SandboxConfig } from './config';
import { badRequest, ApiError } from './errors';
import { failureRuleFromJson } from './failures';
import type { BeneficiaryStatus, CardTransactionOutcome, Controls, Sandbox } from './types';
import type { JsonObject } from './validation';

type AdminHandler = (sandbox: Sandbox, body: JsonObject, config: SandboxConfig) => unknown;

function text(body: JsonObject, field: string): string {
	const value = body[field];
	if (typeof value !== 'string' || value === '') throw badRequest([`${field} is required`]);
	return value;
}

function optionalText(body: JsonObject, field: string): string | undefined {
	return body[field] === undefined || body[field] === null ? undefined : text(body, field);
}

/** `POST /__sandbox/<control>`: the control's arguments come from the JSON body by name. */
const CONTROL_CALLS: { [K in keyof Controls]: (controls: Controls, body: JsonObject) => unknown } = {
	settlePayout: (c, b) => c.settlePayout(text(b, 'transactionId')),
	failPayout: (c, b) => c.failPayout(text(b, 'transactionId'), optionalText(b, 'reason')),
	reversePayout: (c, b) => c.reversePayout(text(b, 'transactionId'), optionalText(b, 'reason')),
	setBeneficiaryStatus: (c, b) =>
		c.setBeneficiaryStatus(text(b, 'beneficiaryId'), text(b, 'status') as BeneficiaryStatus),
	completeCardCreation: (c, b) => c.completeCardCreation(text(b, 'cardId')),
	failCardCreation: (c, b) => c.failCardCreation(text(b, 'cardId'), optionalText(b, 'reason')),
	settleCardTransaction: (c, b) => c.settleCardTransaction(text(b, 'transactionId')),
	settleCardTransactions: (c, b) => c.settleCardTransactions(optionalText(b, 'cardId')),
	cardTransactionEvent: (c, b) =>
		c.cardTransactionEvent(
			text(b, 'transactionId'),
			text(b, 'outcome') as CardTransactionOutcome,
			optionalText(b, 'reason'),
		),
	markCollectionPaid: (c, b) => c.markCollectionPaid(text(b, 'transactionId'), typeof b.paidMinor === 'number' ? b.paidMinor : undefined),
	completeKyc: (c, b) => c.completeKyc(text(b, 'cardUser')),
	failKyc: (c, b) => c.failKyc(text(b, 'cardUser'), optionalText(b, 'reason')),
	setWalletBalance: (c, b) => {
		if (typeof b.amount !== 'number') throw badRequest(['amount is required (minor units)']);
		c.setWalletBalance(text(b, 'currency'), b.amount);
		return null;
	},
};

const ADMIN_ROUTES: Record<string, AdminHandler> = {
	'GET requests': (s) => s.requests,
	'DELETE requests': (s) => s.clearRequests(),
	'POST reset': (s) => s.reset(),
	'POST failures': (s, body) => s.injectFailure(failureRuleFromJson(body)),
	'DELETE failures': (s) => s.clearFailures(),
	'GET deliveries': (s) => s.deliveries,
	'GET state': (s) => s.state,
	'GET config': (_s, _body, config) => configView(config),
	'POST config': (s, body, config) => {
		s.configure(body);
		return configView(config);
	},
	'POST idle': (s) => s.idle(),
};

/** Runs `/__sandbox/<name>`; resolves with the envelope `message` and `data`. */
export async function runAdminRoute(
	sandbox: Sandbox,
	config: SandboxConfig,
	method: string,
	name: string,
	body: JsonObject,
): Promise<{ message: string; data: unknown }> {
	const route = ADMIN_ROUTES[`${method} ${name}`];
	if (route) return { message: `${name} ok`, data: (await route(sandbox, body, config)) ?? null };
	if (method === 'POST' && Object.prototype.hasOwnProperty.call(CONTROL_CALLS, name)) {
		const call = CONTROL_CALLS[name as keyof Controls];
		return { message: `${name} done`, data: (await call(sandbox.controls, body)) ?? null };
	}
	throw new ApiError(404, `Cannot ${method} /__sandbox/${name}`);
}
