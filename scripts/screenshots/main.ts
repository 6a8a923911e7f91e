/**
 * `npm run screenshots`: the PNGs under docs/screenshots/, taken from a real n8n editor.
 *
 * A development tool, not part of `npm test`. Needs Chromium or Google Chrome: the CHROMIUM
 * variable, else the first of chromium, chromium-browser, google-chrome(-stable) on PATH or the
 * usual macOS/Windows install folders; when there is none on Debian or Ubuntu as root it installs
 * Debian's `chromium` package (`apt-get install -y chromium`), elsewhere it stops saying exactly
 * what to install. Like the demo, it installs Node 24 + n8n into the cache when missing. It
 *  1. builds and packs the package, starts the sandbox and an n8n (free ports, 127.0.0.1) with
 *     the credential, the examples and one extra workflow for the payout form; the agent
 *     example's OpenAI credential points at the demo's local rule-based model (demoModel.ts);
 *  2. logs in through n8n's REST API and hands the session to headless Chromium (a cookie set
 *     over the DevTools protocol, plus the browser id the session is bound to);
 *  3. opens each view, waits until it shows what it should, and captures it (the settlement
 *     example is executed in the editor first: the sandbox settles its payouts after 3 s; the
 *     agent example is run from the editor's own chat panel, asked for a payout, until the
 *     review message with its buttons is there; the payroll example is run once: its approval
 *     form, opened with the approver's login, then, approved, its reconciliation CSV);
 *  4. stops Chromium, n8n and the sandbox and removes its folder.
 * Every request stays on 127.0.0.1 (Chromium resolves no other host).
 *
 * The DevTools client uses the global WebSocket of Node 22+; under an older Node the script
 * runs itself again with the cached Node 24.
 *
 * Each picture's fingerprint (the node descriptions and the example it shows) and its file's hash
 * go into docs/screenshots/manifest.json; `npm test` (test/project/screenshots.test.ts) fails when a
 * picture shows a node or example that has changed since it was taken: run this again then.
 *
 * Environment: SCREENSHOTS_DIR (default docs/screenshots), SCREENSHOTS_ONLY (comma-separated
 * names, e.g. "trigger-panel"), CHROMIUM (the browser binary), SCREENSHOTS_NO_BUILD=1,
 * SCREENSHOTS_NO_INSTALL=1 (never run apt-get).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { startSandbox, type Sandbox } from '../../tooling/sandbox';
import { startDemoModel } from '../../tooling/demo/demoModel';
import { AGENT_MODEL_CREDENTIAL, APPROVER_CREDENTIAL, loadExamples } from '../../tooling/demo/examples';
import { ensureInstalled, REPO_ROOT } from '../../tooling/n8n/install';
import { N8n, packPackage, type WorkflowJson } from '../../tooling/n8n/n8n';
import { stopGroup } from '../../tooling/n8n/processes';
import { pngHash, readManifest, shows, writeManifest } from '../../tooling/demo/screenshotManifest';
import type { ScriptedModel } from '../../tooling/demo/scriptedModel';
import { ensureBrowser, say, startChromium } from './browser';
import type { Cdp } from './cdp';
import { Editor, login } from './editor';
import { CREDENTIAL, formWorkflow, FORM_WORKFLOW_ID, SETTLEMENT } from './setup';
import { payrollShots } from './payrollViews';
import { shots } from './views';

const OUT_DIR = path.resolve(process.env.SCREENSHOTS_DIR ?? path.join(REPO_ROOT, 'docs', 'screenshots'));

async function main(): Promise<void> {
	const install = await ensureInstalled();
	if (typeof (globalThis as { WebSocket?: unknown }).WebSocket !== 'function') {
		// Node 20: run again under the cached Node 24, which has a global WebSocket.
		say(`Node ${process.version} has no WebSocket: running again with ${install.nodeBin}`);
		const tsNode = require.resolve('ts-node/dist/bin.js', { paths: [REPO_ROOT] });
		const again = spawnSync(install.nodeBin, [tsNode, '--transpile-only', __filename], { stdio: 'inherit', env: process.env });
		process.exit(again.status ?? 1);
	}
	// Before anything slow: the browser (installed here when it can be).
	const browserBinary = ensureBrowser();
	say(`browser: ${browserBinary}`);
	if (!process.env.SCREENSHOTS_NO_BUILD) {
		say('building the package (npm run build)');
		const built = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
		if (built.status !== 0) throw new Error('npm run build failed');
	}
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-payments-screenshots-'));
	let sandbox: Sandbox | undefined;
	let n8n: N8n | undefined;
	let browser: { pgid: number; cdp: Cdp } | undefined;
	let model: ScriptedModel | undefined;
	try {
		const tarball = packPackage(path.join(folder, 'pack'));
		n8n = await N8n.create({ parentDir: folder, tarball, install });
		sandbox = await startSandbox({ host: '127.0.0.1', port: 0, seed: { customers: 25, beneficiaries: 25 }, settlement: SETTLEMENT });
		await n8n.importWalletCredential(
			{ apiKey: sandbox.apiKey, baseUrl: sandbox.url, webhookSecret: 'whsec_sandbox', processes: 'one' },
			CREDENTIAL.id,
			CREDENTIAL.name,
		);
		// The agent example's chat model: the demo's local rule-based stand-in (nothing outside).
		model = await startDemoModel();
		await n8n.importCredentials([{ ...AGENT_MODEL_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'demo-model', url: model.url } }, APPROVER_CREDENTIAL]);
		const workflows = new Map<string, WorkflowJson>();
		for (const example of loadExamples(CREDENTIAL)) workflows.set(example.workflow.id, example.workflow);
		workflows.set(FORM_WORKFLOW_ID, formWorkflow());
		await n8n.importWorkflows([...workflows.values()]);
		say('starting n8n');
		await n8n.start({ timeoutMs: 180000 });
		const token = await login(n8n);

		browser = await startChromium(path.join(folder, 'chromium'), browserBinary);
		const editor = new Editor(browser.cdp, n8n.baseUrl);
		await editor.viewport();
		await editor.signIn(token);

		fs.mkdirSync(OUT_DIR, { recursive: true });
		// Each picture's fingerprint (what it shows) and hash: test/project/screenshots.test.ts checks them.
		const manifest = readManifest(OUT_DIR);
		const only = (process.env.SCREENSHOTS_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
		// The newest beneficiary: the agent's List beneficiaries reads the 20 newest, and the demo
		// model pays a beneficiary by the name and account ending that list shows.
		for (const shot of [...shots(workflows, sandbox.state.beneficiaries.at(-1)!.id), ...payrollShots(n8n)]) {
			if (only.length > 0 && !only.includes(shot.name)) continue;
			try {
				const file = path.join(OUT_DIR, `${shot.name}.png`);
				await shot.take(editor, file);
				manifest[`${shot.name}.png`] = { shows: shows(shot.name), png: pngHash(file) };
				writeManifest(OUT_DIR, manifest);
			} catch (error) {
				// What the browser showed instead, for the one who has to find out why.
				const { data } = (await browser.cdp.send('Page.captureScreenshot', { format: 'png' })) as { data: string };
				const failed = path.join(os.tmpdir(), `screenshot-failed-${shot.name}.png`);
				fs.writeFileSync(failed, Buffer.from(data, 'base64'));
				throw new Error(`${shot.name}: ${(error as Error).message}\n(the page at that moment: ${failed})`);
			}
		}
	} finally {
		browser?.cdp.close();
		if (browser) await stopGroup(browser.pgid, 3000);
		await n8n?.stop().catch(() => undefined);
		await sandbox?.close().catch(() => undefined);
		await model?.close().catch(() => undefined);
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

main().then(
	() => process.exit(0),
	(error: Error) => {
		process.stderr.write(`\n[screenshots] FAILED: ${error.stack ?? error}\n`);
		process.exit(1);
	},
);