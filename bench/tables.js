/*
 * Every table the bench shows, from bench/results.json (what `npm run bench` wrote last): the one
 * place that formats its figures.
 *
 * - markdownTables(results): the tables of docs/performance.md, in Markdown (payrollTables: the
 *   Payroll ones alone).
 * - figureTables(figures, notes): the plain-text tables `npm run bench` prints when it is done
 *   (every figure with its median, target and notes, by section).
 *
 * As a command: node bench/tables.js [results.json] [--payroll | --figures]
 *
 * --payroll: only the Payroll tables (results.json's `payroll` key, from BENCH_ONLY=payroll).
 * --figures: the plain-text tables of every figure in results.json (the payroll part's included).
 */
'use strict';

const fs = require('fs');
const path = require('path');

const number = (value, digits = 0) =>
	value === undefined || value === null || Number.isNaN(value) ? '–' : value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const table = (header, rows) =>
	[`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

/** The Payroll tables (Markdown lines), from results.json's `payroll` key. */
function payrollTables(payroll, defaultItemsPerBatch = 10) {
	const lines = [];
	const p = payroll.measurements ?? {};
	const penv = payroll.environment ?? {};
	const inFlight = penv.defaultItemsPerBatch ?? defaultItemsPerBatch;
	const httpBatch = penv.httpRequestBatching?.batchSize ?? 10;
	const slowMs = penv.latencyMs?.slow ?? 100;
	const sizes = Object.keys(p)
		.map((key) => /^fast\.node\.(\d+)$/.exec(key)?.[1])
		.filter(Boolean)
		.map(Number)
		.sort((a, b) => a - b);
	const per = (key) => number(p[key]?.msPerPayout, 2);
	const mb = (key) => (p[key]?.maxRssMb == null ? '–' : `${number(p[key].maxRssMb)} MB`);
	const runs = (key) => number(p[key]?.runs?.length);
	const over = (a, b) => (p[a] && p[b] ? `${number(p[a].ms / p[b].ms, 2)}×` : '–');
	lines.push(
		`**Payroll**: Payout → Initiate to a saved beneficiary (by ID), the amount from each item, Duplicate Protection at its default, the credential's "n8n Runs As" One Process Only unless said, N items from a Code node; a new workflow per run (the node's store starts empty). Time: n8n's \`executionTime\` of the node, median of the runs; memory: peak RSS of \`n8n execute\`. Every run checked in the sandbox: exactly N payouts, one per item, each with its amount.\n`,
	);
	lines.push('At 0 ms per answer, ms per payout:\n');
	lines.push(
		table(
			['', ...sizes.map((n) => number(n))],
			[
				[`This node, default Batching (${inFlight} in flight)`, ...sizes.map((n) => per(`fast.node.${n}`))],
				[`HTTP Request node, Batching: Items per Batch ${httpBatch}`, ...sizes.map((n) => per(`fast.http.${n}`))],
				['This node / HTTP Request node', ...sizes.map((n) => over(`fast.node.${n}`, `fast.http.${n}`))],
				['Peak memory of n8n: this node', ...sizes.map((n) => mb(`fast.node.${n}`))],
				['Peak memory of n8n: HTTP Request node', ...sizes.map((n) => mb(`fast.http.${n}`))],
				['Runs', ...sizes.map((n) => runs(`fast.node.${n}`))],
			],
		),
	);
	const slowN = p['slow.node']?.n ?? p['slow.node1']?.n;
	if (slowN) {
		lines.push(`\nAt ${slowMs} ms per answer, ${number(slowN)} payouts:\n`);
		const row = (label, key) => [label, p[key] ? `${number(p[key].ms / 1000, 1)} s` : '–', p[key] ? `${per(key)} ms` : '–', number(p[key]?.maxInFlight), runs(key)];
		lines.push(
			table(
				['', 'Total', 'Per payout', 'At most in flight', 'Runs'],
				[
					row(`This node, default Batching (${inFlight} in flight)`, 'slow.node'),
					...(p['slow.nodeClaims'] ? [row('This node, default Batching, credential as created (claims across processes)', 'slow.nodeClaims'), ['Credential as created / One Process Only', over('slow.nodeClaims', 'slow.node'), '', '', '']] : []),
					row('This node, one at a time (Items per Batch 1)', 'slow.node1'),
					row(`HTTP Request node, Items per Batch ${httpBatch}`, 'slow.http'),
					row(`HTTP Request node, Items per Batch ${httpBatch}, Batch Interval ${penv.httpRequestBatching?.pacedBatchIntervalMs ?? slowMs} ms`, 'slow.httpPaced'),
				],
			),
		);
	}
	const targets = (payroll.figures ?? []).filter((f) => f.section === 'Payroll targets');
	if (targets.length) {
		lines.push('\n**Payroll targets** (reported, not enforced):\n');
		lines.push(
			table(
				['', 'Measured', 'Target', ''],
				targets.map((f) => [f.name, f.value == null ? '–' : `${number(f.value, 2)}×`, f.target?.text ?? '', f.value == null ? '?' : f.met ? '✔' : '✘']),
			),
		);
	}
	const load = penv.otherLoad;
	lines.push(
		`\n(${penv.date?.slice(0, 10)}, commit ${penv.commit}${penv.uncommittedNodeChanges ? ' plus node changes not committed when it was measured (bench/results.json: commitNote)' : ''}; n8n ${penv.n8n}, ${penv.node}; ${number(penv.seconds / 60, 1)} min${load ? `, of which ${number(load.waitedSeconds / 60, 1)} min waiting for other processes; they kept a median ${number(load.median * 100)} % of the CPUs busy before each run` : ''}${penv.trial ? '; BENCH_TRIAL: one run each, not medians' : ''}.)`,
	);
	return lines;
}

