/**
 * The sandbox over HTTPS (the `tls` option, with a certificate made at run time) and the
 * connection number of every recorded request, over HTTP and HTTPS.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import http from 'http';
import https from 'https';
import * as os from 'os';
import * as path from 'path';

import { selfSignedCertificate, startSandbox, type Sandbox } from '../../../tooling/sandbox';
import { waitFor } from '../../helpers/sandbox/waitFor';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

function get(sandbox: Sandbox, agent: http.Agent, ca?: string): Promise<{ status: number; body: { status: boolean } }> {
	const client = sandbox.url.startsWith('https:') ? https : http;
	return new Promise((resolve, reject) => {
		const request = client.get(
			`${sandbox.url}/api/v2/customers`,
			{ agent, ca, headers: { authorization: `Bearer ${sandbox.apiKey}` } },
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
				response.on('error', reject);
			},
		);
		request.on('error', reject);
	});
}

describe('connection numbers', () => {
	it('are shared by requests on one kept-alive connection and differ for new connections (HTTP)', async () => {
		const sandbox = await startSandbox();
		const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
		try {
			await get(sandbox, keepAlive);
			await get(sandbox, keepAlive);
			await get(sandbox, new http.Agent({ keepAlive: false }));
			await get(sandbox, new http.Agent({ keepAlive: false }));
			expect(sandbox.requests.map((r) => r.connection)).toEqual([1, 1, 2, 3]);
			// The kept-alive connection is still open; the two others were closed after their answer.
			await waitFor(() => sandbox.openConnections() === 1, 2000, 10);
			keepAlive.destroy();
			await waitFor(() => sandbox.openConnections() === 0, 2000, 10);
		} finally {
			keepAlive.destroy();
			await sandbox.close();
		}
	});
});

(hasOpenssl ? describe : describe.skip)('over HTTPS', () => {
	let dir: string;

	beforeAll(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-tls-'));
	});

	afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

	it('serves the API with the given certificate; a client that trusts it gets answers', async () => {
		const certificate = selfSignedCertificate(dir);
		const sandbox = await startSandbox({ tls: { key: certificate.key, cert: certificate.cert } });
		const keepAlive = new https.Agent({ keepAlive: true, maxSockets: 1 });
		try {
			expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
			const answer = await get(sandbox, keepAlive, certificate.cert);
			expect(answer.status).toBe(200);
			expect(answer.body.status).toBe(true);
			await get(sandbox, keepAlive, certificate.cert);
			await get(sandbox, new https.Agent({ keepAlive: false }), certificate.cert);
			expect(sandbox.requests.map((r) => r.connection)).toEqual([1, 1, 2]);
			// A client that does not trust the certificate is refused by its own TLS check.
			await expect(get(sandbox, new https.Agent({ keepAlive: false }))).rejects.toThrow(/self[- ]signed/i);
		} finally {
			keepAlive.destroy();
			await sandbox.close();
		}
	});
});
