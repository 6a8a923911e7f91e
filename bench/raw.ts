/**
 * The raw clients: bench/raw-client.js (a hand-written loop) and bench/n8n-transport.js (n8n's
 * transport alone), each in its own process on n8n's Node, against the same sandboxes as n8n.
 */
import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';

import type { Sandbox } from '../tooling/sandbox';
import { log, median, quiet, type BenchState, type RawResult } from './figures';
import { newTransaction, notWarmUp, serviceStats, type Endpoint, type EndpointKey } from './sandboxes';
import { GETS, LARGE, LINK_GETS, ROOT, SMALL } from './settings';

/**
 * Runs bench/raw-client.js or bench/n8n-transport.js in its own process on n8n's Node,
 * asynchronously (the sandboxes answer from this process).
 */
async function client(nodeBin: string, script: string, args: string[], sandbox: Sandbox | undefined, ca: string | undefined): Promise<RawResult> {
	sandbox?.clearRequests();
	const holds = script === 'n8n-transport.js';
	const child: ChildProcess = spawn(nodeBin, [path.join(ROOT, 'bench', script), ...args], {
		stdio: [holds ? 'pipe' : 'ignore', 'pipe', 'pipe'],
		// This machine's NODE_EXTRA_CA_CERTS (if any) is replaced: only the bench's certificate.
		env: { ...process.env, NODE_EXTRA_CA_CERTS: ca ?? '' },
	});
	let stdout = '';
	let stderr = '';
	let openAfter: number | undefined;
	const firstLine = new Promise<void>((resolve) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			if (stdout.includes('\n')) resolve();
		});
	});
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const closed = new Promise<number | null>((resolve, reject) => {
		child.once('error', reject);
		child.once('close', resolve);
	});
	if (holds) {
		// The client waits for its stdin to close: count what is still open at the service first.
		await Promise.race([firstLine, closed]);
		await new Promise((resolve) => setTimeout(resolve, 200));
		openAfter = sandbox?.openConnections();
		child.stdin!.end();
	}
	const code = await closed;
	if (code !== 0) throw new Error(`${script} ${args.join(' ')} exited ${code}:\n${stderr}`);
	const result = JSON.parse(stdout.trim().split('\n').pop()!) as Omit<RawResult, 'stats'>;
	const requests = (sandbox?.requests ?? []).filter(notWarmUp);
	sandbox?.clearRequests();
	return { ...result, stats: serviceStats(requests), openAfter };
}

/** One run of every raw client (after each round of n8n executions, so they interleave). */
export async function rawRound(state: BenchState, nodeBin: string, n8nModules: string | undefined, endpoints: Partial<Record<EndpointKey, Endpoint>>, defaultBatch: number, run: number): Promise<void> {
	await quiet(state, `raw clients, run ${run + 1}`);
	log(state, `raw clients, run ${run + 1}/${state.settings.runs}`);
	const keep = (key: string, result: RawResult, requests: number, records?: number) => {
		if (result.requests !== requests || result.stats.requests !== requests) throw new Error(`${key}: ${result.requests} requests (the service saw ${result.stats.requests}), expected ${requests}`);
		if (records !== undefined && result.records !== records) throw new Error(`${key}: ${result.records} records, expected ${records}`);
		(state.rawRuns[key] ??= []).push(result);
	};
	for (const e of Object.values(endpoints)) {
		if (!e || !['fast', 'slow', 'jitter', 'tls', 'link'].includes(e.key)) continue;
		const id = await newTransaction(e);
		const count = e.key === 'link' ? LINK_GETS : GETS;
		const get = (extra: string[]) => client(nodeBin, 'raw-client.js', ['get', e.url, e.sandbox.apiKey, id, String(count), ...extra], e.sandbox, e.ca);
		if (e.key !== 'jitter') keep(`raw.get.${e.key}.batch1`, await get([]), count);
		if (e.key !== 'link') keep(`raw.get.${e.key}.default`, await get([`--concurrency=${defaultBatch}`]), count);
		if (e.key === 'fast' || e.key === 'tls' || e.key === 'link') {
			keep(`raw.get.${e.key}.fresh`, await get(['--fresh']), count);
			if (n8nModules) {
				const transport = (extra: string[]) => client(nodeBin, 'n8n-transport.js', [n8nModules, 'get', e.url, e.sandbox.apiKey, id, String(count), ...extra], e.sandbox, e.ca);
				if (e.key !== 'link') {
					keep(`transport.get.${e.key}`, await transport([]), count);
					keep(`transport.get.${e.key}.keepAlive`, await transport(['--agent-options={"keepAlive":true}']), count);
				}
			}
		}
	}
	for (const [key, records] of [
		['fast1k', SMALL],
		['fast', LARGE],
		['slow1k', SMALL],
		['slow', LARGE],
	] as const) {
		const e = endpoints[key];
		if (!e) continue;
		keep(`raw.all.${key}`, await client(nodeBin, 'raw-client.js', ['pages', e.url, e.sandbox.apiKey], e.sandbox, undefined), records / 100, records);
		// n8n's transport alone, at 0 ms only (at 100 ms the service's time hides it).
		if (n8nModules && (key === 'fast' || key === 'fast1k')) {
			keep(`transport.all.${key}`, await client(nodeBin, 'n8n-transport.js', [n8nModules, 'pages', e.url, e.sandbox.apiKey], e.sandbox, undefined), records / 100, records);
		}
	}
}

export async function rawIdle(nodeBin: string): Promise<number> {
	const idles: number[] = [];
	for (let run = 0; run < 3; run++) idles.push((await client(nodeBin, 'raw-client.js', ['idle'], undefined, undefined)).maxRssKb ?? 0);
	return median(idles);
}
