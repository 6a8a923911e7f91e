/** How the trigger answers a delivery, and how it learns n8n's answer to one it passed on. */
import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { AnswerReport } from './dedupe';

/** What n8n hands the node as the request: its raw bytes and parsed body. */
export interface WebhookRequest {
	rawBody?: Buffer | string;
	body?: unknown;
}

/** The parts of the response object used here; both Node's and Express's responses have them. */
interface WebhookResponse {
	writeHead(statusCode: number, headers: Record<string, string>): unknown;
	end(body: string): unknown;
	statusCode: number;
	once(event: 'finish' | 'close', listener: () => void): unknown;
}

/**
 * Answers the request without starting a run. Used for refusals (4xx/5xx): n8n's own answer
 * for `webhookResponse` always carries the webhook's 200. The body never holds a secret, a
 * received signature or a computed digest.
 */
export function refuse(
	context: IWebhookFunctions,
	code: number,
	message: string,
): IWebhookResponseData {
	const res = context.getResponseObject() as unknown as WebhookResponse;
	res.writeHead(code, { 'content-type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify({ code, message }));
	return { noWebhookResponse: true };
}

/**
 * Tells the admission how this delivery was answered: a 2xx only once the run exists (n8n's
 * answer, or the trigger's step where n8n answers before the run: startedAnswer.ts), so anything
 * but a 2xx (or a connection closed before the answer) means the run may not exist.
 */
export function reportAnswer(context: IWebhookFunctions, report: AnswerReport): void {
	const res = context.getResponseObject() as unknown as WebhookResponse;
	res.once('finish', () => report(res.statusCode >= 200 && res.statusCode < 300));
	res.once('close', () => report(false));
}

/** Answers 200 without starting a run (event not selected, duplicate delivery). */
export function acknowledge(
	reason: 'event not selected' | 'duplicate delivery',
): IWebhookResponseData {
	return { webhookResponse: { received: true, started: false, reason } };
}
