/** The n8n editor in the browser: signed in with a REST login, opened, clicked, captured. */
import * as fs from 'fs';
import * as path from 'path';

import { REPO_ROOT } from '../../tooling/n8n/install';
import type { N8n } from '../../tooling/n8n/n8n';
import { BROWSER_ID, HEIGHT, say, sleep, WIDTH } from './browser';
import type { Cdp } from './cdp';

export async function login(n8n: N8n): Promise<string> {
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

export class Editor {
	constructor(
		private readonly cdp: Cdp,
		private readonly baseUrl: string,
	) {}

	async viewport(height = HEIGHT, deviceScaleFactor = 1, width = WIDTH): Promise<void> {
		await this.cdp.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor, mobile: false });
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
		await this.openUrl(`${this.baseUrl}${pathname}`);
	}

	/** Any page the browser may reach (n8n's own, or a `data:` page). */
	async openUrl(url: string): Promise<void> {
		await this.cdp.send('Page.navigate', { url });
		await this.waitFor('document.readyState === "complete"', `${url.slice(0, 80)} to load`);
	}

	/** Headers sent with every request from now on (e.g. a Basic Auth login); {} for none. */
	async sendHeaders(headers: Record<string, string>): Promise<void> {
		await this.cdp.send('Network.setExtraHTTPHeaders', { headers });
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
