/*
 * The "raw" side of the benchmark: what a hand-written client does, in its own process (as n8n
 * runs in its own), on the same Node as n8n. Kept-alive connections unless --fresh.
 *
 *   node bench/raw-client.js get     <baseUrl> <apiKey> <transactionId> <count> [--concurrency=N] [--fresh]
 *        <count> Transaction Gets, N in flight at a time (default 1) over N kept-alive
 *        connections; --fresh: a new connection for every request, as n8n's HTTP client makes them
 *   node bench/raw-client.js fresh   <baseUrl> <apiKey> <transactionId> <count>   (= get --fresh)
 *   node bench/raw-client.js pages   <baseUrl> <apiKey>           (every beneficiary, 100 a page)
 *   node bench/raw-client.js idle                                (baseline memory)
 *
 * Before the clock starts, 20 untimed requests (query `warmup=1`, 10 at a time, on connections of
 * their own, closed before the clock starts) warm the process up, as the benchmark warms n8n up
 * with unmeasured nodes on 20 items.
 * An https:// base URL is served over TLS; trust its certificate with NODE_EXTRA_CA_CERTS.
 * Prints one JSON line: { ms, requests, records, maxRssKb } (the warm-up request not counted).
 */
'use strict';

const http = require('http');
const https = require('https');

const WARM_UP_REQUESTS = 20;
const WARM_UP_AT_ONCE = 10;

function clientFor(baseUrl) {
	return baseUrl.startsWith('https:') ? https : http;
}

function send(client, method, url, apiKey, agent) {
	return new Promise((resolve, reject) => {
		const headers = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
		const request = client.request(url, { method, agent, headers }, (response) => {
			const chunks = [];
			response.on('data', (chunk) => chunks.push(chunk));
			response.on('end', () => {
				try {
					const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
					if (response.statusCode !== 200 || parsed.status !== true) {
						reject(new Error(`${method} ${url}: ${response.statusCode} ${JSON.stringify(parsed).slice(0, 200)}`));
					} else resolve(parsed.data);
				} catch (error) {
					reject(error);
				}
			});
			response.on('error', reject);
		});
		request.on('error', reject);
		request.end();
	});
}

function flags(args) {
	const options = { concurrency: 1, fresh: false };
	const positional = [];
	for (const arg of args) {
		if (arg === '--fresh') options.fresh = true;
		else if (arg.startsWith('--concurrency=')) options.concurrency = Math.max(1, Number(arg.slice(14)) || 1);
		else positional.push(arg);
	}
	return { options, positional };
}

async function main() {
	const [mode, baseUrl, apiKey, ...rest] = process.argv.slice(2);
	const { options, positional } = flags(rest);
	if (mode === 'fresh') options.fresh = true;
	const client = baseUrl ? clientFor(baseUrl) : http;
	const agents = [];
	const keptAlive = (sockets) => {
		const agent = new client.Agent({ keepAlive: true, maxSockets: sockets });
		agents.push(agent);
		return agent;
	};
	if (!['get', 'fresh', 'pages', 'idle'].includes(mode)) throw new Error(`Unknown mode ${mode}`);
	if (mode !== 'idle') {
		const warm = new client.Agent({ keepAlive: true, maxSockets: WARM_UP_AT_ONCE });
		const warmPath = mode === 'pages' ? '/api/v2/beneficiaries?limit=100&warmup=1' : `/api/v2/transactions/${encodeURIComponent(positional[0])}?warmup=1`;
		await Promise.all(Array.from({ length: WARM_UP_REQUESTS }, () => send(client, 'GET', `${baseUrl}${warmPath}`, apiKey, warm)));
		warm.destroy();
	}
	const started = process.hrtime.bigint();
	let requests = 0;
	const records = [];
	if (mode === 'get' || mode === 'fresh') {
		const [id, count] = positional;
		const url = `${baseUrl}/api/v2/transactions/${encodeURIComponent(id)}`;
		const shared = options.fresh ? undefined : keptAlive(options.concurrency);
		const results = new Array(Number(count));
		let next = 0;
		const worker = async () => {
			while (next < results.length) {
				const index = next++;
				const agent = shared ?? new client.Agent({ keepAlive: false });
				results[index] = await send(client, 'GET', url, apiKey, agent);
				requests++;
			}
		};
		await Promise.all(Array.from({ length: Math.min(options.concurrency, results.length) }, worker));
		records.push(...results);
	} else if (mode === 'pages') {
		const agent = keptAlive(1);
		let cursor;
		do {
			const query = new URLSearchParams({ limit: '100' });
			if (cursor) query.set('nextCursor', cursor);
			const page = await send(client, 'GET', `${baseUrl}/api/v2/beneficiaries?${query}`, apiKey, agent);
			requests++;
			records.push(...(page.data ?? []));
			cursor = page.meta && page.meta.hasNextPage !== false ? page.meta.nextCursor : undefined;
		} while (cursor);
	}
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	for (const agent of agents) agent.destroy();
	process.stdout.write(
		`${JSON.stringify({ ms, requests, records: records.length, maxRssKb: process.resourceUsage().maxRSS })}\n`,
	);
}

main().catch((error) => {
	process.stderr.write(`${error.stack || error}\n`);
	process.exit(1);
});
