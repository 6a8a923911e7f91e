/**
 * Public types of the in-memory sandbox (see docs/sandbox-spec.md).
 */
import type { BeneficiaryStatus, SandboxState } from './state';

export type { BeneficiaryStatus };

export type WebhookAlgorithm = 'sha512' | 'sha256';

/**
 * 'unique': a reused reference is refused with 409 (what the contract's service does).
 * 'lenient': it is accepted and makes a new record, as some real services do.
 */
export type ReferenceMode = 'unique' | 'lenient';

export interface WebhookOptions {
	/** Where every event is delivered (besides a resource's own callbackUrl). Default: none. */
	url?: string;
	/** HMAC secret. Default 'whsec_sandbox'. */
	secret?: string;
	/** Header carrying the hex signature. Default 'x-wallet-signature'. */
	header?: string;
	/** Default 'sha512'. */
	algorithm?: WebhookAlgorithm;
	/** Delay before each retry; its length is the number of retries. Default [50, 100, 200]. */
	retryDelaysMs?: number[];
	/** Per-attempt timeout. Default 2000. */
	timeoutMs?: number;
}

export interface SandboxOptions {
	/** Default 127.0.0.1. */
	host?: string;
	/** Default 0 (a random free port). */
	port?: number;
	/** Default 'sk_test_sandbox'. */
	apiKey?: string;
	/** Generated records, default none. */
	seed?: { customers?: number; beneficiaries?: number };
	/** Swap quote lifetime, default 250. */
	quoteTtlSeconds?: number;
	/** Legacy payout finalize window, default 240. */
	legacyFinalizeWindowSeconds?: number;
	/** Collection receiving-account lifetime, default 1800. */
	collectionExpirySeconds?: number;
	webhook?: WebhookOptions;
	/** Issue a created card right after answering the create call. Default false. */
	autoIssueCards?: boolean;
	/** Whether a reused reference is refused (409). Default 'unique'. */
	references?: ReferenceMode;
	/** Added to every API answer, as a real service's round trip. Default none. */
	latency?: Latency;
	/** Payouts settle by themselves after a delay. Default off. */
	settlement?: SettlementOptions;
	/**
	 * Serve HTTPS with this key and certificate (PEM) instead of plain HTTP; `url` then starts
	 * with https://. Default: plain HTTP. `selfSignedCertificate()` (tls.ts) makes a pair.
	 */
	tls?: TlsOptions;
	/** Clock, for expiry tests. Default () => new Date(). */
	now?: () => Date;
}

/** A PEM private key and certificate for `SandboxOptions.tls`. */
export interface TlsOptions {
	key: string | Buffer;
	cert: string | Buffer;
}

/** Run-time changes (JS `sandbox.configure` or `POST /__sandbox/config`). */
export interface SandboxConfigPatch {
	webhook?: Omit<WebhookOptions, 'url'> & { url?: string | null };
	autoIssueCards?: boolean;
	references?: ReferenceMode;
	latency?: Latency;
	settlement?: SettlementOptions;
}

/**
 * Payouts reach a final status `delayMs` after they were sent (v2) or finalized (legacy); null
 * turns it off. A rule makes the payouts of a beneficiary (or an account number) fail, or settle
 * and be reversed `delayMs` later; the others succeed. `refused` turns the payout down when it is
 * sent (HTTP 400 with the rule's reason, nothing created), whatever `delayMs` is.
 */
export interface SettlementOptions {
	delayMs: number | null;
	rules?: SettlementRule[];
}

export interface SettlementRule {
	beneficiaryId?: string;
	accountNumber?: string;
	outcome: 'failed' | 'reversed' | 'refused';
	reason?: string;
}

/** Every API request waits `fixedMs` plus a uniform random 0..`jitterMs` before it is handled. */
export interface Latency {
	fixedMs: number;
	jitterMs?: number;
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	rawBody: string;
	/** Parsed JSON body; undefined when the body is empty or not JSON. */
	body: unknown;
	at: string;
	/** Wall-clock milliseconds (Date.now) when it arrived and when its answer was finished. */
	startedMs?: number;
	finishedMs?: number;
	/**
	 * The connection it came on, numbered in the order connections brought their first request
	 * (1, 2, …). Requests sharing a number were sent over one kept-alive connection.
	 */
	connection?: number;
}

