/*
 * Where a node's time goes, from a V8 CPU profile of an n8n process (BENCH_PROFILE=<folder>
 * npm run bench, or NODE_OPTIONS=--cpu-prof for any n8n command):
 *
 *   node bench/profile-summary.js <file.cpuprofile> [...]
 *
 * The window is the last stretch of samples with this package's code on the stack and no gap of
 * a second without it (so: a workflow whose last Wallet Payments node is the one of interest
 * gives that node's run; loading the package at start-up is an earlier stretch). In it: self
 * time by module
 * (this package, axios, Node's http/net, n8n-core, garbage collection, idle = waiting for the
 * network), the time with this package's code anywhere on the stack, and this package's
 * functions by self time.
 */
'use strict';

const fs = require('fs');

const OURS = 'n8n-nodes-wallet-payments';

function moduleOf(frame) {
	const { url, functionName } = frame;
	if (functionName === '(idle)') return '(idle: waiting)';
	if (!url) return `(${functionName || 'native'})`;
	if (url.includes(OURS)) return 'this package';
	const at = url.lastIndexOf('node_modules/');
	if (at >= 0) {
		const [scope, name] = url.slice(at + 'node_modules/'.length).split('/');
		return scope.startsWith('@') ? `${scope}/${name}` : scope;
	}
	if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
	return url;
}

function summarize(file) {
	const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const oursOnStack = new Map();
	const hasOurs = (id) => {
		if (!oursOnStack.has(id)) {
			let found = false;
			for (let at = id; at !== undefined && !found; at = parent.get(at)) found = byId.get(at).callFrame.url.includes(OURS);
			oursOnStack.set(id, found);
		}
		return oursOnStack.get(id);
	};
	const times = [];
	let time = profile.startTime;
	for (const delta of profile.timeDeltas) times.push((time += delta));
	const ours = profile.samples.map((id, index) => (hasOurs(id) ? index : -1)).filter((index) => index >= 0);
	if (ours.length === 0) return `${file}: no sample with ${OURS} on the stack`;
	const last = ours[ours.length - 1];
	let first = ours[0];
	for (let k = 1; k < ours.length; k++) if (times[ours[k]] - times[ours[k - 1]] > 1e6) first = ours[k];
	const self = {};
	const functions = {};
	let underOurs = 0;
	for (let i = first; i <= last; i++) {
		const dt = (times[i + 1] ?? times[i]) - times[i];
		const frame = byId.get(profile.samples[i]).callFrame;
		const name = moduleOf(frame);
		self[name] = (self[name] ?? 0) + dt;
		if (hasOurs(profile.samples[i])) underOurs += dt;
		if (name === 'this package') {
			const key = `${frame.functionName || '(anonymous)'} (${frame.url.split('/dist/')[1] ?? frame.url}:${frame.lineNumber + 1})`;
			functions[key] = (functions[key] ?? 0) + dt;
		}
	}
	const window = times[last] - times[first];
	const ms = (us) => `${(us / 1000).toFixed(1)} ms`;
	const top = (table, count) =>
		Object.entries(table)
			.sort((a, b) => b[1] - a[1])
			.slice(0, count)
			.map(([name, us]) => `    ${name.padEnd(48)} ${ms(us).padStart(10)}  ${((100 * us) / window).toFixed(1).padStart(5)} %`)
			.join('\n');
	return [
		`${file}`,
		`  window ${ms(window)}; this package's code anywhere on the stack: ${ms(underOurs)} (${((100 * underOurs) / window).toFixed(1)} %)`,
		'  self time by module:',
		top(self, 14),
		"  this package's functions, self time:",
		top(functions, 8),
	].join('\n');
}

const files = process.argv.slice(2);
if (files.length === 0) {
	process.stderr.write('Usage: node bench/profile-summary.js <file.cpuprofile> [...]\n');
	process.exit(2);
}
for (const file of files) process.stdout.write(`${summarize(file)}\n\n`);
