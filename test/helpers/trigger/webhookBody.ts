/** How n8n's webhook server reads a request's body (the trigger harness's part of it, triggerHarness.ts). */
import type http from 'http';
import { parse as parseQueryString } from 'querystring';

/** n8n's default N8N_PAYLOAD_SIZE_MAX (MiB). */
const PAYLOAD_SIZE_MAX = 16 * 1024 * 1024;
export type RawRequest = http.IncomingMessage & {
	rawBody: Buffer;
	body?: unknown;
	params: Record<string, string>;
	query: Record<string, unknown>;
};

function contentTypeOf(req: http.IncomingMessage): { type: string | undefined; encoding: BufferEncoding } {
	const header = req.headers['content-type'];
	if (!header) return { type: undefined, encoding: 'utf-8' };
	const [type, ...parameters] = header.split(';').map((part) => part.trim());
	const charset = parameters.find((p) => p.toLowerCase().startsWith('charset='))?.slice(8).toLowerCase();
	const encoding = charset && Buffer.isEncoding(charset) ? (charset as BufferEncoding) : 'utf-8';
	return { type: type.toLowerCase(), encoding };
}

export async function readBody(req: http.IncomingMessage): Promise<Buffer | 'too-large'> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > PAYLOAD_SIZE_MAX) return 'too-large';
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/** n8n's parseBody: sets req.body from rawBody by content type; throws when it cannot. */
export function parseBody(req: RawRequest): void {
	const { type, encoding } = contentTypeOf(req);
	req.contentType = type;
	req.encoding = encoding;
	if (!req.rawBody.length) return;
	const text = req.rawBody.toString(encoding);
	if (type === 'application/json') req.body = JSON.parse(text);
	else if (type === 'application/x-www-form-urlencoded') req.body = parseQueryString(text, undefined, undefined, { maxKeys: 1000 });
	else if (type === 'text/plain') req.body = text;
}

export function send(res: http.ServerResponse, status: number, data: unknown): void {
	const body = data === undefined ? '' : JSON.stringify(data);
	res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
	res.end(body);
}
