/**
 * The sandboxes as the bench reaches them (endpoints), the requests it makes to set them up, and
 * what the service saw of a measured run (from the sandbox's request records).
 */
import * as fs from 'fs';
import http from 'http';
import https from 'https';

import type { RecordedRequest, Sandbox } from '../tooling/sandbox';

export type EndpointKey = 'fast' | 'fast1k' | 'slow' | 'slow1k' | 'jitter' | 'pay' | 'settle' | 'tls' | 'link' | 'payFast' | 'paySlow';

/** A sandbox as the node reaches it: its URL (the link's for `link`) and the credential for it. */
export interface Endpoint {
	key: EndpointKey;
	label: string;
	sandbox: Sandbox;
	url: string;
	credential: { id: string; name: string };
	/** The file of the certificate to trust (HTTPS only). */
	ca?: string;
	/** A saved beneficiary (payouts). */
	beneficiaryId?: string;
	/** Payroll: the credential as a user creates it, without "n8n Runs As" (claims across processes). */
	asCreated?: boolean;
}

/** A JSON request to a sandbox, straight (not through the link). */
export function api(endpoint: Endpoint, method: string, pathname: string, body?: unknown): Promise<Record<string, unknown>> {
	const { sandbox } = endpoint;
	const client = sandbox.url.startsWith('https:') ? https : http;
	const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
	return new Promise((resolve, reject) => {
		const request = client.request(
			`${sandbox.url}${pathname}`,
			{
				method,
				ca: endpoint.ca ? fs.readFileSync(endpoint.ca) : undefined,
				agent: false,
				headers: {
					authorization: `Bearer ${sandbox.apiKey}`,
					...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
				},
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { status: boolean; data: Record<string, unknown> };
					if (response.statusCode !== 200 || json.status !== true) reject(new Error(`${method} ${pathname}: ${response.statusCode} ${JSON.stringify(json)}`));
					else resolve(json.data);
				});
				response.on('error', reject);
			},
		);
		request.on('error', reject);
		request.end(payload);
	});
}

/** A new payout in the endpoint's sandbox: a transaction for one measured node to read. */
export async function newTransaction(endpoint: Endpoint): Promise<string> {
	const payout = await api(endpoint, 'POST', '/api/v2/wallets/payout/initialize', {
		amount: 500,
		sourceWalletCurrency: 'USD',
		customerEmail: 'bench@example.com',
		description: 'benchmark',
		beneficiary: {
			country: 'KE',
			currency: 'KES',
			destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'Bench', accountNumber: '254712345678' },
		},
	});
	endpoint.sandbox.clearRequests();
	return payout.id as string;
}

/** What the service saw of a measured run. */
export interface ServiceStats {
	requests: number;
	/** Distinct connections the requests came on. */
	connections: number;
	/** Most requests the service was answering at one moment. */
	maxInFlight: number;
	/** Sum of the service's time per request (arrival to end of answer), ms. */
	serviceMs: number;
}

export function serviceStats(requests: RecordedRequest[]): ServiceStats {
	const edges = requests.flatMap((r) => [
		[r.startedMs ?? 0, 1],
		[r.finishedMs ?? r.startedMs ?? 0, -1],
	]);
	edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	let current = 0;
	let most = 0;
	for (const [, step] of edges) most = Math.max(most, (current += step));
	return {
		requests: requests.length,
		connections: new Set(requests.map((r) => r.connection)).size,
		maxInFlight: most,
		serviceMs: requests.reduce((sum, r) => sum + ((r.finishedMs ?? 0) - (r.startedMs ?? 0)), 0),
	};
}

export const notWarmUp = (r: RecordedRequest) => r.query.warmup === undefined;

/** The one beneficiary every payout of an endpoint goes to; the sandbox's request log starts after it. */
export async function addBeneficiary(endpoint: Endpoint): Promise<void> {
	endpoint.beneficiaryId = (await api(endpoint, 'POST', '/api/v2/beneficiaries', {
		country: 'KE',
		currency: 'KES',
		customerEmail: 'payee@example.com',
		destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'Bench Payee', accountNumber: '254712345678' },
	})).id as string;
	endpoint.sandbox.clearRequests();
}
