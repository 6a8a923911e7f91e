/*
 * Preloaded into n8n's processes by the benchmark (NODE_OPTIONS=--require): on exit, each
 * process writes its peak resident memory to BENCH_MAXRSS_DIR/<pid>.json.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const dir = process.env.BENCH_MAXRSS_DIR;
if (dir) {
	process.on('exit', () => {
		try {
			const record = { argv: process.argv.slice(1), maxRssKb: process.resourceUsage().maxRSS };
			fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(record));
		} catch {
			// the benchmark reports the figure as missing
		}
	});
}
