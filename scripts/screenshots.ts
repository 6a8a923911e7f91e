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
 *     review message with its buttons is there);
 *  4. stops Chromium, n8n and the sandbox and removes its folder.
 * Every request stays on 127.0.0.1 (Chromium resolves no other host).
 *
 * The DevTools client uses the global WebSocket of Node 22+; under an older Node the script
 * runs itself again with the cached Node 24.
 *
 * Each picture's fingerprint (the node descriptions and the example it shows) and its file's hash
 * go into docs/screenshots/manifest.json; `npm test` (test/screenshots.test.ts) fails when a
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

import { startSandbox, type Sandbox } from '../test/sandbox';
import { startDemoModel } from '../test/e2e/support/demoModel';
import { AGENT_MODEL_CREDENTIAL, loadExamples } from '../test/e2e/support/examples';
import { ensureInstalled, REPO_ROOT } from '../test/e2e/support/install';
import { CREDENTIAL_TYPE, N8n, packPackage, WALLET_NODE_TYPE, type WorkflowJson } from '../test/e2e/support/n8n';
import { spawnOwned, stopGroup } from '../test/e2e/support/processes';
import { mobileMoneyForm } from '../test/e2e/support/workflow';
import { pngHash, readManifest, shows, writeManifest } from '../test/e2e/support/screenshotManifest';
import type { ScriptedModel } from '../test/e2e/support/scriptedModel';

/** In the page: whether a canvas node is the node named Summary (a leaf with that text and an output, so not a sticky note). */
const SUMMARY_NODE = `(el) => !!el.querySelector('[data-test-id="canvas-node-output-handle"]') && [...el.querySelectorAll('*')].some((c) => c.children.length === 0 && c.textContent.trim() === 'Summary')`;
const OUT_DIR = path.resolve(process.env.SCREENSHOTS_DIR ?? path.join(REPO_ROOT, 'docs', 'screenshots'));
const CREDENTIAL = { id: 'WalletDemoCred01', name: 'Wallet Payments (sandbox)' };
const BROWSER_ID = 'wallet-payments-screenshots';
const WIDTH = 1440;
const HEIGHT = 900;

const FORM_WORKFLOW_ID = 'WalletShotForm01';
/** The payout run with settlement (examples/payout-run-with-settlement.json). */
const SETTLEMENT_WORKFLOW_ID = 'WalletExSettled1';
/** As in the demo: payouts settle by themselves; the settlement example's closed account fails. */
const SETTLEMENT = {
	delayMs: 3000,
	rules: [{ accountNumber: '254799000005', outcome: 'failed' as const, reason: 'Mobile money account closed' }],
};
const FORM_NODE_ID = '5f0c3a1e-9b7d-4e2a-8c61-0d4b2e7f9a13';

