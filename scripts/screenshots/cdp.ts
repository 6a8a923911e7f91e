/** A minimal DevTools protocol client: enough to drive one headless Chromium page. */
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

export class Cdp {
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
