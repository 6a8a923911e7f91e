/**
 * Signed webhook delivery with retries. Every attempt is recorded.
 *
 * The body is `JSON.stringify({ event, data })`; the signature is the hex HMAC of exactly
 * those bytes, sent in the configured header. Anything but a 200 answer is retried after
 * each of `retryDelaysMs`.
 */
import { createHmac } from 'crypto';
import http from 'http';
import https from 'https';

import type { WebhookConfig } from './config';
import type { DeliveryAttempt, WebhookAlgorithm } from './types';

export function signBody(body: string | Buffer, secret: string, algorithm: WebhookAlgorithm = 'sha512'): string {
	return createHmac(algorithm, secret).update(body).digest('hex');
}

type Outcome = { status: number } | { error: string };

export class WebhookDispatcher {
	readonly deliveries: DeliveryAttempt[] = [];
	private readonly active = new Set<Promise<unknown>>();
	private readonly sleepers = new Map<NodeJS.Timeout, () => void>();
	private readonly requests = new Set<http.ClientRequest>();
	/** Bumped by cancel(): work of an older generation stops and records nothing more. */
	private generation = 0;

	constructor(
		private readonly config: () => WebhookConfig,
		private readonly now: () => Date,
	) {}

	/**
	 * Delivers one event to each distinct url (null/empty ones skipped). Resolves with the
	 * attempts made for this event once every delivery succeeded or ran out of retries.
	 */
	emit(event: string, data: unknown, urls: Array<string | null | undefined>): Promise<DeliveryAttempt[]> {
		const targets = [...new Set(urls.filter((url): url is string => !!url))];
		const config = this.config();
		const body = JSON.stringify({ event, data });
		const signature = signBody(body, config.secret, config.algorithm);
		const attempts: DeliveryAttempt[] = [];
		const work = Promise.all(
			targets.map((url) => this.deliver({ url, event, body, signature, config, attempts })),
		).then(() => attempts);
		this.active.add(work);
		void work.finally(() => this.active.delete(work));
		return work;
	}

	/** Resolves when no delivery is in flight. */
	async idle(): Promise<void> {
		while (this.active.size > 0) await Promise.allSettled([...this.active]);
	}

	/** Stops pending retries and in-flight requests (reset, close). */
	cancel(): void {
		this.generation++;
		for (const [timer, wake] of this.sleepers) {
			clearTimeout(timer);
			wake();
		}
		this.sleepers.clear();
		for (const request of this.requests) request.destroy();
		this.requests.clear();
	}

	clear(): void {
		this.cancel();
		this.deliveries.length = 0;
	}

	private async deliver(job: {
		url: string;
		event: string;
		body: string;
		signature: string;
		config: WebhookConfig;
		attempts: DeliveryAttempt[];
	}): Promise<void> {
		const generation = this.generation;
		const { url, event, body, signature, config } = job;
		const delays = config.retryDelaysMs;
		for (let attempt = 1; attempt <= delays.length + 1; attempt++) {
			if (attempt > 1) await this.sleep(delays[attempt - 2]);
			if (generation !== this.generation) return;
			const at = this.now().toISOString();
			const outcome = await this.post(url, body, signature, config);
			if (generation !== this.generation) return;
			const record: DeliveryAttempt = { url, event, attempt, ...outcome, body, signature, at };
			this.deliveries.push(record);
			job.attempts.push(record);
			if ('status' in outcome && outcome.status === 200) return;
		}
	}

	private sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.sleepers.delete(timer);
				resolve();
			}, ms);
			this.sleepers.set(timer, resolve);
		});
	}

	private post(url: string, body: string, signature: string, config: WebhookConfig): Promise<Outcome> {
		return new Promise((resolve) => {
			let target: URL;
			try {
				target = new URL(url);
			} catch {
				resolve({ error: `Invalid URL ${url}` });
				return;
			}
			const client = target.protocol === 'https:' ? https : http;
			const request = client.request(target, {
				method: 'POST',
				agent: false,
				headers: {
					'content-type': 'application/json',
					'content-length': String(Buffer.byteLength(body)),
					'user-agent': 'wallet-payments-sandbox',
					[config.header]: signature,
				},
			});
			this.requests.add(request);
			const done = (outcome: Outcome) => {
				this.requests.delete(request);
				resolve(outcome);
			};
			request.setTimeout(config.timeoutMs, () => request.destroy(new Error(`Timed out after ${config.timeoutMs} ms`)));
			request.on('response', (response) => {
				response.resume();
				response.on('end', () => done({ status: response.statusCode ?? 0 }));
				response.on('error', () => done({ status: response.statusCode ?? 0 }));
			});
			request.on('error', (error) => done({ error: error.message }));
			request.end(body);
		});
	}
}
