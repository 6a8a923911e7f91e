/**
 * The response envelope: every JSON answer the sandbox writes goes through here.
 */
import type { ServerResponse } from 'http';
import { STATUS_CODES } from 'http';

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	sendRaw(res, status, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
}

export function sendRaw(
	res: ServerResponse,
	status: number,
	body: string,
	headers: Record<string, string>,
): void {
	if (res.writableEnded || res.destroyed) return;
	res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
	res.end(body);
}

export function sendSuccess(res: ServerResponse, message: string, data: unknown): void {
	sendJson(res, 200, { status: true, message, data });
}

export function failureBody(status: number, message?: string | string[]) {
	return { status: false, message: message ?? STATUS_CODES[status] ?? 'Error' };
}

export function sendFailure(res: ServerResponse, status: number, message: string | string[]): void {
	sendJson(res, status, failureBody(status, message));
}
