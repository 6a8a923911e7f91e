/**
 * The figures of the n8n and raw-client parts, from their runs (medians, ratios, targets), and
 * results.json's `measurements` key: every measured variant by key, which bench/tables.js renders
 * the README's tables from.
 */
import type { Link } from './link';
import { median, medianOf, record, round, type BenchState } from './figures';
import type { N8nResults } from './n8n';
import type { ServiceStats } from './sandboxes';
import { GETS, JITTER, LARGE, LINK_GETS, PAYOUTS, SETTLE_DELAY_MS, SLOW_MS, SMALL, SWEEP } from './settings';

function statsNote(runs: Array<{ stats: ServiceStats }> | undefined): string {
	if (!runs?.length) return '';
	const m = (pick: (s: ServiceStats) => number) => round(median(runs.map((r) => pick(r.stats))), 0);
	return `${m((s) => s.requests)} requests, ${m((s) => s.connections)} connections, at most ${m((s) => s.maxInFlight)} in flight`;
}

export function reportFigures(state: BenchState, n8n: N8nResults | undefined, defaultBatch: number, idleRssKb: number, link: Link | undefined): void {
	const { rawRuns } = state;
	const node = (key: string) => n8n?.runs[key];
	const add = (section: string, name: string, runs: Array<{ ms: number; stats: ServiceStats }> | undefined, note?: string) =>
		record(state, { section, name, value: runs?.length ? round(medianOf(runs), 0) : null, unit: 'ms', runs: runs?.map((r) => round(r.ms, 1)), note: [statsNote(runs), note].filter(Boolean).join('; ') });
	const ratio = (a: number, b: number) => round(a / b);

	const latencies: Array<['fast' | 'slow' | 'jitter', string]> = [
		['fast', '0 ms'],
		['slow', `${SLOW_MS} ms`],
		['jitter', `${JITTER.fixedMs}–${JITTER.fixedMs + JITTER.jitterMs} ms`],
	];
	for (const [key, latency] of latencies) {
		const section = `${GETS} × Transaction → Get, ${latency} per answer`;
		if (key !== 'jitter') add(section, 'This node, sequential (Items per Batch 1)', node(`get.${key}.batch1`));
		add(section, `This node, default batching (Items per Batch ${defaultBatch})`, node(`get.${key}.default`));
		add(section, 'HTTP Request node, same credential', node(`get.${key}.http`));
		if (key !== 'jitter') add(section, 'Raw client, sequential (1 kept-alive connection)', rawRuns[`raw.get.${key}.batch1`]);
		add(section, `Raw client, ${defaultBatch} in flight (${defaultBatch} kept-alive connections)`, rawRuns[`raw.get.${key}.default`]);
		if (key === 'fast') add(section, 'explains: this node, sequential, fixed ID (no expression)', node('get.fast.batch1.fixedId'), 'the difference to sequential is n8n’s evaluation of {{ $json.<field> }}');
	}
	if (n8n) {
		const section = `Targets at ${SLOW_MS} ms per answer`;
		const seq = medianOf(node('get.slow.batch1'));
		const def = medianOf(node('get.slow.default'));
		record(state, { section, name: 'Default batching: speed-up over sequential', value: round(seq / def, 1), unit: '×', target: { min: 5, text: '≥ 5×' } });
		record(state, { section, name: `Default batching / raw client with ${defaultBatch} in flight`, value: ratio(def, medianOf(rawRuns['raw.get.slow.default'])), unit: '×', target: { max: 1.2, text: '≤ 1.2' } });
		record(state, { section, name: 'Default batching / HTTP Request node', value: ratio(def, medianOf(node('get.slow.http'))), unit: '×', target: { max: 1.0, text: '≤ 1.0' } });
		record(state, { section, name: `Return All of ${LARGE.toLocaleString('en')} / raw page loop`, value: ratio(medianOf(node('all.slow')), medianOf(rawRuns['raw.all.slow'])), unit: '×', target: { max: 1.2, text: '≤ 1.2' } });
		record(state, { section, name: `Return All of ${SMALL.toLocaleString('en')} / raw page loop`, value: ratio(medianOf(node('all.slow1k')), medianOf(rawRuns['raw.all.slow1k'])), unit: '×', target: { max: 1.2, text: '≤ 1.2' } });
	}

	for (const [key, latency] of latencies.slice(0, 2)) {
		const section = `Items per Batch, ${GETS} × Transaction → Get, ${latency} per answer`;
		for (const size of SWEEP) {
			const runs = node(size === 1 ? `get.${key}.batch1` : size === defaultBatch ? `get.${key}.default` : `get.${key}.batch${size}`);
			add(section, `Items per Batch ${size}${size === defaultBatch ? ' (default)' : ''}`, runs, runs?.length && key === 'slow' ? `${round(medianOf(runs) / medianOf(node('get.slow.http')), 2)} × the HTTP Request node` : undefined);
		}
	}

	for (const [key, small, latency] of [
		['fast', 'fast1k', '0 ms'],
		['slow', 'slow1k', `${SLOW_MS} ms`],
	] as const) {
		const section = `Return All of beneficiaries (100 per page), ${latency} per answer`;
		for (const [k, count] of [
			[small, SMALL],
			[key, LARGE],
		] as const) {
			const label = count.toLocaleString('en');
			const nodeRuns = node(`all.${k}`);
			const raw = rawRuns[`raw.all.${k}`];
			const transport = rawRuns[`transport.all.${k}`];
			add(section, `${label}: this node`, nodeRuns);
			add(section, `${label}: raw page loop (1 kept-alive connection)`, raw);
			if (transport) add(section, `${label}: n8n’s transport, the same loop`, transport, 'bench/n8n-transport.js: n8n’s httpRequest without the rest of n8n');
			if (nodeRuns?.length && raw?.length) {
				const perPage = (medianOf(nodeRuns) - medianOf(raw)) / (count / 100);
				record(state, { section, name: `${label}: this node / raw`, value: ratio(medianOf(nodeRuns), medianOf(raw)), unit: '×', note: `${round(perPage, 1)} ms more per page of 100` });
			}
		}
	}

	if (n8n) {
		const section = `${PAYOUTS} payouts (Payout → Initiate), ${SLOW_MS} ms per answer`;
		const runs = node('payouts.pay');
		add(section, 'This node: one after another, in input order', runs, 'every run checked: all sent, outputs paired in input order, one request at a time in input order');
		if (runs?.length) {
			const service = median(runs.map((r) => r.stats.serviceMs));
			record(state, { section, name: 'per payout', value: round(medianOf(runs) / PAYOUTS, 1), unit: 'ms', note: `${round((medianOf(runs) - service) / PAYOUTS, 1)} ms of it not waiting for the service` });
		}
	}

	if (n8n) {
		const section = `${PAYOUTS} payouts sent and waited to their final status, ${SLOW_MS} ms per answer, settled ${SETTLE_DELAY_MS / 1000} s after sending`;
		const runs = node('payouts.settle');
		add(section, 'This node: Payout → Initiate with Wait for Final Status (defaults)', runs, 'every run checked: all settled (success), outputs paired in input order');
		if (runs?.length) {
			record(state, { section, name: 'Requests per payout', value: round(median(runs.map((r) => r.stats.requests)) / PAYOUTS, 2), unit: '', note: '1 to send + the status checks (Transaction → Get); the waits run together after the last payout is sent' });
			record(state, { section, name: 'Wall time minus sending one by one', value: round((medianOf(runs) - medianOf(node('payouts.pay'))) / 1000, 1), unit: 's', note: `the settlement delay is ${SETTLE_DELAY_MS / 1000} s; the first check comes 5 s after the last payout is sent` });
		}
	}

	{
		const section = `Connection cost: ${GETS} sequential Transaction → Get, 0 ms per answer (loopback)`;
		for (const [key, scheme] of [
			['fast', 'HTTP'],
			['tls', 'HTTPS'],
		] as const) {
			if (!rawRuns[`raw.get.${key}.batch1`]) continue;
			add(section, `${scheme}: this node, sequential`, node(`get.${key}.batch1`));
			add(section, `${scheme}: HTTP Request node`, node(`get.${key}.http`));
			add(section, `${scheme}: raw client, one kept-alive connection`, rawRuns[`raw.get.${key}.batch1`]);
			add(section, `${scheme}: raw client, a new connection per request`, rawRuns[`raw.get.${key}.fresh`]);
			add(section, `${scheme}: n8n’s transport, the node’s request options`, rawRuns[`transport.get.${key}`]);
			const keepAlive = rawRuns[`transport.get.${key}.keepAlive`];
			add(section, `${scheme}: n8n’s transport + agentOptions: { keepAlive: true }`, keepAlive, keepAlive?.length ? `${round(median(keepAlive.map((r) => r.openAfter ?? 0)), 0)} connections still open (idle) at the service after the last answer` : undefined);
		}
		const perRequest = (fresh: string, kept: string) => round((medianOf(rawRuns[fresh]) - medianOf(rawRuns[kept])) / GETS, 2);
		record(state, { section, name: 'A new HTTP connection per request costs (raw client)', value: perRequest('raw.get.fast.fresh', 'raw.get.fast.batch1'), unit: 'ms', note: 'per request: new connection minus kept-alive; loopback: CPU only, no round trips' });
		if (rawRuns['raw.get.tls.batch1']) {
			record(state, { section, name: 'A new HTTPS connection per request costs (raw client)', value: perRequest('raw.get.tls.fresh', 'raw.get.tls.batch1'), unit: 'ms', note: 'TLS 1.3, RSA 2048 certificate, both ends on this machine; CPU only, no round trips' });
			record(state, { section, name: 'This node: HTTPS minus HTTP, per request', value: round((medianOf(node('get.tls.batch1')) - medianOf(node('get.fast.batch1'))) / GETS, 2), unit: 'ms', note: 'n8n opens a new connection for every request' });
		}
	}
	if (link && rawRuns['raw.get.link.batch1']) {
		const section = `Connection cost: ${LINK_GETS} sequential Transaction → Get over HTTPS through a ${link.roundTripMs} ms round-trip link, 0 ms per answer`;
		add(section, 'This node, sequential', node('get.link.batch1'));
		add(section, 'Raw client, one kept-alive connection', rawRuns['raw.get.link.batch1']);
		add(section, 'Raw client, a new connection per request', rawRuns['raw.get.link.fresh']);
		const perRequest = (medianOf(rawRuns['raw.get.link.fresh']) - medianOf(rawRuns['raw.get.link.batch1'])) / LINK_GETS;
		record(state, { section, name: 'A new HTTPS connection per request costs (raw client)', value: round(perRequest, 1), unit: 'ms', note: `${round(perRequest / link.roundTripMs, 1)} round trips: TCP handshake + TLS 1.3 handshake, and the TLS work` });
	}
	if (n8n?.rss['memory.all'] !== undefined && n8n.rss['memory.one'] !== undefined) {
		const section = `Return All of ${LARGE.toLocaleString('en')} at 0 ms: peak memory (one run)`;
		record(state, { section, name: 'This node in n8n', value: round((n8n.rss['memory.all'] - n8n.rss['memory.one']) / 1024, 1), unit: 'MB', note: `peak RSS of \`n8n execute\` above a one-record run (${round(n8n.rss['memory.one'] / 1024, 0)} MB)` });
		const rawRss = median((rawRuns['raw.all.fast'] ?? []).map((r) => (r.maxRssKb ?? 0) - idleRssKb)) / 1024;
		record(state, { section, name: 'Raw page loop', value: round(Math.max(0, rawRss), 1), unit: 'MB', note: rawRss < 0.5 ? 'peak RSS above the idle client: below what can be measured (0.5 MB)' : 'peak RSS above the idle client' });
	}
}

/**
 * Every measured variant by key (get.slow.default, raw.get.slow.default, …): median, runs and what
 * the service saw (medians). bench/tables.js renders the README's tables from these.
 */
export function measurements(state: BenchState, n8n: N8nResults | undefined): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	const put = (key: string, runs: Array<{ ms: number; stats: ServiceStats; openAfter?: number }>) => {
		const m = (pick: (s: ServiceStats) => number) => round(median(runs.map((r) => pick(r.stats))), 0);
		out[key] = {
			ms: round(medianOf(runs), 0),
			runs: runs.map((r) => round(r.ms, 1)),
			requests: m((s) => s.requests),
			connections: m((s) => s.connections),
			maxInFlight: m((s) => s.maxInFlight),
			serviceMs: m((s) => s.serviceMs),
			...(runs[0]?.openAfter !== undefined ? { openAfter: round(median(runs.map((r) => r.openAfter ?? 0)), 0) } : {}),
		};
	};
	for (const [key, runs] of Object.entries(n8n?.runs ?? {})) put(`node.${key}`, runs);
	for (const [key, runs] of Object.entries(state.rawRuns)) put(key, runs);
	return out;
}