function say(message: string): void {
	process.stdout.write(`[screenshots] ${message}\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A workflow with Payout → Initiate to an inline beneficiary: the country-driven form. */
function formWorkflow(): WorkflowJson {
	const credentials = { [CREDENTIAL_TYPE]: CREDENTIAL };
	return {
		id: FORM_WORKFLOW_ID,
		name: 'Payout form (screenshot)',
		nodes: [
			{
				id: '1c9e6b2a-4d3f-4a8e-9b1c-7e2d5f0a6c31',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: FORM_NODE_ID,
				name: 'Pay Wanjiru',
				type: WALLET_NODE_TYPE,
				typeVersion: 1,
				position: [260, 0],
				parameters: {
					resource: 'payout',
					operation: 'initiate',
					sourceWalletCurrency: 'KES',
					amountUnit: 'major',
					amount: 1500,
					customerEmail: 'wanjiru.kamau@example.com',
					description: 'November field visits',
					beneficiaryMode: 'inline',
					country: 'KE',
					currency: 'KES',
					destinationType: 'MOBILEMONEY',
					destinationFields: mobileMoneyForm({ network: 'MPESA', accountName: 'Wanjiru Kamau', accountNumber: '254712345001' }),
				},
				credentials,
			},
		],
		connections: { Start: { main: [[{ node: 'Pay Wanjiru', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

// ---- a minimal DevTools protocol client ------------------------------------------------------

interface CdpMessage {
	id?: number;
	result?: Record<string, unknown>;
	error?: { message: string };
}

interface MinimalWebSocket {
	send(data: string): void;
	close(): void;
	addEventListener(type: string, listener: (event: { data?: unknown }) => void, options?: { once?: boolean }): void;
}

class Cdp {
	private nextId = 0;
	private readonly pending = new Map<number, { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }>();

	private constructor(private readonly socket: MinimalWebSocket) {
		socket.addEventListener('message', (event) => {
			const message = JSON.parse(String(event.data)) as CdpMessage;
			if (message.id === undefined) return;
			const waiter = this.pending.get(message.id);
			if (!waiter) return;
			this.pending.delete(message.id);
			if (message.error) waiter.reject(new Error(message.error.message));
			else waiter.resolve(message.result ?? {});
		});
	}

	static async connect(url: string): Promise<Cdp> {
		const WebSocketClass = (globalThis as unknown as { WebSocket: new (url: string) => MinimalWebSocket }).WebSocket;
		const socket = new WebSocketClass(url);
		await new Promise<void>((resolve, reject) => {
			socket.addEventListener('open', () => resolve(), { once: true });
			socket.addEventListener('error', () => reject(new Error(`Cannot connect to ${url}`)), { once: true });
		});
		return new Cdp(socket);
	}

	send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
		const id = ++this.nextId;
		return new Promise((resolve, reject) => {
			this.pending.set(id, { resolve, reject });
			this.socket.send(JSON.stringify({ id, method, params }));
		});
	}

	async evaluate<T>(expression: string): Promise<T> {
		const result = (await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })) as {
			result?: { value?: T };
			exceptionDetails?: unknown;
		};
		if (result.exceptionDetails) throw new Error(`In the page: ${JSON.stringify(result.exceptionDetails).slice(0, 600)}`);
		return result.result?.value as T;
	}

	close(): void {
		this.socket.close();
	}
}

// ---- the browser -----------------------------------------------------------------------------

const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const BROWSER_PATHS: Record<string, string[]> = {
	darwin: [
		'/Applications/Chromium.app/Contents/MacOS/Chromium',
		'/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
	],
	win32: [
		path.join(process.env.PROGRAMFILES ?? 'C:\\Program Files', 'Google', 'Chrome', 'Application', 'chrome.exe'),
		path.join(process.env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)', 'Google', 'Chrome', 'Application', 'chrome.exe'),
		path.join(process.env.LOCALAPPDATA ?? '', 'Chromium', 'Application', 'chrome.exe'),
	],
};

/** A Chromium or Chrome binary: CHROMIUM, then PATH, then the usual install folders. */
function findBrowser(): string | undefined {
	if (process.env.CHROMIUM) return process.env.CHROMIUM;
	const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
	for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
		for (const name of BROWSER_NAMES) {
			for (const ext of exts) {
				const candidate = path.join(dir, name + ext);
				try {
					fs.accessSync(candidate, fs.constants.X_OK);
					if (fs.statSync(candidate).isFile()) return candidate;
				} catch {
					// not here
				}
			}
		}
	}
	return (BROWSER_PATHS[process.platform] ?? []).find((candidate) => fs.existsSync(candidate));
}

const INSTALL_HELP: Record<string, string> = {
	linux:
		"Debian: `sudo apt-get install -y chromium`; Ubuntu: `sudo apt-get install -y chromium-browser` (a snap) or Google Chrome's .deb; or set CHROMIUM to a Chromium/Chrome binary",
	darwin: 'install Google Chrome, or `brew install --cask chromium`, or set CHROMIUM to a Chromium/Chrome binary',
	win32: 'install Google Chrome, or set CHROMIUM to chrome.exe',
};

/** Finds the browser; on Debian or Ubuntu as root, installs Debian's chromium when there is none. */
function ensureBrowser(): string {
	const found = findBrowser();
	if (found) return found;
	const help = INSTALL_HELP[process.platform] ?? 'install Chromium or Google Chrome and set CHROMIUM to its binary';
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
	if (process.platform !== 'linux' || !hasApt || !isRoot || process.env.SCREENSHOTS_NO_INSTALL) {
		throw new Error(`No Chromium or Chrome found: ${help}`);
	}
	say('no Chromium found: installing Debian\'s chromium package (apt-get install -y chromium, about 100 MB)');
	const aptInstall = () =>
		spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
			stdio: 'inherit',
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		}).status === 0;
	if (!aptInstall()) {
		say('apt-get install failed: updating the package lists (apt-get update) and trying again');
		spawnSync('apt-get', ['update'], { stdio: 'inherit' });
		if (!aptInstall()) throw new Error(`apt-get install chromium failed: ${help}`);
	}
	const installed = findBrowser();
	if (!installed) throw new Error(`chromium was installed but is not on PATH: ${help}`);
	return installed;
}

async function startChromium(profile: string, binary: string): Promise<{ pgid: number; cdp: Cdp }> {
	const child = spawnOwned('chromium', binary, [
		'--headless=new',
		'--no-sandbox',
		'--disable-gpu',
		'--hide-scrollbars',
		'--remote-debugging-address=127.0.0.1',
		'--remote-debugging-port=0',
		`--user-data-dir=${profile}`,
		`--window-size=${WIDTH},${HEIGHT}`,
		'--no-first-run',
		'--no-default-browser-check',
		'--disable-extensions',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
		'--disable-default-apps',
		'--disable-domain-reliability',
		// Nothing but 127.0.0.1: any other host name fails to resolve.
		'--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
		'about:blank',
	], { stdio: 'ignore' });
	const started = await new Promise<boolean>((resolve) => {
		child.once('error', () => resolve(false));
		child.once('spawn', () => resolve(true));
	});
	if (!started || !child.pid) {
		throw new Error(`Cannot start ${binary}: ${INSTALL_HELP[process.platform] ?? 'set CHROMIUM to a Chromium or Chrome binary'}`);
	}
	// Chromium writes the port it chose into DevToolsActivePort.
	const portFile = path.join(profile, 'DevToolsActivePort');
	const deadline = Date.now() + 30000;
	while (!fs.existsSync(portFile) || fs.readFileSync(portFile, 'utf8').split('\n').length < 2) {
		if (child.exitCode !== null) throw new Error(`${binary} exited (${child.exitCode}) at start`);
		if (Date.now() > deadline) throw new Error(`${binary} did not open its DevTools port`);
		await sleep(100);
	}
	const port = Number(fs.readFileSync(portFile, 'utf8').split('\n')[0]);
	const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ type: string; webSocketDebuggerUrl: string }>;
	const page = targets.find((t) => t.type === 'page');
	if (!page) throw new Error('Chromium has no page to drive');
	const cdp = await Cdp.connect(page.webSocketDebuggerUrl);
	await cdp.send('Page.enable');
	await cdp.send('Network.enable');
	return { pgid: child.pid, cdp };
}

async function login(n8n: N8n): Promise<string> {
	const response = await fetch(`${n8n.baseUrl}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
		body: JSON.stringify({ emailOrLdapLoginId: n8n.owner.email, password: n8n.owner.password }),
	});
	if (response.status !== 200) throw new Error(`POST /rest/login → ${response.status}: ${await response.text()}`);
	const auth = response.headers
		.getSetCookie()
		.map((cookie) => cookie.split(';')[0])
		.find((cookie) => cookie.startsWith('n8n-auth='));
	if (!auth) throw new Error('POST /rest/login set no n8n-auth cookie');
	return auth.slice('n8n-auth='.length);
}

