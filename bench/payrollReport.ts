/** The payroll part's figures, printed with the others, and the `payroll` key of results.json. */
import { spawnSync } from 'child_process';

import { isPayroll, median, medianOf, record, round, type BenchState } from './figures';
import type { gitState } from './package';
import type { ServiceStats } from './sandboxes';
import { SLOW_MS } from './settings';
import { N8N_MAX_DISPLAY_MB, PAYROLL_HTTP_BATCH, type PayrollRun, type PayrollVariant } from './payrollVariants';

/** The payroll figures (printed with the others) and the `payroll` key of results.json. */
export function payrollReport(
	state: BenchState,
	variants: PayrollVariant[],
	runs: Record<string, PayrollRun[]>,
	defaultBatch: number,
	nodeBin: string,
	n8nVersion: string,
	packedAt: ReturnType<typeof gitState>,
	seconds: number,
): Record<string, unknown> {
	const { payrollSizes, payrollSlowN, trial } = state.settings;
	const measured: Record<string, unknown> = {};
	const mb = (kb: number | undefined) => (kb === undefined ? undefined : round(kb / 1024, 0));
	for (const v of variants) {
		const r = runs[v.key];
		if (!r?.length) continue;
		const m = (pick: (s: ServiceStats) => number) => round(median(r.map((x) => pick(x.stats))), 0);
		const rss = r.map((x) => x.maxRssKb).filter((x): x is number => x !== undefined);
		measured[v.key] = {
			label: v.label,
			n: v.n,
			ms: round(medianOf(r), 0),
			msPerPayout: round(medianOf(r) / v.n, 2),
			runs: r.map((x) => x.ms),
			wallMs: round(median(r.map((x) => x.wallMs)), 0),
			maxRssMb: rss.length ? mb(median(rss)) : null,
			maxRssMbRuns: rss.map((x) => mb(x)),
			savedExecutionMb: round(median(r.map((x) => x.saved.dataBytes)) / 1024 ** 2, 1),
			paid: v.n,
			requests: m((s) => s.requests),
			connections: m((s) => s.connections),
			maxInFlight: m((s) => s.maxInFlight),
			serviceMs: m((s) => s.serviceMs),
		};
	}
	const get = (key: string) => measured[key] as { ms: number; msPerPayout: number; maxRssMb: number | null; maxInFlight: number; runs: number[]; n: number } | undefined;
	const runsNote = (key: string) => {
		const x = get(key);
		return x ? `${x.runs.length} run${x.runs.length === 1 ? '' : 's'}${x.runs.length > 1 ? ` (${x.runs.map((ms) => round(ms / x.n, 2)).join(', ')} ms per payout)` : ''}; at most ${x.maxInFlight} in flight` : '';
	};
	const fastSection = 'Payroll at 0 ms per answer: Payout → Initiate, n8n’s executionTime of the node / N';
	for (const n of payrollSizes) {
		const label = n.toLocaleString('en');
		const nodeKey = `fast.node.${n}`;
		const httpKey = `fast.http.${n}`;
		record(state, { section: fastSection, name: `${label}: this node, default batching (${defaultBatch} in flight)`, value: get(nodeKey)?.msPerPayout ?? null, unit: 'ms per payout', runs: get(nodeKey)?.runs, note: runsNote(nodeKey) });
		record(state, { section: fastSection, name: `${label}: HTTP Request node, Items per Batch ${PAYROLL_HTTP_BATCH}`, value: get(httpKey)?.msPerPayout ?? null, unit: 'ms per payout', runs: get(httpKey)?.runs, note: runsNote(httpKey) });
		for (const [key, who] of [
			[nodeKey, 'this node'],
			[httpKey, 'HTTP Request node'],
		] as const) {
			const x = measured[key] as { maxRssMb: number | null; maxRssMbRuns: number[]; savedExecutionMb: number } | undefined;
			const tooBig = x && x.savedExecutionMb > N8N_MAX_DISPLAY_MB ? `, more than n8n shows (EXECUTIONS_DATA_MAX_DISPLAY_SIZE, ${N8N_MAX_DISPLAY_MB} MB)` : '';
			record(state, {
				section: fastSection,
				name: `${label}: peak memory of n8n, ${who}`,
				value: x?.maxRssMb ?? null,
				unit: 'MB',
				note: x ? `peak RSS of \`n8n execute\` (runs: ${x.maxRssMbRuns.join(', ')} MB); n8n saved ${x.savedExecutionMb} MB of execution data${tooBig}` : '',
			});
		}
	}
	const slowSection = `Payroll at ${SLOW_MS} ms per answer: ${payrollSlowN.toLocaleString('en')} payouts`;
	for (const [key, name] of [
		['slow.node', `This node, default batching (${defaultBatch} in flight)`],
		['slow.nodeClaims', `This node, default batching, credential as created (claims across processes)`],
		['slow.node1', 'This node, one at a time (Items per Batch 1)'],
		['slow.http', `HTTP Request node, Items per Batch ${PAYROLL_HTTP_BATCH} (no interval)`],
		['slow.httpPaced', `HTTP Request node, Items per Batch ${PAYROLL_HTTP_BATCH}, Batch Interval ${SLOW_MS} ms`],
	] as const) {
		const x = get(key);
		record(state, { section: slowSection, name, value: x ? round(x.ms / 1000, 1) : null, unit: 's', runs: x?.runs, note: x ? `${x.msPerPayout} ms per payout; ${runsNote(key)}` : '' });
	}
	const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? null : round(a / b, 2));
	const [oneProcess, claims] = [get('slow.node'), get('slow.nodeClaims')];
	record(state, {
		section: slowSection,
		name: 'This node: credential as created (claims) / One Process Only',
		value: ratio(claims?.ms, oneProcess?.ms),
		unit: '×',
		note: claims && oneProcess ? `medians; the claims add ${round((claims.ms - oneProcess.ms) / 1000, 1)} s to the run` : '',
	});
	const targets = 'Payroll targets';
	const httpSlow = get('slow.http');
	const httpPaced = get('slow.httpPaced');
	record(state, {
		section: targets,
		name: `${SLOW_MS} ms: this node (${defaultBatch} in flight) / HTTP Request node, Items per Batch ${PAYROLL_HTTP_BATCH}`,
		value: ratio(get('slow.node')?.ms, httpSlow?.ms),
		unit: '×',
		target: { max: 1.2, text: '≤ 1.2×' },
		note: httpSlow ? `the HTTP Request node's Items per Batch without an interval bounds nothing: ${httpSlow.maxInFlight} in flight` : '',
	});
	record(state, {
		section: targets,
		name: `${SLOW_MS} ms: this node / HTTP Request node, ${PAYROLL_HTTP_BATCH} per batch every ${SLOW_MS} ms`,
		value: ratio(get('slow.node')?.ms, httpPaced?.ms),
		unit: '×',
		target: { max: 1.2, text: '≤ 1.2×' },
		note: httpPaced ? `paced to about ${PAYROLL_HTTP_BATCH} in flight (at most ${httpPaced.maxInFlight})` : '',
	});
	const small = Math.min(...payrollSizes);
	const big = Math.max(...payrollSizes);
	if (big !== small) {
		record(state, {
			section: targets,
			name: `0 ms: this node, ms per payout at ${big.toLocaleString('en')} / at ${small.toLocaleString('en')}`,
			value: ratio(get(`fast.node.${big}`)?.msPerPayout, get(`fast.node.${small}`)?.msPerPayout),
			unit: '×',
			target: { max: 1.5, text: '≤ 1.5×' },
		});
	}
	for (const n of payrollSizes) {
		record(state, {
			section: targets,
			name: `0 ms, ${n.toLocaleString('en')}: this node / HTTP Request node`,
			value: ratio(get(`fast.node.${n}`)?.ms, get(`fast.http.${n}`)?.ms),
			unit: '×',
			target: { max: 1.5, text: '≤ 1.5×' },
		});
	}
	return {
		environment: {
			date: new Date().toISOString(),
			...packedAt,
			n8n: n8nVersion,
			node: `Node ${spawnSync(nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim()} (n8n’s)`,
			defaultItemsPerBatch: defaultBatch,
			httpRequestBatching: { batchSize: PAYROLL_HTTP_BATCH, batchInterval: 0, pacedBatchIntervalMs: SLOW_MS },
			latencyMs: { fast: 0, slow: SLOW_MS },
			credential: { processes: 'one', asCreated: variants.filter((v) => v.endpoint.asCreated).map((v) => v.key) },
			runs: Object.fromEntries(variants.map((v) => [v.key, v.runs])),
			...(trial ? { trial: true } : {}),
			seconds: round(seconds, 0),
		},
		figures: state.figures.filter(isPayroll),
		method:
			'Manual Trigger → Code node (N items { row, amount }) → the measured node "Pay", a workflow with a fresh ID per run (the node’s store starts empty), one `n8n execute` per run; Pay is Payout → Initiate by saved beneficiary ID (one beneficiary), amount in minor units from the item, Duplicate Protection at its default, the credential One Process Only ("n8n Runs As") except in slow.nodeClaims (as a user creates it: no such field, so claims across processes), or the HTTP Request node POSTing the same body with the same credential. Time: n8n’s executionTime of Pay; memory: peak RSS of the `n8n execute` process. Every run checked in the sandbox: exactly N payouts, one per row, with the row’s amount. No warm-up (N ≥ 2,000). Medians of fewer runs than the rest of the bench (see runs) to keep the part short.',
		measurements: measured,
	};
}
