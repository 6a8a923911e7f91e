/**
 * The HTTP server: request recording, failure injection (before processing, or after it for
 * 'after' rules), auth, JSON parsing, routing and the envelope. `/__sandbox/*` control
 * endpoints bypass recording, injection and auth.
 */
import http, { type IncomingMessage, type ServerResponse } from 'http';
import https from 'https';
import type { Socket } from 'net';

import type { SandboxContext } from './context';
import { sendFailure, sendSuccess } from './envelope';
import { ApiError, badRequest } from './errors';
import { applyFailure, type FailureRules } from './failures';
import { matchRoute, type Route } from './router';
import type { RecordedRequest, TlsOptions } from './types';
import { isObject, type JsonObject } from './validation';

export interface ServerParts {
	ctx: SandboxContext;
	routes: Route[];
	failures: FailureRules;
	requests: RecordedRequest[];
	/** Serves `/__sandbox/<name>`. */
	admin: (method: string, name: string, body: JsonObject) => Promise<{ message: string; data: unknown }>;
	/** Serve HTTPS with this key and certificate instead of plain HTTP. */
	tls?: TlsOptions;
}

export interface SandboxServer {
	server: http.Server | https.Server;
	/** Connections open right now (kept-alive idle ones included). */
	openConnections(): number;
	/** Stops listening, drops every open connection and pending timer. */
	close(): Promise<void>;
}

const ADMIN_PREFIX = '/__sandbox/';

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function tryParse(raw: string): unknown {
	try {
		return raw.trim() === '' ? undefined : JSON.parse(raw);
	} catch {
		return undefined;
	}
}

/** The request body as a JSON object; `{}` when empty. */
function parseObject(raw: string): JsonObject {
	if (raw.trim() === '') return {};
	let value: unknown;
	try {
		value = JSON.parse(raw);
	} catch {
		throw badRequest('Malformed JSON body');
	}
	if (!isObject(value)) throw badRequest(['Request body must be a JSON object']);
	return value;
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return headers;
}

function checkAuth(req: IncomingMessage, apiKey: string): void {
	const header = req.headers.authorization;
	if (!header || header.trim() === '') throw new ApiError(401, 'Authorization header is required');
	const match = /^Bearer\s+(.+)$/i.exec(header.trim());
	if (!match || match[1] !== apiKey) throw new ApiError(401, 'Invalid API key');
}

export function createSandboxServer(parts: ServerParts): SandboxServer {
	const { ctx, routes, failures, requests, admin } = parts;
	const sockets = new Set<Socket>();
	const timers = new Set<NodeJS.Timeout>();
	// Connection numbers, in the order connections brought their first request.
	const connectionIds = new WeakMap<object, number>();
	let connections = 0;
	const connectionOf = (socket: object) => {
		let id = connectionIds.get(socket);
		if (id === undefined) connectionIds.set(socket, (id = ++connections));
		return id;
	};

	const later = (ms: number, fn: () => void) => {
		const timer = setTimeout(() => {
			timers.delete(timer);
			fn();
		}, ms);
		timers.add(timer);
	};

	async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): Promise<void> {
		const method = (req.method ?? 'GET').toUpperCase();
		const path = url.pathname;
		const recorded: RecordedRequest = {
			method,
			path,
			query: Object.fromEntries(url.searchParams),
			headers: flatHeaders(req),
			rawBody: raw,
			body: tryParse(raw),
			at: ctx.config.now().toISOString(),
			startedMs: Date.now(),
			connection: connectionOf(req.socket),
		};
		requests.push(recorded);
		res.once('close', () => (recorded.finishedMs = Date.now()));
		const { fixedMs, jitterMs } = ctx.config.latency;
		const wait = fixedMs + Math.random() * jitterMs;
		if (wait > 0) await new Promise<void>((resolve) => later(wait, resolve));
		const before = failures.take('before', method, path);
		if (before) {
			applyFailure(before, req, res, later);
			return;
		}
		if (!path.startsWith('/api/')) throw new ApiError(404, `Cannot ${method} ${path}`);
		checkAuth(req, ctx.config.apiKey);
		const match = matchRoute(routes, method, path);
		if (!match) throw new ApiError(404, `Cannot ${method} ${path}`);
		const body = method === 'GET' ? {} : parseObject(raw);
		const result = match.route.handler(
			{ params: match.params, query: Object.fromEntries(url.searchParams), body },
			ctx,
		);
		// Taken only now: a request that threw above answered its own error and used no rule up.
		const after = failures.take('after', method, path);
		if (after) {
			// The service committed and goes on with its follow-up work whatever the client
			// hears (which may be nothing, for hang/destroy, so 'finish' cannot be relied on).
			if (result.afterResponse) later(0, result.afterResponse);
			applyFailure(after, req, res, later);
			return;
		}
		if (result.afterResponse) res.once('finish', result.afterResponse);
		sendSuccess(res, result.message, result.data);
	}

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		try {
			const url = new URL(req.url ?? '/', 'http://sandbox.local');
			const raw = await readBody(req);
			if (url.pathname.startsWith(ADMIN_PREFIX)) {
				const method = (req.method ?? 'GET').toUpperCase();
				const result = await admin(method, url.pathname.slice(ADMIN_PREFIX.length), parseObject(raw));
				sendSuccess(res, result.message, result.data);
				return;
			}
			await handleApi(req, res, url, raw);
		} catch (error) {
			if (error instanceof ApiError) {
				sendFailure(res, error.status, error.messages);
			} else {
				console.error('[sandbox] unexpected error', error);
				sendFailure(res, 500, 'Internal server error');
			}
		}
	}

	const listener = (req: IncomingMessage, res: ServerResponse) => void handle(req, res);
	const server = parts.tls ? https.createServer({ key: parts.tls.key, cert: parts.tls.cert }, listener) : http.createServer(listener);
	// For HTTPS too this is the TCP socket, so close() below drops TLS connections as well.
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});

	return {
		server,
		openConnections: () => sockets.size,
		close: () =>
			new Promise<void>((resolve) => {
				for (const timer of timers) clearTimeout(timer);
				timers.clear();
				server.close(() => resolve());
				for (const socket of sockets) socket.destroy();
			}),
	};
}
