/**
 * The e2e support's wait for a production webhook (N8n.waitForWebhook): a connection reset right
 * after n8n starts means "not registered yet", as a 404 does, until the deadline.
 */
import http from 'http';
import type { AddressInfo } from 'net';

import { N8n } from '../../../tooling/n8n/n8n';

/** A server that resets the first `resets` connections, then answers every probe `status`. */
async function server(resets: number, status: number) {
	let seen = 0;
	const srv = http.createServer((req, res) => {
		seen += 1;
		if (seen <= resets) {
			req.socket.destroy();
			return;
		}
		res.writeHead(status).end();
	});
	await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
	const { port } = srv.address() as AddressInfo;
	return { srv, baseUrl: `http://127.0.0.1:${port}`, seen: () => seen };
}

const waitForWebhook = (baseUrl: string, timeoutMs: number) =>
	N8n.prototype.waitForWebhook.call({ baseUrl, serverLog: '' } as unknown as N8n, 'hook', 'POST', timeoutMs);

describe('N8n.waitForWebhook', () => {
	it('waits through connection resets until the path answers 2xx', async () => {
		const { srv, baseUrl, seen } = await server(3, 204);
		try {
			await waitForWebhook(baseUrl, 10000);
			expect(seen()).toBe(4);
		} finally {
			srv.close();
		}
	});

	it('fails at the deadline, naming what the path last answered', async () => {
		const { srv, baseUrl } = await server(Number.POSITIVE_INFINITY, 204);
		try {
			await expect(waitForWebhook(baseUrl, 500)).rejects.toThrow(/still answered no answer/);
		} finally {
			srv.close();
		}
	});

	it('fails at once on an answer other than 404 or 2xx', async () => {
		const { srv, baseUrl } = await server(0, 500);
		try {
			await expect(waitForWebhook(baseUrl, 10000)).rejects.toThrow(/→ 500$/);
		} finally {
			srv.close();
		}
	});
});
