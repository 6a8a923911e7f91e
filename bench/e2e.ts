/** The e2e harness (tooling/n8n) as the bench loads it, and an n8n that measures its own memory. */
import * as fs from 'fs';
import * as path from 'path';

import { ROOT, type Settings } from './settings';

export type E2E = {
	install: typeof import('../tooling/n8n/install');
	n8n: typeof import('../tooling/n8n/n8n');
	workflow: typeof import('../tooling/n8n/workflow');
};

export function e2eAvailable(): boolean {
	return (
		fs.existsSync(path.join(ROOT, 'scripts', 'n8n-install.js')) &&
		fs.existsSync(path.join(ROOT, 'tooling', 'n8n', 'n8n.ts')) &&
		fs.existsSync(path.join(ROOT, 'tooling', 'n8n', 'workflow.ts'))
	);
}

export async function loadE2E(): Promise<E2E> {
	return {
		install: await import('../tooling/n8n/install'),
		n8n: await import('../tooling/n8n/n8n'),
		workflow: await import('../tooling/n8n/workflow'),
	};
}

export type WorkflowNode = import('../tooling/n8n/workflow').WorkflowNode;
export type WorkflowJson = import('../tooling/n8n/n8n').WorkflowJson;
export type OutputItem = { json: Record<string, unknown>; pairedItem?: unknown };

/**
 * An n8n with the packed package (packed into `pack<suffix>`), each process's peak memory written
 * to `maxrss<suffix>` (bench/maxrss.js), and a CPU profile with BENCH_PROFILE.
 */
export async function measuredN8n(e2e: E2E, settings: Settings, workDir: string, suffix: string, env: Record<string, string> = {}) {
	const tarball = e2e.n8n.packPackage(path.join(workDir, `pack${suffix}`));
	const rssDir = path.join(workDir, `maxrss${suffix}`);
	fs.mkdirSync(rssDir, { recursive: true });
	const n8n = await e2e.n8n.N8n.create({
		parentDir: workDir,
		tarball,
		env: {
			NODE_OPTIONS: [
				`--require ${path.join(ROOT, 'bench', 'maxrss.js')}`,
				...(settings.profile ? [`--cpu-prof --cpu-prof-dir=${path.resolve(settings.profile)}`] : []),
			].join(' '),
			BENCH_MAXRSS_DIR: rssDir,
			...env,
		},
	});
	return { n8n, rssDir };
}