export interface FailureRule {
	/** Case-insensitive; any method when absent. */
	method?: string;
	/** Exact pathname (no query string) or a RegExp tested against it. */
	path: string | RegExp;
	status: number;
	/** Object → JSON; string → sent raw (HTML, malformed JSON, ''). Default `{status:false,message}`. */
	body?: unknown;
	headers?: Record<string, string>;
	/** How many matching requests fail. Default 1; Infinity for every one. */
	times?: number;
	/**
	 * How many matching requests to let through first (default 0): `skip: 1` fails the second
	 * payout of a run. With phase 'after', only requests that were carried out count.
	 */
	skip?: number;
	/** Wait before acting. */
	delayMs?: number;
	/** 'respond' (default), 'hang' (never answer) or 'destroy' (drop the socket). */
	action?: 'respond' | 'hang' | 'destroy';
	/**
	 * 'before' (default): act instead of processing the request. 'after': process it fully
	 * (auth, validation, state, money, follow-up work), then act instead of the success
	 * answer, like a gateway that fails after the service committed. Only requests that
	 * succeeded count towards `times`.
	 */
	phase?: FailurePhase;
}

export type FailurePhase = 'before' | 'after';

export interface DeliveryAttempt {
	url: string;
	event: string;
	/** 1-based. */
	attempt: number;
	/** HTTP status of the receiver's answer, when there was one. */
	status?: number;
	/** Network error or timeout, when there was no answer. */
	error?: string;
	/** The exact raw JSON body sent (the bytes that were signed). */
	body: string;
	signature: string;
	at: string;
}

/** What a control did: the event it emitted and every delivery attempt for it. */
export interface ControlResult {
	event: string;
	data: Record<string, unknown>;
	deliveries: DeliveryAttempt[];
}

export type CardTransactionOutcome = 'reversed' | 'declined';

/**
 * State moves that the real service makes on its own, each emitting its event.
 * Every control changes state synchronously, then resolves when all deliveries for the
 * event finished (retries included). Invalid moves reject with an ApiError (status 400/404).
 */
export interface Controls {
	/** Payout initiated (v2) or pending (finalized legacy) → success; payout.transfer.success. */
	settlePayout(transactionId: string): Promise<ControlResult>;
	/** Payout → failed, wallet refunded; payout.transfer.failed. */
	failPayout(transactionId: string, reason?: string): Promise<ControlResult>;
	/** Settled payout → reversed, wallet refunded; payout.transfer.reversed. */
	reversePayout(transactionId: string, reason?: string): Promise<ControlResult>;
	/** beneficiary.status.changed. */
	setBeneficiaryStatus(beneficiaryId: string, status: BeneficiaryStatus): Promise<ControlResult>;
	/** Pending card → issued (number, cvv, balance); virtualcard.created.success. */
	completeCardCreation(cardId: string): Promise<ControlResult>;
	/** Pending card → failed; virtualcard.created.failed. */
	failCardCreation(cardId: string, reason?: string): Promise<ControlResult>;
	/** Pending top-up/withdrawal → success, balance moves; virtualcard.transaction.credit/debit. */
	settleCardTransaction(transactionId: string): Promise<ControlResult>;
	/** Settles every pending card transaction (of one card when given). */
	settleCardTransactions(cardId?: string): Promise<ControlResult[]>;
	/** Declines a pending, or reverses a settled, card transaction; virtualcard.transaction.<outcome>. */
	cardTransactionEvent(
		transactionId: string,
		outcome: CardTransactionOutcome,
		reason?: string,
	): Promise<ControlResult>;
	/**
	 * Processing collection → success, wallet credited; transaction.deposit.success. With
	 * `paidMinor` below the collection's amount, a partial payment: that much credited, the event's
	 * `amount`/`centAmount` what was paid, and the collection stays `processing`.
	 */
	markCollectionPaid(transactionId: string, paidMinor?: number): Promise<ControlResult>;
	/** Card user (id or email) KYC → success; virtualcard.user.kyc.success. */
	completeKyc(cardUser: string): Promise<ControlResult>;
	/** Card user (id or email) KYC → failed; virtualcard.user.kyc.failed. */
	failKyc(cardUser: string, reason?: string): Promise<ControlResult>;
	/** Sets a wallet balance (minor units); no event. */
	setWalletBalance(currency: string, amountMinor: number): void;
}

export interface Sandbox {
	url: string;
	port: number;
	apiKey: string;
	/** Every API request (not /__sandbox), in order. Live array. */
	readonly requests: RecordedRequest[];
	clearRequests(): void;
	injectFailure(rule: FailureRule): void;
	clearFailures(): void;
	/** Empty state, requests, failures and deliveries; re-apply the seed. Config is kept. */
	reset(): void;
	/** Every webhook attempt. Live array. */
	readonly deliveries: DeliveryAttempt[];
	readonly controls: Controls;
	/** Read access for assertions. Live object. */
	readonly state: SandboxState;
	/** Change webhook settings, autoIssueCards or references at run time. */
	configure(patch: SandboxConfigPatch): void;
	/** Resolves when no webhook delivery is in flight (retries included). */
	idle(): Promise<void>;
	/** TCP connections open right now, idle kept-alive ones included. */
	openConnections(): number;
	close(): Promise<void>;
}