class Editor {
	constructor(
		private readonly cdp: Cdp,
		private readonly baseUrl: string,
	) {}

	async viewport(height = HEIGHT, deviceScaleFactor = 1): Promise<void> {
		await this.cdp.send('Emulation.setDeviceMetricsOverride', { width: WIDTH, height, deviceScaleFactor, mobile: false });
	}

	/** The box around every node and sticky note on the canvas, with a margin (CSS pixels). */
	async canvasBounds(margin = 32): Promise<{ x: number; y: number; width: number; height: number }> {
		const box = await this.cdp.evaluate<{ left: number; top: number; right: number; bottom: number } | null>(`(() => {
			const boxes = [...document.querySelectorAll('.vue-flow__node')].map((el) => el.getBoundingClientRect());
			if (boxes.length === 0) return null;
			return {
				left: Math.min(...boxes.map((b) => b.left)),
				top: Math.min(...boxes.map((b) => b.top)),
				right: Math.max(...boxes.map((b) => b.right)),
				bottom: Math.max(...boxes.map((b) => b.bottom)),
			};
		})()`);
		if (!box) throw new Error('No nodes on the canvas');
		const x = Math.max(0, Math.floor(box.left - margin));
		const y = Math.max(0, Math.floor(box.top - margin));
		// Node names and subtitles hang below the node boxes.
		return { x, y, width: Math.ceil(box.right + margin) - x, height: Math.ceil(box.bottom + margin + 40) - y };
	}