/** The tables of docs/performance.md, in Markdown, from results.json's content. */
function markdownTables(results) {
	const m = results.measurements ?? {};
	const env = results.environment ?? {};
	const batch = env.defaultItemsPerBatch ?? 10;
	const ms = (key) => number(m[key]?.ms);
	const ratio = (a, b) => (m[a] && m[b] ? number(m[a].ms / m[b].ms, 2) : '–');
	const figure = (section, name) => results.figures.find((f) => f.section.startsWith(section) && f.name.startsWith(name));
	const out = [];

	out.push(`**200 × Transaction → Get**, median ms (${env.runs} runs):\n`);
	out.push(
		table(
			['', '0 ms per answer', '100 ms', '50–150 ms'],
			[
				['This node, sequential (Items per Batch 1)', ms('node.get.fast.batch1'), ms('node.get.slow.batch1'), ''],
				[`This node, default batching (${batch} in flight)`, ms('node.get.fast.default'), ms('node.get.slow.default'), ms('node.get.jitter.default')],
				['HTTP Request node, same credential', ms('node.get.fast.http'), ms('node.get.slow.http'), ms('node.get.jitter.http')],
				['Raw client, sequential (one kept-alive connection)', ms('raw.get.fast.batch1'), ms('raw.get.slow.batch1'), ''],
				[`Raw client, ${batch} in flight (kept-alive)`, ms('raw.get.fast.default'), ms('raw.get.slow.default'), ms('raw.get.jitter.default')],
			],
		),
	);

	out.push('\n**Targets** (reported, not enforced), at 100 ms per answer:\n');
	const targets = results.figures.filter((f) => f.section.startsWith('Targets'));
	out.push(
		table(
			['', 'Measured', 'Target', ''],
			targets.map((f) => [f.name, `${number(f.value, f.unit === '×' && f.value >= 5 ? 1 : 2)}${f.unit === '×' ? '×' : ` ${f.unit}`}`, f.target.text, f.met ? '✔' : '✘']),
		),
	);

	out.push(`\n**Items per Batch**, 200 × Transaction → Get, median ms; the service's requests per second at 100 ms:\n`);
	const sweepKey = (latency, size) => (size === 1 ? `node.get.${latency}.batch1` : size === batch ? `node.get.${latency}.default` : `node.get.${latency}.batch${size}`);
	const rate = (key) => (m[key] ? number((m[key].requests * 1000) / m[key].ms, 0) : '–');
	out.push(
		table(
			['Items per Batch', '0 ms per answer', '100 ms', 'requests/s at 100 ms', 'in flight at 100 ms'],
			[
				...[1, 5, 10, 20, 50].map((size) => [
					`${size}${size === batch ? ' (default)' : ''}`,
					ms(sweepKey('fast', size)),
					ms(sweepKey('slow', size)),
					rate(sweepKey('slow', size)),
					number(m[sweepKey('slow', size)]?.maxInFlight),
				]),
				['HTTP Request node', ms('node.get.fast.http'), ms('node.get.slow.http'), rate('node.get.slow.http'), `up to ${number(m['node.get.slow.http']?.maxInFlight)}`],
			],
		),
	);

	out.push('\n**Return All** of beneficiaries, 100 per page, median ms:\n');
	const lists = [
		['fast1k', '1,000 at 0 ms'],
		['fast', '10,000 at 0 ms'],
		['slow1k', '1,000 at 100 ms'],
		['slow', '10,000 at 100 ms'],
	];
	out.push(
		table(
			['', ...lists.map(([, label]) => label)],
			[
				['This node', ...lists.map(([k]) => ms(`node.all.${k}`))],
				['Raw page loop (one kept-alive connection)', ...lists.map(([k]) => ms(`raw.all.${k}`))],
				['n8n’s transport alone, the same loop', ...lists.map(([k]) => (m[`transport.all.${k}`] ? ms(`transport.all.${k}`) : ''))],
				['This node / raw', ...lists.map(([k]) => `${ratio(`node.all.${k}`, `raw.all.${k}`)}×`)],
				['Requests: this node / raw', ...lists.map(([k]) => `${number(m[`node.all.${k}`]?.requests)} / ${number(m[`raw.all.${k}`]?.requests)}`)],
				['Connections: this node / raw', ...lists.map(([k]) => `${number(m[`node.all.${k}`]?.connections)} / ${number(m[`raw.all.${k}`]?.connections)}`)],
			],
		),
	);

	const pay = m['node.payouts.pay'];
	if (pay) {
		out.push('\n**100 payouts** (Payout → Initiate), 100 ms per answer, one after another in input order:\n');
		out.push(
			table(
				['', 'Median'],
				[
					['All 100', `${number(pay.ms)} ms`],
					['Per payout', `${number(pay.ms / pay.requests, 1)} ms`],
					['Per payout, not waiting for the service', `${number((pay.ms - pay.serviceMs) / pay.requests, 1)} ms`],
					['Requests / at most in flight', `${number(pay.requests)} / ${number(pay.maxInFlight)}`],
				],
			),
		);
	}

	const settle = m['node.payouts.settle'];
	if (settle) {
		const section = results.figures.find((f) => f.section.includes('waited to their final status'))?.section ?? '';
		const delay = /settled (\d+) s after/.exec(section)?.[1] ?? '5';
		out.push(`\n**100 payouts sent and waited to their final status** (Payout → Initiate with *Wait for Final Status*, its defaults), 100 ms per answer, each payout settled ${delay} s after it was sent:\n`);
		out.push(
			table(
				['', 'Median'],
				[
					['Wall time of the node (send all, then wait for all)', `${number(settle.ms / 1000, 1)} s`],
					['For comparison: the 100 payouts above, sent one after another, not waited for', pay ? `${number(pay.ms / 1000, 1)} s` : '–'],
					['Requests per payout (1 to send + status checks)', number(settle.requests / 100, 2)],
					['At most in flight', number(settle.maxInFlight)],
				],
			),
		);
	}

	out.push('\n**Connections**, 200 sequential Transaction → Get, 0 ms per answer, loopback, median ms:\n');
	const connRow = (label, key) => [
		label,
		ms(key.replace('$', 'fast')),
		ms(key.replace('$', 'tls')),
		`${number(m[key.replace('$', 'tls')]?.connections ?? m[key.replace('$', 'fast')]?.connections)}${m[key.replace('$', 'tls')]?.openAfter !== undefined ? ` (${number(m[key.replace('$', 'tls')].openAfter)} left open)` : ''}`,
	];
	out.push(
		table(
			['', 'HTTP', 'HTTPS', 'Connections'],
			[
				connRow('This node, sequential', 'node.get.$.batch1'),
				connRow('HTTP Request node', 'node.get.$.http'),
				connRow('Raw client, one kept-alive connection', 'raw.get.$.batch1'),
				connRow('Raw client, a new connection per request', 'raw.get.$.fresh'),
				connRow('n8n’s transport, the node’s request options', 'transport.get.$'),
				connRow('n8n’s transport + `agentOptions: { keepAlive: true }`', 'transport.get.$.keepAlive'),
			],
		),
	);
	const linkSection = results.figures.find((f) => f.section.includes('round-trip link'));
	if (linkSection) {
		const rtt = /(\d+) ms round-trip/.exec(linkSection.section)?.[1];
		out.push(`\n**Connections over a link with a ${rtt} ms round trip** (bench/link.ts), HTTPS, ${m['raw.get.link.batch1']?.requests} sequential Gets, 0 ms per answer, median ms:\n`);
		const per = (key) => number(m[key]?.ms / m[key]?.requests, 1);
		out.push(
			table(
				['', 'All', 'Per request', 'Connections'],
				[
					['This node, sequential', ms('node.get.link.batch1'), per('node.get.link.batch1'), number(m['node.get.link.batch1']?.connections)],
					['Raw client, one kept-alive connection', ms('raw.get.link.batch1'), per('raw.get.link.batch1'), number(m['raw.get.link.batch1']?.connections)],
					['Raw client, a new connection per request', ms('raw.get.link.fresh'), per('raw.get.link.fresh'), number(m['raw.get.link.fresh']?.connections)],
				],
			),
		);
	}

	if (results.payroll) out.push('', ...payrollTables(results.payroll, batch));

	out.push('\n**Package**:\n');
	const pkg = results.figures.filter((f) => f.section === 'Package');
	const mem = figure('Return All of 10,000 at 0 ms: peak memory', 'This node');
	out.push(
		table(
			['', 'Measured', 'Target', ''],
			[
				...pkg.map((f) => [f.name, `${number(f.value, f.unit === 'ms' ? 1 : f.unit === 'KB' ? 1 : 0)}${f.unit ? ` ${f.unit}` : ''}`, f.target?.text ?? '', f.target ? (f.met ? '✔' : '✘') : '']),
				...(mem ? [['Peak memory of Return All of 10,000 (`n8n execute`, above a one-record run; one run)', `${number(mem.value, 0)} MB`, '', '']] : []),
			],
		),
	);

	const load = env.otherLoad;
	out.push(
		`\n(${env.date?.slice(0, 10)}, commit ${env.commit}${env.uncommittedNodeChanges ? ' plus node changes not committed when it was measured (bench/results.json: commitNote)' : ''}; n8n ${env.n8n}, ${env.node}; ${env.cpus} × ${env.cpuModel}; ${number(env.benchSeconds / 60, 1)} min${load ? `, of which ${number(load.waitedSeconds / 60, 1)} min waiting for other processes` : ''}.)`,
	);
	return `${out.join('\n')}\n`;
}

