/**
 * The browser: finding Chromium or Chrome (installing Debian's chromium as root when there is
 * none), starting it headless on 127.0.0.1 only, and the script's window on it (size, id, log).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { spawnOwned } from '../../tooling/n8n/processes';
import { Cdp } from './cdp';

export const BROWSER_ID = 'wallet-payments-screenshots';
export const WIDTH = 1440;
export const HEIGHT = 900;

/** The script's progress line. */
export function say(message: string): void {
	process.stdout.write(`[screenshots] ${message}\n`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
export function ensureBrowser(): string {
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

export async function startChromium(profile: string, binary: string): Promise<{ pgid: number; cdp: Cdp }> {
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
