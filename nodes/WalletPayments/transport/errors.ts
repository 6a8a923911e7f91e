import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export interface RequestSummary {
	method: string;
	endpoint: string;
	/** A POST that moves money: payouts, swaps, card top-ups and withdrawals, card creation. */
	movesMoney: boolean;
	/** The reference the request carried, if any (named in "already submitted" errors). */
	reference?: string;
	/** The credential's secrets: never repeated in an error, even when the service echoes them. */
	secrets?: string[];
	/** How this service says "that reference was already submitted" (the credential's rule). */
	alreadySubmitted?: AlreadySubmittedRule;
}

/**
 * The contract does not show how a service refuses a reused reference. The credential holds the
 * rule: an HTTP status among `statusCodes`, and, when a pattern is set, a message matching it.
 */
export interface AlreadySubmittedRule {
	statusCodes: number[];
	messagePattern?: RegExp;
}

export const DEFAULT_ALREADY_SUBMITTED_CODES = '409';
export const DEFAULT_ALREADY_SUBMITTED_PATTERN = 'already|duplicate';

/**
 * What a failed request says about whether it was carried out, kept on the error's context:
 * - `refused`: the service answered and did not do it (4xx other than 408, or `status: false`);
 * - `alreadySubmitted`: refused as done before (a reused reference or quote): an earlier run did it;
 * - `unknown`: no answer, a timeout, a 5xx or an unreadable answer: it may have been done.
 */
export type RequestOutcome = 'refused' | 'alreadySubmitted' | 'unknown';

export function outcomeOf(error: unknown): RequestOutcome | undefined {
	const outcome = (error as { context?: { outcome?: unknown } } | undefined)?.context?.outcome;
	return outcome === 'refused' || outcome === 'alreadySubmitted' || outcome === 'unknown'
		? outcome
		: undefined;
}

/** Refusals about the run rather than one request (the credential, the rate): these stop a run. */
const RUN_WIDE_CODES = ['401', '403', '429'];

/**
 * The service answered and turned down this request for a reason of its own (a wrong account, a
 * low balance): nothing was carried out, and the next request may well succeed.
 */
export function serviceDeclined(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || outcomeOf(error) !== 'refused') return false;
	const code = error.httpCode ?? '';
	// A 2xx here carried `status: false`: declined as plainly as a 4xx.
	return /^[24]\d\d$/.test(code) && !RUN_WIDE_CODES.includes(code);
}

function responseOutcome(
	response: ServiceResponse,
	request: RequestSummary,
	said: string | undefined,
): RequestOutcome {
	const { statusCode } = response;
	const rule = request.alreadySubmitted;
	if (
		rule !== undefined &&
		rule.statusCodes.includes(statusCode) &&
		(rule.messagePattern === undefined || rule.messagePattern.test(said ?? ''))
	) {
		return 'alreadySubmitted';
	}
	if (statusCode >= 400 && statusCode < 500 && statusCode !== 408) return 'refused';
	if (statusCode >= 200 && statusCode < 300) {
		const refused =
			typeof response.body === 'object' &&
			response.body !== null &&
			(response.body as IDataObject).status === false;
		return refused ? 'refused' : 'unknown';
	}
	return 'unknown';
}

export interface ServiceResponse {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
}

const MAYBE_DONE =
	'The request may still have been carried out. Before running it again, check with Transaction → Get (or the card’s transaction list) so that nothing is paid twice.';

/** The service's own words: `message` as a string, or a list of validation messages. */
export function serviceMessage(body: unknown): string | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const message = (body as IDataObject).message;
	if (Array.isArray(message)) return message.map(String).join('; ');
	if (typeof message === 'string' && message.trim() !== '') return message;
	return undefined;
}

const REDACTED = '[redacted]';
const DIGIT_RUN = /(?<!\d)\d{13,19}(?!\d)/g;
const LABELLED_CVV = /\b(cvv2?|cvc2?|csc)(\W{0,4})\d{3,4}(?!\d)/gi;

