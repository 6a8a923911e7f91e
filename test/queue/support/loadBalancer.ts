/**
 * The load balancer of a real queue-mode set-up, in front of a QueueN8n (cluster.ts):
 * `/webhook/…` and `/webhook-waiting/…` go to the webhook processor `targetFor(true)` gives (the
 * next in turn), everything else to the main.
 */
import * as http from 'http';

import type { ClusterProcess } from './queueEnv';

export function loadBalancer(port: number, targetFor: (webhook: boolean) => ClusterProcess): { server: http.Server; listening: Promise<void> } {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
	// A webhook call gets a connection of its own: a kept-alive one that the webhook processor
	// closes at the moment it is reused fails the call (measured: a 502 in 360 calls), and a
	// load balancer cannot send a POST again.
	const webhookAgent = new http.Agent({ keepAlive: false, maxSockets: 512 });
	const server = http.createServer((req, res) => {
		const url = req.url ?? '/';
		const webhook = /^\/webhook(-waiting)?\//.test(url);
		const target = targetFor(webhook);
		const upstream = http.request(
			{ host: '127.0.0.1', port: target.port, method: req.method, path: url, headers: req.headers, agent: webhook ? webhookAgent : agent },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
			res.end(`proxy: ${target.name} unreachable (${error.message})`);
		});
		req.pipe(upstream);
	});
	const listening = new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	return { server, listening };
}