	/** The session: n8n binds its auth cookie to the browser id the editor keeps in localStorage. */
	async signIn(token: string): Promise<void> {
		// The browser id first, on a page of the same origin that does not run the editor (the
		// editor would present the cookie with another browser id and be signed out).
		await this.open('/healthz');
		await this.cdp.evaluate(`localStorage.setItem('n8n-browserId', ${JSON.stringify(BROWSER_ID)}); true`);
		await this.cdp.send('Network.setCookie', { name: 'n8n-auth', value: token, url: `${this.baseUrl}/`, httpOnly: true });
	}

	async open(pathname: string): Promise<void> {
		await this.cdp.send('Page.navigate', { url: `${this.baseUrl}${pathname}` });
		await this.waitFor('document.readyState === "complete"', `${pathname} to load`);
	}

	async waitFor(expression: string, what: string, timeoutMs = 30000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (await this.cdp.evaluate<boolean>(`(() => { try { return !!(${expression}); } catch { return false; } })()`)) return;
			if (Date.now() > deadline) {
				const where = await this.cdp.evaluate<string>('location.href');
				throw new Error(`Timed out waiting for ${what} (at ${where})`);
			}
			await sleep(200);
		}
	}

	/** A real mouse click in the middle of the element (Element Plus selects ignore el.click()). */
	async click(selector: string): Promise<void> {
		const point = await this.cdp.evaluate<{ x: number; y: number } | null>(`(() => {
			const el = document.querySelector(${JSON.stringify(selector)});
			if (!el) return null;
			const box = el.getBoundingClientRect();
			return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
		})()`);
		if (!point) throw new Error(`Nothing to click at ${selector}`);
		await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...point });
		await this.cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...point, button: 'left', clickCount: 1 });
		await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...point, button: 'left', clickCount: 1 });
	}

	/** The middle of the element an expression finds (viewport coordinates). */
	async point(elementExpression: string): Promise<{ x: number; y: number }> {
		const point = await this.cdp.evaluate<{ x: number; y: number } | null>(`(() => {
			const el = ${elementExpression};
			if (!el) return null;
			const box = el.getBoundingClientRect();
			return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
		})()`);
		if (!point) throw new Error(`Nothing at ${elementExpression}`);
		return point;
	}

	/** Presses the mouse at `from` and moves it, in steps, to `to` (by default at the same height), then releases. */
	async drag(from: { x: number; y: number }, to: { x: number; y?: number }): Promise<void> {
		const toY = to.y ?? from.y;
		await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...from });
		await this.cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...from, button: 'left', clickCount: 1 });
		const steps = 12;
		for (let i = 1; i <= steps; i++) {
			const x = from.x + ((to.x - from.x) * i) / steps;
			const y = from.y + ((toY - from.y) * i) / steps;
			await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'left', buttons: 1 });
			await sleep(30);
		}
		await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: to.x, y: toY, button: 'left', clickCount: 1 });
	}

	/** A real double click (opens a node's panel on the canvas). */
	async doubleClick(point: { x: number; y: number }): Promise<void> {
		await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...point });
		for (const clickCount of [1, 2]) {
			await this.cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...point, button: 'left', clickCount });
			await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...point, button: 'left', clickCount });
		}
	}

	/** Clicks the innermost visible element inside `container` whose whole text is `text`. */
	async clickTextIn(container: string, text: string): Promise<void> {
		const point = await this.point(`[...document.querySelectorAll(${JSON.stringify(`${container} *`)})]
			.filter((el) => { const b = el.getBoundingClientRect(); return b.width > 0 && b.height > 0 && el.textContent.trim() === ${JSON.stringify(text)}; })
			.find((el, _i, all) => !all.some((other) => other !== el && el.contains(other)))`);
		await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...point });
		await this.cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...point, button: 'left', clickCount: 1 });
		await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...point, button: 'left', clickCount: 1 });
	}

	/** Clicks the innermost visible element whose whole text is `text` (a button if there is one). */
	async clickText(text: string): Promise<void> {
		const marked = await this.cdp.evaluate<boolean>(`(() => {
			const matches = [...document.querySelectorAll('body *')].filter((el) => {
				const box = el.getBoundingClientRect();
				return box.width > 0 && box.height > 0 && el.textContent.trim() === ${JSON.stringify(text)};
			});
			const innermost = matches
				.filter((el) => !matches.some((other) => other !== el && el.contains(other)))
				// Buttons, links and labels first (the same words may also stand in plain text).
				.sort((a, b) => Number(!!b.closest('button, a, label, [role="button"], [role="tab"]')) - Number(!!a.closest('button, a, label, [role="button"], [role="tab"]')));
			document.querySelectorAll('[data-screenshot-target]').forEach((el) => el.removeAttribute('data-screenshot-target'));
			if (innermost.length === 0) return false;
			innermost[0].setAttribute('data-screenshot-target', '1');
			return true;
		})()`);
		if (!marked) throw new Error(`No visible "${text}" to click`);
		await this.click('[data-screenshot-target]');
	}

	async evaluate<T>(expression: string): Promise<T> {
		return await this.cdp.evaluate<T>(expression);
	}

	/** Focuses the element an expression finds, types the text and presses Enter. */
	async type(elementExpression: string, text: string): Promise<void> {
		await this.cdp.evaluate(`(() => { const el = ${elementExpression}; el.focus(); return true; })()`);
		await this.cdp.send('Input.insertText', { text });
		await sleep(200);
		for (const type of ['keyDown', 'keyUp']) {
			await this.cdp.send('Input.dispatchKeyEvent', { type, key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, ...(type === 'keyDown' ? { text: '\r' } : {}) });
		}
	}

	/** Scrolls the element's parameter (label included) to the top of its scrolling panel. */
	async scrollToParameter(name: string): Promise<void> {
		await this.cdp.evaluate(`(() => {
			const input = document.querySelector('[data-test-id="parameter-input-${name}"]');
			(input?.closest('[data-test-id="parameter-item"]') ?? input)?.scrollIntoView({ block: 'start' });
			return true;
		})()`);
	}

	async signedIn(): Promise<void> {
		const pathname = await this.cdp.evaluate<string>('location.pathname');
		if (pathname.startsWith('/signin') || pathname.startsWith('/setup')) {
			throw new Error(`The editor shows ${pathname}: the session was not accepted`);
		}
	}

	async capture(file: string, clip?: { x: number; y: number; width: number; height: number }): Promise<void> {
		await this.signedIn();
		// Let transitions and fonts settle.
		await sleep(700);
		const { data } = (await this.cdp.send('Page.captureScreenshot', {
			format: 'png',
			...(clip ? { clip: { ...clip, scale: 1 } } : {}),
		})) as { data: string };
		fs.writeFileSync(file, Buffer.from(data, 'base64'));
		say(`wrote ${path.relative(REPO_ROOT, file)}`);
	}
}

