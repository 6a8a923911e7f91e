/**
 * A fan-out for webhook events: the sandbox delivers each event to one URL; the demo has several
 * published workflows with a Wallet Payments Trigger. The relay forwards every request, byte for
 * byte with its headers (the signature covers the raw body), to each target, and answers 200 only
 * when every target did (otherwise the first other status, so the sandbox retries; the triggers'
 * de-duplication absorbs the repeat at the targets that had accepted it).
 */
import http from 'http';
import type { AddressInfo } from 'net';

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export interface Relay {
	url: string;
	close(): Promise<void>;
}

export async function startRelay(targets: () => string[], options: { host?: string; port?: number } = {}): Promise<Relay> {
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(req.headers)) {
				if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers[name] = value;
			}
			void Promise.all(
				targets().map(async (url) => {
					try {
						const response = await fetch(url, {
							method: req.method,
							headers,
							body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
							signal: AbortSignal.timeout(10000),
						});
						await response.arrayBuffer();
						return response.status;
					} catch {
						return 502;
					}
				}),
			).then((statuses) => {
				const status = statuses.find((s) => s !== 200) ?? 200;
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ forwarded: statuses.length, statuses }));
			});
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/events`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
