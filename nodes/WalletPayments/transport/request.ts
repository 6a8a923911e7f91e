import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import {
	type AlreadySubmittedRule,
	DEFAULT_ALREADY_SUBMITTED_CODES,
	DEFAULT_ALREADY_SUBMITTED_PATTERN,
	errorFromNetwork,
	errorFromResponse,
	type RequestSummary,
	retryAfterSeconds,
	type ServiceResponse,
} from './errors';
import { CREDENTIAL_TYPE, readCredential } from '../../shared/credential';

export type WalletContext = IExecuteFunctions | ILoadOptionsFunctions;

export interface RequestOptions {
	body?: IDataObject;
	qs?: IDataObject;
	/** Money-moving POSTs get "may have been carried out" guidance on timeouts and 5xx. */
	movesMoney?: boolean;
}

/** The credential's default "Timeout (Seconds)". */
export const DEFAULT_TIMEOUT_SECONDS = 60;

interface Connection {
	baseUrl: string;
	/** Per-request timeout in milliseconds. */
	timeout: number;
	/** The credential's secrets, kept out of error messages. */
	secrets: string[];
	alreadySubmitted: AlreadySubmittedRule;
	/**
	 * The credential as read once for this run, handed to every request: otherwise n8n reads
	 * and decrypts it from its database again for each request.
	 */
	credentials: ICredentialsDecrypted;
}

// One credential read per node run, not per item.
const connections = new WeakMap<object, Promise<Connection>>();

async function readConnection(context: WalletContext): Promise<Connection> {
	const credentials = await readCredential(context);
	const raw = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	if (!/^https?:\/\/[^/\s]+/i.test(raw)) {
		throw new NodeOperationError(
			context.getNode(),
			'The Base URL in the Wallet Payments API credential must start with http:// or https://',
		);
	}
	// Credentials saved before the field existed have no timeout: use the default.
	const seconds = Number(credentials.timeout ?? DEFAULT_TIMEOUT_SECONDS);
	if (!Number.isFinite(seconds) || seconds <= 0) {
		throw new NodeOperationError(
			context.getNode(),
			'The Timeout (Seconds) in the Wallet Payments API credential must be a number above zero',
		);
	}
	const secrets = [credentials.apiKey, credentials.webhookSecret].filter(
		(secret): secret is string => typeof secret === 'string' && secret.trim().length >= 8,
	);
	const reference = context.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		baseUrl: raw.replace(/\/+$/, ''),
		timeout: Math.round(seconds * 1000),
		secrets,
		alreadySubmitted: alreadySubmittedRule(context, credentials),
		credentials: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials,
		},
	};
}

/**
 * The credential's "Already Submitted" rule; credentials saved before the fields existed get the
 * defaults (HTTP 409 with a message that says "already" or "duplicate").
 */
function alreadySubmittedRule(
	context: WalletContext,
	credentials: IDataObject,
): AlreadySubmittedRule {
	const codesText = String(credentials.alreadySubmittedCodes ?? DEFAULT_ALREADY_SUBMITTED_CODES);
	const statusCodes = codesText
		.split(',')
		.map((code) => code.trim())
		.filter((code) => code !== '')
		.map(Number);
	if (statusCodes.some((code) => !Number.isInteger(code) || code < 200 || code > 599)) {
		throw new NodeOperationError(
			context.getNode(),
			'The Already Submitted Status Codes in the Wallet Payments API credential must be HTTP codes separated by commas, e.g. 409 or 409, 422',
		);
	}
	const patternText = String(
		credentials.alreadySubmittedPattern ?? DEFAULT_ALREADY_SUBMITTED_PATTERN,
	).trim();
	let messagePattern: RegExp | undefined;
	try {
		messagePattern = patternText === '' ? undefined : new RegExp(patternText, 'i');
	} catch {
		throw new NodeOperationError(
			context.getNode(),
			'The Already Submitted Message Pattern in the Wallet Payments API credential is not a valid regular expression',
		);
	}
	return { statusCodes, messagePattern };
}