/**
 * The plain-text tables `npm run bench` prints: one per section (in the order the figures were
 * measured), every figure with its median, target, whether it was met, and its notes; then the notes.
 */
function figureTables(figures, notes = []) {
	const header = ['Figure', 'Median', 'Target', '', 'Notes'];
	let text = '';
	for (const section of [...new Set(figures.map((f) => f.section))]) {
		const rows = figures
			.filter((f) => f.section === section)
			.map((figure) => [
				figure.name,
				figure.value === null ? 'n/a' : `${figure.value.toLocaleString('en')}${figure.unit ? ` ${figure.unit}` : ''}`,
				figure.target ? figure.target.text : '',
				figure.target ? (figure.value === null ? '?' : figure.met ? 'met' : 'MISSED') : '',
				figure.note ?? '',
			]);
		const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
		const line = (cells) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
		text += `\n${section}\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}\n`;
		for (const row of rows) text += `${line(row)}\n`;
	}
	for (const note of notes) text += `\nNote: ${note}\n`;
	return text;
}

module.exports = { markdownTables, payrollTables, figureTables };

if (require.main === module) {
	const args = process.argv.slice(2);
	const file = args.find((arg) => !arg.startsWith('--')) ?? path.join(__dirname, 'results.json');
	const results = JSON.parse(fs.readFileSync(file, 'utf8'));
	if (args.includes('--payroll')) {
		if (!results.payroll) throw new Error(`${file} has no payroll figures: run BENCH_ONLY=payroll npm run bench`);
		process.stdout.write(`${payrollTables(results.payroll, results.environment?.defaultItemsPerBatch ?? 10).join('\n')}\n`);
	} else if (args.includes('--figures')) {
		process.stdout.write(figureTables([...(results.figures ?? []), ...(results.payroll?.figures ?? [])], results.notes ?? []));
	} else {
		process.stdout.write(markdownTables(results));
	}
}
