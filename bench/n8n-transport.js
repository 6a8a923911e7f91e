/*
 * n8n's own HTTP transport without the rest of n8n: the `httpRequest` function of
 * @n8n/backend-network in the n8n install, which `this.helpers.httpRequestWithAuthentication`
 * ends in (n8n-core 2.41.1: authentication.js → OutboundHttp.requests().request → httpRequest),
 * called with the request options this package's node passes (transport/request.ts) and the
 * Authorization header its credential adds. SSRF protection is off, as it is by default.
 * Used to measure what n8n's transport costs per request and whether a request option
 * (`agentOptions`) makes it reuse connections.
 *
 *   node bench/n8n-transport.js <n8n node_modules> get   <baseUrl> <apiKey> <transactionId> <count> [--agent-options=<json>]
 *   node bench/n8n-transport.js <n8n node_modules> pages <baseUrl> <apiKey> [--agent-options=<json>]
 *
 * 20 untimed requests (query `warmup=1`) come first. Prints one JSON line: { ms, requests,
 * records }, then waits for its standard input to close before it exits, so the caller can count
 * the connections still open at the server (kept-alive connections nothing will use again).
 */
'use strict';

const path = require('path');

async function main() {
	const [modules, mode, baseUrl, apiKey, ...rest] = process.argv.slice(2);
	const { httpRequest } = require(path.join(modules, '@n8n', 'backend-network', 'dist', 'http', 'axios', 'request.js'));
	const agentArg = rest.find((arg) => arg.startsWith('--agent-options='));
	const agentOptions = agentArg ? JSON.parse(agentArg.slice('--agent-options='.length)) : undefined;
	const positional = rest.filter((arg) => !arg.startsWith('--'));
	// What apiRequest (transport/request.ts) builds, with the credential's header applied.
	const request = async (endpoint, qs, withAgentOptions = true) => {
		const options = {
			method: 'GET',
			url: `${baseUrl}${endpoint}`,
			headers: { accept: 'application/json', Authorization: `Bearer ${apiKey}` },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 60000,
		};
		if (qs) options.qs = qs;
		if (agentOptions && withAgentOptions) options.agentOptions = agentOptions;
		const response = await httpRequest(options, undefined);
		if (response.statusCode !== 200 || response.body?.status !== true) {
			throw new Error(`GET ${endpoint}: ${response.statusCode} ${JSON.stringify(response.body).slice(0, 200)}`);
		}
		return response.body.data;
	};
	if (mode !== 'get' && mode !== 'pages') throw new Error(`Unknown mode ${mode}`);
	// 20 untimed requests first (query warmup=1, 10 at a time), as raw-client.js does; without
	// agentOptions, so that their connections do not stay open.
	for (let batch = 0; batch < 2; batch++) {
		await Promise.all(
			Array.from({ length: 10 }, () =>
				request(mode === 'pages' ? '/api/v2/beneficiaries' : `/api/v2/transactions/${encodeURIComponent(positional[0])}`, mode === 'pages' ? { limit: 100, warmup: 1 } : { warmup: 1 }, false),
			),
		);
	}
	const started = process.hrtime.bigint();
	let requests = 0;
	const records = [];
	if (mode === 'get') {
		const [id, count] = positional;
		for (let i = 0; i < Number(count); i++) {
			records.push(await request(`/api/v2/transactions/${encodeURIComponent(id)}`));
			requests++;
		}
	} else if (mode === 'pages') {
		let cursor;
		do {
			const qs = { limit: 100 };
			if (cursor) qs.nextCursor = cursor;
			const page = await request('/api/v2/beneficiaries', qs);
			requests++;
			records.push(...(page.data ?? []));
			cursor = page.meta && page.meta.hasNextPage !== false ? page.meta.nextCursor : undefined;
		} while (cursor);
	} else {
		throw new Error(`Unknown mode ${mode}`);
	}
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	process.stdout.write(`${JSON.stringify({ ms, requests, records: records.length })}\n`);
	process.stdin.resume();
	process.stdin.on('end', () => process.exit(0));
}

main().catch((error) => {
	process.stderr.write(`${error.stack || error}\n`);
	process.exit(1);
});