function connectionOf(context: WalletContext): Promise<Connection> {
	let connection = connections.get(context);
	if (!connection) {
		connection = readConnection(context);
		connections.set(context, connection);
		connection.catch(() => connections.delete(context));
	}
	return connection;
}

/** How often a rate-limited read is asked again, and the longest wait accepted (seconds). */
export const RATE_LIMIT_RETRIES = 3;
export const RATE_LIMIT_MAX_WAIT_SECONDS = 60;

/**
 * Seconds to wait before asking again: the service's Retry-After (seconds or an HTTP date),
 * else 1, 2, 4 s. Undefined when the service asks for longer than the node will wait.
 */
function rateLimitWait(headers: Record<string, unknown>, attempt: number): number | undefined {
	const wait = retryAfterSeconds(headers) ?? 2 ** attempt;
	return wait > RATE_LIMIT_MAX_WAIT_SECONDS ? undefined : wait;
}

function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

/**
 * The one way this package talks to the service. Sends JSON with the credential's bearer key and
 * returns the envelope's `data`. Anything but a 2xx with `status: true` becomes a NodeApiError
 * with the service's own message and HTTP code.
 *
 * Only one case is sent again: a GET not marked `movesMoney` answered 429 is asked again after
 * the service's Retry-After (seconds or an HTTP date; without one, 1, 2, then 4 s), at most
 * RATE_LIMIT_RETRIES times, unless the wait would exceed RATE_LIMIT_MAX_WAIT_SECONDS. Nothing
 * else is ever sent twice: no POST or other non-GET request (so no money-moving POST), and no
 * request that timed out, failed to connect or got a 5xx.
 */
export async function apiRequest(
	this: WalletContext,
	method: IHttpRequestMethods,
	endpoint: string,
	{ body, qs, movesMoney = false }: RequestOptions = {},
): Promise<IDataObject> {
	const { baseUrl, timeout, secrets, credentials, alreadySubmitted } = await connectionOf(this);
	const url = `${baseUrl}${endpoint}`;
	const summary: RequestSummary = {
		method,
		endpoint,
		movesMoney,
		reference: typeof body?.reference === 'string' ? body.reference : undefined,
		secrets,
		alreadySubmitted,
	};
	const options: IHttpRequestOptions = {
		method,
		url,
		headers: { accept: 'application/json' },
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout,
	};
	if (body !== undefined) options.body = body;
	if (qs !== undefined && Object.keys(qs).length > 0) options.qs = qs;

	const send = async (): Promise<ServiceResponse> => {
		try {
			return await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options, {
				credentialsDecrypted: credentials,
			});
		} catch (error) {
			throw errorFromNetwork(this.getNode(), error, summary);
		}
	};
	let response = await send();
	// A read that was rate limited is asked again after the wait the service names; a request
	// that creates something never is (it is a GET only when it reads).
	const waits: number[] = [];
	while (response.statusCode === 429 && method === 'GET' && !movesMoney) {
		const wait = rateLimitWait(response.headers, waits.length);
		if (wait === undefined || waits.length >= RATE_LIMIT_RETRIES) break;
		waits.push(wait);
		await sleep(wait * 1000);
		response = await send();
	}

	const parsed = parseBody(response.body);
	const ok = response.statusCode >= 200 && response.statusCode < 300;
	if (
		!ok ||
		typeof parsed !== 'object' ||
		parsed === null ||
		(parsed as IDataObject).status !== true
	) {
		const error = errorFromResponse(this.getNode(), { ...response, body: parsed }, summary);
		if (waits.length > 0) {
			error.description =
				`${error.description ?? ''} Asked ${waits.length + 1} times; waited ${waits.map((w) => `${w} s`).join(', ')} as the service asked.`.trim();
		}
		throw error;
	}
	return (parsed as IDataObject).data as IDataObject;
}

/** A payout, collection or swap as the service knows it now (`GET /api/v2/transactions/{id}`). */
export async function getTransaction(
	this: WalletContext,
	transactionId: string,
): Promise<IDataObject> {
	return await apiRequest.call(
		this,
		'GET',
		`/api/v2/transactions/${encodeURIComponent(transactionId)}`,
	);
}