// ---- the views -------------------------------------------------------------------------------

/** Visible text of the page, for checks that a view shows what its name claims. */
const TEXT = 'document.body.innerText';

interface Shot {
	name: string;
	take(editor: Editor, file: string): Promise<void>;
}

function nodeId(workflow: WorkflowJson, name: string): string {
	const found = workflow.nodes.find((n) => n.name === name);
	if (!found) throw new Error(`Workflow ${workflow.id} has no node "${name}"`);
	return String(found.id);
}

function shots(workflows: Map<string, WorkflowJson>, beneficiaryId: string): Shot[] {
	const workflow = (id: string) => {
		const found = workflows.get(id);
		if (!found) throw new Error(`No workflow ${id} to screenshot`);
		return found;
	};
	const canvas = (name: string, id: string, mustShow: string[]): Shot => ({
		name,
		async take(editor, file) {
			await editor.viewport(HEIGHT);
			await editor.open(`/workflow/${id}`);
			const nodes = workflow(id).nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length;
			await editor.waitFor(`document.querySelectorAll('[data-test-id="canvas-node"]').length >= ${nodes}`, `the canvas of ${id}`);
			for (const text of mustShow) await editor.waitFor(`${TEXT}.includes(${JSON.stringify(text)})`, `"${text}" on the canvas`);
			// Only the workflow, at twice the resolution, so that the sticky notes can be read.
			await editor.viewport(HEIGHT, 2);
			await sleep(500);
			await editor.capture(file, await editor.canvasBounds());
		},
	});
	const payouts = workflow('WalletExPayout01');
	const report = workflow('WalletExPayRpt01');
	return [
		{
			name: 'node-operation-selector',
			async take(editor, file) {
				await editor.viewport(HEIGHT);
				await editor.open(`/workflow/${payouts.id}/${nodeId(payouts, 'Initiate Payout')}`);
				await editor.waitFor(`document.querySelector('[data-test-id="parameter-input-operation"]')`, 'the node panel');
				await editor.click('[data-test-id="parameter-input-operation"]');
				await editor.waitFor(`${TEXT}.includes('Initiate (Legacy)') && ${TEXT}.includes('Finalize (Legacy)')`, 'the operation list');
				await editor.capture(file);
			},
		},
		{
			name: 'node-resource-selector',
			async take(editor, file) {
				await editor.viewport(HEIGHT);
				await editor.open(`/workflow/${payouts.id}/${nodeId(payouts, 'Initiate Payout')}`);
				await editor.waitFor(`document.querySelector('[data-test-id="parameter-input-resource"]')`, 'the node panel');
				await editor.click('[data-test-id="parameter-input-resource"]');
				await editor.waitFor(
					['Beneficiary', 'Card', 'Collection', 'Country', 'Customer', 'Swap', 'Transaction'].map((r) => `${TEXT}.includes('${r}')`).join(' && '),
					'the resource list',
				);
				await editor.capture(file);
			},
		},
		{
			name: 'payout-form',
			async take(editor, file) {
				await editor.viewport(1350);
				await editor.open(`/workflow/${FORM_WORKFLOW_ID}/${FORM_NODE_ID}`);
				await editor.waitFor(`document.querySelector('[data-test-id="parameter-input-destinationType"]')`, 'the node panel');
				// Destination types and the form come from the service (the sandbox) for the country.
				await editor.waitFor(`${TEXT}.includes('Mobile Network') && ${TEXT}.includes('Account Number')`, 'the destination form');
				await editor.waitFor(`document.querySelector('[data-test-id="parameter-input-destinationType"] input')?.value === 'Mobile Money'`, 'the destination type');
				await editor.scrollToParameter('resource');
				await editor.capture(file);
			},
		},
		{
			name: 'trigger-panel',
			async take(editor, file) {
				await editor.viewport(HEIGHT);
				await editor.open(`/workflow/${report.id}/${nodeId(report, 'Payout Settled or Failed')}`);
				await editor.waitFor(`document.querySelector('[data-test-id="parameter-input-events"]')`, 'the trigger panel');
				await editor.waitFor(`${TEXT}.includes('Verify Signature') && ${TEXT}.includes('Payout Succeeded')`, 'the trigger fields');
				// Show the Production URL, the one to paste into the provider's dashboard.
				await editor.clickText('Webhook URLs');
				await editor.waitFor(`${TEXT}.includes('Production URL')`, 'the webhook URLs');
				await sleep(800); // the section slides open
				await editor.clickText('Production URL');
				await editor.waitFor(`${TEXT}.includes('/webhook/${report.nodes.find((n) => n.name === 'Payout Settled or Failed')?.webhookId}/webhook')`, 'the production URL');
				await editor.capture(file);
			},
		},
		{
			// The settlement example after Execute workflow: the Summary node's one item.
			name: 'example-payout-run-summary',
			async take(editor, file) {
				const settled = workflow(SETTLEMENT_WORKFLOW_ID);
				await editor.viewport(HEIGHT);
				await editor.open(`/workflow/${settled.id}`);
				const nodes = settled.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length;
				await editor.waitFor(`document.querySelectorAll('[data-test-id="canvas-node"]').length >= ${nodes}`, 'the canvas');
				await editor.click('[data-test-id="execute-workflow-button"]');
				// The sandbox settles each payout a few seconds after it is sent; Summary runs last.
				await editor.waitFor(
					`[...document.querySelectorAll('[data-test-id="canvas-node"]')].some((el) => (${SUMMARY_NODE})(el) && el.querySelector('[data-test-id="canvas-node-status-success"]'))`,
					'the run to reach Summary',
					120000,
				);
				const point = await editor.point(
					`[...document.querySelectorAll('[data-test-id="canvas-node"]')].find(${SUMMARY_NODE})`,
				);
				await editor.doubleClick(point);
				const output = '[data-test-id="output-panel"]';
				await editor.waitFor(`document.querySelector('${output}') && document.querySelector('[data-test-id="panel-drag-button"]')`, 'the Summary node panel');
				// The parameters to the left, so that the output panel has room for the item.
				await editor.drag(await editor.point(`document.querySelector('[data-test-id="panel-drag-button"]')`), { x: 250 });
				await editor.clickTextIn(output, 'JSON');
				await editor.waitFor(
					`document.querySelector('${output}')?.innerText.includes('Mobile money account closed') && document.querySelector('${output}')?.innerText.includes('8,450.50 KES')`,
					'the summary item in the output panel',
				);
				await editor.capture(file);
			},
		},
		canvas('example-payout-automation', 'WalletExPayout01', ['Initiate Payout', 'Create Beneficiary']),
		canvas('example-payout-status-report', 'WalletExPayRpt01', ['Report: Paid', 'Report: Failed']),
		canvas('example-scheduled-collections', 'WalletExCollect1', ['Open Collection', 'Receiving Accounts']),
		canvas('example-card-freeze-rule', 'WalletExCardRule', ['Freeze Card', 'No Action']),
		canvas('example-agent-payouts-with-review', 'WalletExAgentRev', ['Payments Agent', 'Review payout', 'Pay out']),
		{
			// What a reviewer sees: the editor's own chat panel (no CDN) on the agent example, the
			// demo's rule-based model proposing a payout, and the review step's message with its buttons.
			name: 'agent-review-in-chat',
			async take(editor, file) {
				const agent = workflow('WalletExAgentRev');
				await editor.viewport(HEIGHT);
				await editor.open(`/workflow/${agent.id}`);
				const nodes = agent.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length;
				await editor.waitFor(`document.querySelectorAll('[data-test-id="canvas-node"]').length >= ${nodes}`, 'the canvas');
				await editor.clickText('Open chat');
				const input = 'document.querySelector(\'[data-test-id="canvas-chat"] textarea, [data-test-id="chat-input"] textarea, textarea[placeholder]\')';
				await editor.waitFor(input, 'the chat panel');
				await editor.type(input, `pay ${beneficiaryId} 50 USD`);
				// The chat panel: the input's nearest ancestor that shows the session (the sticky note on
				// the canvas also says Approve / Deny).
				const chat = `(() => { let el = ${input}; while (el && !el.innerText.includes('Session')) el = el.parentElement; return el; })()`;
				await editor.waitFor(
					`[...${chat}.querySelectorAll('button')].some((b) => b.innerText.includes('Approve')) && ${chat}.innerText.includes('Deny')`,
					'the review message with its buttons in the chat panel',
					90000,
				);
				// A taller and wider chat: the panel's resize handles dragged (row- and col-resize cursors;
				// the canvas's sticky note has ns- and ew-resize ones).
				const handle = (cursor: string) => `[...document.querySelectorAll('body *')].find((el) => {
					const b = el.getBoundingClientRect();
					return b.width > 0 && b.height > 0 && /^(${cursor})-resize$/.test(getComputedStyle(el).cursor);
				})`;
				const top = await editor.point(handle('row'));
				await editor.drag(top, { x: top.x, y: 200 });
				await sleep(500);
				const side = await editor.point(handle('col'));
				await editor.drag(side, { x: 880 });
				await sleep(500);
				// The review message (the last one) in view.
				await editor.evaluate(`(() => { [...${chat}.querySelectorAll('*')].forEach((el) => { if (el.scrollHeight > el.clientHeight + 4) el.scrollTop = el.scrollHeight; }); return true; })()`);
				// Only the chat panel: from its top handle down, from the sidebar to its right handle.
				const rowHandle = await editor.point(handle('row'));
				const colHandle = await editor.point(handle('col'));
				const sidebar = (await editor.point(handle('e'))).x + 2;
				const panel = { x: Math.ceil(sidebar), y: Math.ceil(rowHandle.y + 2), width: Math.floor(colHandle.x - 2 - sidebar), height: Math.floor(HEIGHT - rowHandle.y - 2) };
				await editor.capture(file, panel);
			},
		},
	];
}

// ---- main ------------------------------------------------------------------------------------

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
		await n8n.importCredentials([{ ...AGENT_MODEL_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'demo-model', url: model.url } }]);
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
		// Each picture's fingerprint (what it shows) and hash: test/screenshots.test.ts checks them.
		const manifest = readManifest(OUT_DIR);
		const only = (process.env.SCREENSHOTS_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
		// The newest beneficiary: the agent's List beneficiaries reads the 20 newest, and the demo
		// model pays a beneficiary by the name and account ending that list shows.
		for (const shot of shots(workflows, sandbox.state.beneficiaries.at(-1)!.id)) {
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
