/**
 * Runs `node <argv>` as a child (test/run-all.js, scripts/queue-proof.js): Ctrl-C and SIGTERM are
 * passed on to it until it closes, so that its own clean-up (n8n, PostgreSQL, Redis) runs.
 * `onChild` sees the child first (e.g. to collect its output). Resolves with how it ended.
 */
const { spawn } = require('child_process');

function runNode(argv, options, onChild) {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, argv, options);
		if (onChild) onChild(child);
		const forward = (signal) => child.kill(signal);
		process.on('SIGINT', forward);
		process.on('SIGTERM', forward);
		child.on('close', (code, signal) => {
			process.removeListener('SIGINT', forward);
			process.removeListener('SIGTERM', forward);
			resolve({ code, signal });
		});
	});
}

module.exports = { runNode };
