/**
 * Options with their defaults applied, and run-time configuration changes.
 */
import { badRequest } from './errors';
import type {
	ReferenceMode,
	SandboxConfigPatch,
	SandboxOptions,
	SettlementOptions,
	SettlementRule,
	WebhookAlgorithm,
} from './types';
import { isObject } from './validation';

export interface WebhookConfig {
	url: string | null;
	secret: string;
	header: string;
	algorithm: WebhookAlgorithm;
	retryDelaysMs: number[];
	timeoutMs: number;
}

export interface SandboxConfig {
	host: string;
	port: number;
	apiKey: string;
	seed: { customers: number; beneficiaries: number };
	quoteTtlSeconds: number;
	legacyFinalizeWindowSeconds: number;
	collectionExpirySeconds: number;
	webhook: WebhookConfig;
	autoIssueCards: boolean;
	references: ReferenceMode;
	latency: { fixedMs: number; jitterMs: number };
	settlement: { delayMs: number | null; rules: SettlementRule[] };
	now: () => Date;
}

export const DEFAULT_API_KEY = 'sk_test_sandbox';

export function resolveOptions(options: SandboxOptions = {}): SandboxConfig {
	const config: SandboxConfig = {
		host: options.host ?? '127.0.0.1',
		port: options.port ?? 0,
		apiKey: options.apiKey ?? DEFAULT_API_KEY,
		seed: { customers: options.seed?.customers ?? 0, beneficiaries: options.seed?.beneficiaries ?? 0 },
		quoteTtlSeconds: options.quoteTtlSeconds ?? 250,
		legacyFinalizeWindowSeconds: options.legacyFinalizeWindowSeconds ?? 240,
		collectionExpirySeconds: options.collectionExpirySeconds ?? 1800,
		webhook: {
			url: null,
			secret: 'whsec_sandbox',
			header: 'x-wallet-signature',
			algorithm: 'sha512',
			retryDelaysMs: [50, 100, 200],
			timeoutMs: 2000,
		},
		autoIssueCards: options.autoIssueCards ?? false,
		references: 'unique',
		latency: { fixedMs: 0, jitterMs: 0 },
		settlement: { delayMs: null, rules: [] },
		now: options.now ?? (() => new Date()),
	};
	// Through the patch so a bad value is refused the same way at start and at run time.
	applyConfigPatch(config, {
		webhook: options.webhook,
		references: options.references,
		latency: options.latency,
		settlement: options.settlement,
	});
	return config;
}

const isReferenceMode = (value: unknown): value is ReferenceMode => value === 'unique' || value === 'lenient';

/** Applies a (possibly untrusted, e.g. HTTP) patch; a bad value throws a 400 ApiError. */
export function applyConfigPatch(config: SandboxConfig, patch: SandboxConfigPatch | unknown): void {
	if (!isObject(patch)) throw badRequest(['config must be an object']);
	const errors: string[] = [];
	const webhook = patch.webhook;
	const next = { ...config.webhook };
	if (webhook !== undefined) {
		if (!isObject(webhook)) {
			errors.push('webhook must be an object');
		} else {
			if (webhook.url !== undefined) {
				if (webhook.url === null || webhook.url === '') next.url = null;
				else if (typeof webhook.url === 'string' && /^https?:\/\//.test(webhook.url)) next.url = webhook.url;
				else errors.push('webhook.url must be an http(s) URL or null');
			}
			if (webhook.secret !== undefined) {
				if (typeof webhook.secret === 'string') next.secret = webhook.secret;
				else errors.push('webhook.secret must be a string');
			}
			if (webhook.header !== undefined) {
				if (typeof webhook.header === 'string' && /^[a-z0-9-]+$/i.test(webhook.header)) {
					next.header = webhook.header.toLowerCase();
				} else errors.push('webhook.header must be a header name');
			}
			if (webhook.algorithm !== undefined) {
				if (webhook.algorithm === 'sha512' || webhook.algorithm === 'sha256') next.algorithm = webhook.algorithm;
				else errors.push('webhook.algorithm must be sha512 or sha256');
			}
			if (webhook.retryDelaysMs !== undefined) {
				const delays = webhook.retryDelaysMs;
				if (Array.isArray(delays) && delays.every((d) => typeof d === 'number' && d >= 0)) {
					next.retryDelaysMs = [...delays];
				} else errors.push('webhook.retryDelaysMs must be an array of non-negative numbers');
			}
			if (webhook.timeoutMs !== undefined) {
				if (typeof webhook.timeoutMs === 'number' && webhook.timeoutMs > 0) next.timeoutMs = webhook.timeoutMs;
				else errors.push('webhook.timeoutMs must be a positive number');
			}
		}
	}
	if (patch.autoIssueCards !== undefined && typeof patch.autoIssueCards !== 'boolean') {
		errors.push('autoIssueCards must be a boolean');
	}
	const references = patch.references;
	if (references !== undefined && !isReferenceMode(references)) errors.push('references must be unique or lenient');
	const latency = patch.latency;
	const milliseconds = (value: unknown) => value === undefined || (typeof value === 'number' && value >= 0 && value <= 60000);
	if (latency !== undefined && (!isObject(latency) || typeof latency.fixedMs !== 'number' || !milliseconds(latency.fixedMs) || !milliseconds(latency.jitterMs))) {
		errors.push('latency must be { fixedMs, jitterMs? } in milliseconds, 0 to 60000');
	}
	const settlement = patch.settlement;
	if (settlement !== undefined && !isSettlement(settlement)) {
		errors.push('settlement must be { delayMs: number (0 to 600000) or null, rules?: [{ beneficiaryId? or accountNumber?, outcome: failed, reversed or refused, reason? }] }');
	}
	if (errors.length > 0) throw badRequest(errors);
	config.webhook = next;
	if (typeof patch.autoIssueCards === 'boolean') config.autoIssueCards = patch.autoIssueCards;
	if (isReferenceMode(references)) config.references = references;
	if (isSettlement(settlement)) config.settlement = { delayMs: settlement.delayMs, rules: [...(settlement.rules ?? [])] };
	if (isObject(latency)) config.latency = { fixedMs: latency.fixedMs as number, jitterMs: (latency.jitterMs as number | undefined) ?? 0 };
}

function isSettlement(value: unknown): value is SettlementOptions {
	if (!isObject(value)) return false;
	const delay = value.delayMs;
	if (delay !== null && !(typeof delay === 'number' && delay >= 0 && delay <= 600000)) return false;
	if (value.rules === undefined) return true;
	return (
		Array.isArray(value.rules) &&
		value.rules.every(
			(rule) =>
				isObject(rule) &&
				(rule.outcome === 'failed' || rule.outcome === 'reversed' || rule.outcome === 'refused') &&
				(typeof rule.beneficiaryId === 'string' || typeof rule.accountNumber === 'string') &&
				(rule.reason === undefined || typeof rule.reason === 'string'),
		)
	);
}

/** The run-time configuration as shown by `GET /__sandbox/config`. */
export function configView(config: SandboxConfig) {
	return { webhook: config.webhook, autoIssueCards: config.autoIssueCards, references: config.references, latency: config.latency, settlement: config.settlement };
}
