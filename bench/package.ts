/**
 * The package's figures (tarball size, runtime dependencies, cold `require` of the built node),
 * the node's default Items per Batch, and the commit measured.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { median, record, round, type BenchState } from './figures';
import { ROOT } from './settings';

export function packageFigures(state: BenchState): void {
	const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
	if (pack.status !== 0) throw new Error(`npm pack --dry-run failed:\n${pack.stderr}`);
	const [info] = JSON.parse(pack.stdout) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	const section = 'Package';
	record(state, {
		section,
		name: 'Package tarball size',
		value: round(info.size / 1024, 1),
		unit: 'KB',
		target: { max: 100, text: '≤ 100 KB' },
		note: `${info.entryCount} files, ${round(info.unpackedSize / 1024, 1)} KB unpacked`,
	});
	const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		dependencies?: Record<string, string>;
		bundleDependencies?: string[];
		bundledDependencies?: string[];
		peerDependencies?: Record<string, string>;
	};
	const runtime = [...Object.keys(manifest.dependencies ?? {}), ...(manifest.bundleDependencies ?? manifest.bundledDependencies ?? [])];
	record(state, {
		section,
		name: 'Runtime dependencies',
		value: runtime.length,
		unit: '',
		target: { max: 0, text: '0' },
		note: `${runtime.join(', ') || 'none'}; peer: ${Object.keys(manifest.peerDependencies ?? {}).join(', ') || 'none'} (n8n’s own)`,
	});
}

/**
 * A fresh Node process per run: n8n-workflow is loaded first (n8n has it loaded before it loads
 * any community node), then the clock runs around `require` of the built node module.
 */
export function coldRequire(state: BenchState, nodeBin: string, nodeLabel: string): void {
	const script = `
		require('n8n-workflow');
		const start = process.hrtime.bigint();
		require(${JSON.stringify(path.join(ROOT, 'dist', 'nodes', 'WalletPayments', 'WalletPayments.node.js'))});
		const node = Number(process.hrtime.bigint() - start) / 1e6;
		const start2 = process.hrtime.bigint();
		require(${JSON.stringify(path.join(ROOT, 'dist', 'nodes', 'WalletPaymentsTrigger', 'WalletPaymentsTrigger.node.js'))});
		require(${JSON.stringify(path.join(ROOT, 'dist', 'credentials', 'WalletPaymentsApi.credentials.js'))});
		const rest = Number(process.hrtime.bigint() - start2) / 1e6;
		process.stdout.write(JSON.stringify({ node, rest }));
	`;
	const runs: number[] = [];
	const rest: number[] = [];
	const count = Math.max(state.settings.runs, 9);
	for (let i = 0; i < count; i++) {
		const result = spawnSync(nodeBin, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
		if (result.status !== 0) throw new Error(`cold require failed:\n${result.stderr}`);
		const parsed = JSON.parse(result.stdout) as { node: number; rest: number };
		runs.push(round(parsed.node));
		rest.push(parsed.rest);
	}
	record(state, {
		section: 'Package',
		name: 'Cold require of WalletPayments.node.js',
		value: round(median(runs)),
		unit: 'ms',
		runs,
		target: { max: 20, text: '≤ 20 ms' },
		note: `${nodeLabel}, n8n-workflow already loaded; the trigger and the credential add ${round(median(rest))} ms`,
	});
}

/** The node's default Items per Batch, as built (dist), else as written in the source. */
export function defaultItemsPerBatch(): number {
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const fields = require(path.join(ROOT, 'dist', 'nodes', 'WalletPayments', 'input', 'batching.js')) as { DEFAULT_ITEMS_PER_BATCH?: number };
		if (typeof fields.DEFAULT_ITEMS_PER_BATCH === 'number') return fields.DEFAULT_ITEMS_PER_BATCH;
	} catch {
		// fall back to the source
	}
	const source = fs.readFileSync(path.join(ROOT, 'nodes', 'WalletPayments', 'input', 'batching.ts'), 'utf8');
	const match = /DEFAULT_ITEMS_PER_BATCH\s*=\s*(\d+)/.exec(source);
	if (!match) throw new Error('DEFAULT_ITEMS_PER_BATCH not found in dist or nodes/WalletPayments/input/batching.ts');
	return Number(match[1]);
}

/** The commit measured, and whether nodes/ or credentials/ had uncommitted changes. */
export function gitState(): { commit?: string; uncommittedNodeChanges?: boolean } {
	const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
	if (head.status !== 0) return {};
	const dirty = spawnSync('git', ['status', '--porcelain', '--', 'nodes', 'credentials'], { cwd: ROOT, encoding: 'utf8' });
	return { commit: head.stdout.trim(), uncommittedNodeChanges: dirty.status === 0 ? dirty.stdout.trim() !== '' : undefined };
}
