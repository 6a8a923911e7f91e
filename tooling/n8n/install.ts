/** Typed access to scripts/n8n-install.js (plain Node so it also runs outside jest). */
import * as path from 'path';

export interface InstallPaths {
	cache: string;
	marker: string;
	nodeDir: string;
	nodeBin: string;
	nodeBinDir: string;
	n8nHost: string;
	n8nPackage: string;
	n8nBin: string;
	n8nModules: string;
}

/** What loading every node file of n8n's node packages gave (scripts/n8n-install/nodesLoad.js). */
export interface NodesLoaded {
	packages: Array<{ name: string; total: number; failed: Array<{ file: string; code?: string; message: string }> }>;
}

interface InstallModule {
	ensureInstalled(options?: { force?: boolean }): Promise<InstallPaths & { installed: Record<string, unknown> }>;
	nodesLoad(p: InstallPaths): NodesLoaded;
	paths(cache?: string): InstallPaths;
	N8N_VERSION: string;
}

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const install = require(path.join(REPO_ROOT, 'scripts', 'n8n-install.js')) as InstallModule;

export const ensureInstalled = install.ensureInstalled;
export const installPaths = install.paths;
export const nodesLoad = install.nodesLoad;
export const N8N_VERSION = install.N8N_VERSION;
/** The major version of the n8n this run installs (the files can switch on it before n8n starts). */
export const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
