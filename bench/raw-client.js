/*
 * The "raw" side of the benchmark: what a hand-written client does, in its own process (as n8n
 * runs in its own), on the same Node as n8n. One keep-alive connection, one request at a time.
 *
 *   node bench/raw-client.js get   <baseUrl> <apiKey> <transactionId> <count>
 *   node bench/raw-client.js fresh <baseUrl> <apiKey> <transactionId> <count>  (a new connection
 *                                       per request, as n8n's HTTP client makes them)
 *   node bench/raw-client.js pages <baseUrl> <apiKey>            (every beneficiary, 100 a page)
 *   node bench/raw-client.js idle                                (baseline memory)
 *
 * Prints one JSON line: { ms, requests, records, maxRssKb }.
 */
'use strict';

const http = require('http');

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function getJson(url, apiKey, via = agent) {
	return new Promise((resolve, reject) => {
		const request = http.get(url, { agent: via, headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } }, (response) => {
			const chunks = [];
			response.on('data', (chunk) => chunks.push(chunk));
			response.on('end', () => {
				try {
					const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
					if (response.statusCode !== 200 || body.status !== true) {
						reject(new Error(`GET ${url}: ${response.statusCode} ${JSON.stringify(body).slice(0, 200)}`));
					} else resolve(body.data);
				} catch (error) {
					reject(error);
				}
			});
			response.on('error', reject);
		});
		request.on('error', reject);
	});
}

async function main() {
	const [mode, baseUrl, apiKey, ...rest] = process.argv.slice(2);
	const started = process.hrtime.bigint();
	let requests = 0;
	const records = [];
	if (mode === 'get') {
		const [id, count] = rest;
		for (let i = 0; i < Number(count); i++) {
			records.push(await getJson(`${baseUrl}/api/v2/transactions/${encodeURIComponent(id)}`, apiKey));
			requests++;
		}
	} else if (mode === 'fresh') {
		const [id, count] = rest;
		for (let i = 0; i < Number(count); i++) {
			const fresh = new http.Agent({ keepAlive: false });
			records.push(await getJson(`${baseUrl}/api/v2/transactions/${encodeURIComponent(id)}`, apiKey, fresh));
			requests++;
		}
	} else if (mode === 'pages') {
		let cursor;
		do {
			const query = new URLSearchParams({ limit: '100' });
			if (cursor) query.set('nextCursor', cursor);
			const page = await getJson(`${baseUrl}/api/v2/beneficiaries?${query}`, apiKey);
			requests++;
			records.push(...(page.data ?? []));
			cursor = page.meta && page.meta.hasNextPage !== false ? page.meta.nextCursor : undefined;
		} while (cursor);
	} else if (mode !== 'idle') {
		throw new Error(`Unknown mode ${mode}`);
	}
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	agent.destroy();
	process.stdout.write(
		`${JSON.stringify({ ms, requests, records: records.length, maxRssKb: process.resourceUsage().maxRSS })}\n`,
	);
}

main().catch((error) => {
	process.stderr.write(`${error.stack || error}\n`);
	process.exit(1);
});