function luhnValid(digits: string): boolean {
	let sum = 0;
	for (let i = 0; i < digits.length; i++) {
		let digit = Number(digits[digits.length - 1 - i]);
		if (i % 2 === 1) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return sum % 10 === 0;
}

/**
 * The service's words as they may be shown: the credential's secrets removed, full card
 * numbers (13–19 digits passing the Luhn check) cut to their last four digits and labelled
 * CVVs starred, as in outputs.
 */
function safeText(text: string, request: RequestSummary): string {
	let safe = text;
	for (const secret of request.secrets ?? []) safe = safe.split(secret).join(REDACTED);
	const masked = (part: string) =>
		part
			.replace(DIGIT_RUN, (digits) =>
				luhnValid(digits) ? `${'*'.repeat(digits.length - 4)}${digits.slice(-4)}` : digits,
			)
			.replace(LABELLED_CVV, (_match, label: string, gap: string) => `${label}${gap}***`);
	// The request's own reference is not a card number, though a derived one (hex) can hold a run
	// of 13 or more digits that passes the Luhn check: the user must be able to find it.
	const reference = request.reference;
	if (reference === undefined || reference === '') return masked(safe);
	return safe.split(reference).map(masked).join(reference);
}

/**
 * The service's Retry-After in whole seconds, rounded up: the header gives either seconds or an
 * HTTP date (a date already past gives 0). Undefined when there is none or it cannot be read.
 * The only reader of the header: the 429 message here and the wait before a read is asked
 * again (transport/request.ts) both use it.
 */
export function retryAfterSeconds(headers: Record<string, unknown>): number | undefined {
	const header = headers['retry-after'];
	if (typeof header !== 'string' && typeof header !== 'number') return undefined;
	const text = String(header).trim();
	const seconds = /^\d+(\.\d+)?$/.test(text)
		? Number(text)
		: (Date.parse(text) - Date.now()) / 1000;
	return Number.isFinite(seconds) ? Math.max(0, Math.ceil(seconds)) : undefined;
}

function describeStatus(
	response: ServiceResponse,
	request: RequestSummary,
	outcome: RequestOutcome,
): string {
	const { statusCode } = response;
	if (outcome === 'alreadySubmitted' && request.reference !== undefined) {
		return `Reference "${request.reference}" was already submitted, so the service refused to do it again. Nothing new was created. Use a new reference only if you really mean a new operation.`;
	}
	if (statusCode === 401 || statusCode === 403) {
		return 'Check the API Key and the Base URL in the Wallet Payments API credential.';
	}
	if (statusCode === 404) {
		return 'The ID does not exist (or the Base URL points at the wrong service). Check the ID.';
	}
	if (statusCode === 409 || outcome === 'alreadySubmitted') {
		return 'The service says this was already done. Nothing new was created.';
	}
	if (statusCode === 429) {
		const wait = retryAfterSeconds(response.headers);
		return wait !== undefined
			? `Rate limited by the service. Try again after ${wait} seconds.`
			: 'Rate limited by the service. Try again later, or send fewer items at once.';
	}
	if (statusCode >= 500) {
		return request.movesMoney
			? `The service had a problem. ${MAYBE_DONE}`
			: 'The service had a problem. Try again later.';
	}
	if (statusCode >= 200 && statusCode < 300) {
		// A success code with an answer that cannot be read (empty, HTML, cut-off JSON) does not
		// say the money did not move; only an explicit `status: false` does.
		return request.movesMoney && outcome === 'unknown'
			? `The service answered HTTP ${statusCode}, but its answer could not be read, so it is not known whether it was done. ${MAYBE_DONE}`
			: 'The service answered without success. Nothing was reported as done.';
	}
	return 'The service rejected the request. Check the fields named in the message.';
}

/** A reply that is not a success envelope: non-2xx, `status: false`, or not JSON at all. */
export function errorFromResponse(
	node: INode,
	response: ServiceResponse,
	request: RequestSummary,
): NodeApiError {
	const { statusCode, body } = response;
	const said = serviceMessage(body);
	const message =
		(said === undefined ? undefined : safeText(said, request)) ??
		(typeof body === 'string' && body.trim() !== ''
			? `The service answered HTTP ${statusCode} with a body that is not JSON`
			: `The service answered HTTP ${statusCode} with an empty or unexpected body`);
	const httpCode = String(statusCode);
	const outcome = responseOutcome(response, request, said);
	const prefix =
		outcome === 'alreadySubmitted' && request.reference !== undefined ? `Already submitted: ` : '';
	const error = new NodeApiError(node, { status: false, message, httpCode } as JsonObject, {
		message: `${prefix}${message} [HTTP ${httpCode}]`,
		description: describeStatus(response, request, outcome),
		httpCode,
	});
	error.context.outcome = outcome;
	return error;
}

const NETWORK_CODES =
	/\b(ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|ESOCKETTIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|EPIPE)\b/;

/**
 * The error's text: its message, and the texts n8n 1.x keeps in `messages` (its request helper
 * there rewords the message and keeps no cause: the system code survives only in those).
 */
function errorText(error: unknown): string {
	const messages = (error as { messages?: unknown } | undefined)?.messages;
	const own = String((error as Error | undefined)?.message ?? '');
	return [own, ...(Array.isArray(messages) ? messages.map(String) : [])].join('\n');
}

/** n8n's request helper wraps network failures; the system code may sit on the error or its cause. */
function networkCode(error: unknown): string | undefined {
	const candidates = [error, (error as { cause?: unknown })?.cause];
	for (const candidate of candidates) {
		const code = (candidate as { code?: unknown } | undefined)?.code;
		if (typeof code === 'string' && NETWORK_CODES.test(code)) return code;
	}
	return NETWORK_CODES.exec(errorText(error))?.[1];
}

/**
 * No reply: refused connection, timeout, DNS failure, reset. A fresh error is built from the
 * code alone, so nothing of the request (its Authorization header) travels with it.
 */
export function errorFromNetwork(
	node: INode,
	error: unknown,
	request: RequestSummary,
): NodeApiError {
	const code = networkCode(error);
	const timedOut =
		code === 'ECONNABORTED' ||
		code === 'ETIMEDOUT' ||
		code === 'ESOCKETTIMEDOUT' ||
		/timeout|timed out/i.test(errorText(error));
	const what = timedOut
		? 'The service did not answer in time'
		: code === 'ECONNREFUSED'
			? 'Could not connect to the service (connection refused)'
			: 'Could not reach the service';
	const description = request.movesMoney
		? `${timedOut ? MAYBE_DONE : 'The connection failed before an answer came. ' + MAYBE_DONE} Check the Base URL in the credential.`
		: 'Check the Base URL in the credential and that the service is reachable.';
	const apiError = new NodeApiError(
		node,
		{ message: what, networkCode: code ?? 'unknown' } as JsonObject,
		{
			message: `${what} (${request.method} ${request.endpoint})`,
			description,
		},
	);
	// Refused connections never reached the service; anything else may have.
	apiError.context.outcome = code === 'ECONNREFUSED' ? 'refused' : 'unknown';
	return apiError;
}
