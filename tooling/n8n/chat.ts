/**
 * A client of n8n's hosted chat, doing what the chat page does: each message is a POST to the
 * Chat Trigger's production URL (`/webhook/<webhookId>/chat`, Response Mode "Using Response
 * Nodes": n8n answers with the execution's ID and resume token at once), then a WebSocket to
 * n8n's chat service (`/chat?sessionId&executionId&isPublic&token`) over which n8n sends what the
 * Chat nodes say: the human review step's message with its buttons, and the replies. The
 * WebSocket library is n8n's own copy (`ws`), as bcryptjs is elsewhere in this suite.
 */
import * as path from 'path';

import type { N8n } from './n8n';

/** A message n8n sent to the chat: text, or a review with buttons (each a link to open). */
export interface ChatOutput {
	text: string;
	buttons: Array<{ text: string; link: string; type?: string }>;
	raw: string;
}

interface WebSocketLike {
	on(event: 'message', listener: (data: Buffer) => void): void;
	on(event: 'close', listener: () => void): void;
	on(event: 'open', listener: () => void): void;
	on(event: 'error', listener: (error: Error) => void): void;
	send(data: string): void;
	close(): void;
	terminate(): void;
	readyState: number;
}

type WebSocketClass = new (url: string) => WebSocketLike;

const HEARTBEAT = 'n8n|heartbeat';
const HEARTBEAT_ACK = 'n8n|heartbeat-ack';
const CONTINUE = 'n8n|continue';

/** A browser's user agent: n8n answers approval links opened by bots with nothing. */
export const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** One message sent to the chat, and what n8n says back during its execution. */
export class ChatTurn {
	readonly outputs: ChatOutput[] = [];
	closed = false;
	private waiters: Array<() => void> = [];

	constructor(
		readonly executionId: string,
		private readonly socket: WebSocketLike,
	) {
		socket.on('message', (data) => {
			const raw = data.toString('utf8');
			if (raw === HEARTBEAT) {
				socket.send(HEARTBEAT_ACK);
				return;
			}
			if (raw === CONTINUE) return;
			this.outputs.push(parseOutput(raw));
			this.wake();
		});
		socket.on('close', () => {
			this.closed = true;
			this.wake();
		});
	}

	private wake(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const wake of waiters) wake();
	}

	/** Waits until n8n has sent `count` messages in this turn (or more); returns them all. */
	async waitForOutputs(count: number, timeoutMs = 60000): Promise<ChatOutput[]> {
		const deadline = Date.now() + timeoutMs;
		while (this.outputs.length < count) {
			if (this.closed) throw new Error(`The chat closed after ${this.outputs.length} message(s), expected ${count}: ${JSON.stringify(this.outputs.map((o) => o.text))}`);
			const left = deadline - Date.now();
			if (left <= 0) throw new Error(`Expected ${count} chat message(s) within ${timeoutMs} ms, got ${JSON.stringify(this.outputs.map((o) => o.text))}`);
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, left);
				this.waiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
		return this.outputs;
	}

	/** Waits until n8n closes the chat's connection (the execution finished). */
	async waitForClose(timeoutMs = 60000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (!this.closed) {
			const left = deadline - Date.now();
			if (left <= 0) throw new Error(`The chat of execution ${this.executionId} did not close within ${timeoutMs} ms`);
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, left);
				this.waiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
	}

	close(): void {
		if (!this.closed) this.socket.terminate();
	}
}

function parseOutput(raw: string): ChatOutput {
	try {
		const parsed = JSON.parse(raw) as { text?: string; buttons?: ChatOutput['buttons'] };
		if (parsed && typeof parsed === 'object' && typeof parsed.text === 'string') {
			return { text: parsed.text, buttons: parsed.buttons ?? [], raw };
		}
	} catch {
		// plain text
	}
	return { text: raw, buttons: [], raw };
}

/** A conversation (one session ID) with a published workflow's Chat Trigger. */
export class ChatSession {
	private readonly WebSocket: WebSocketClass;
	readonly turns: ChatTurn[] = [];

	constructor(
		private readonly n8n: N8n,
		private readonly webhookId: string,
		readonly sessionId: string,
	) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		this.WebSocket = require(path.join(n8n.install.n8nModules, 'ws')) as WebSocketClass;
	}

	/** Sends a message as the chat page does; resolves once the chat's connection is open. */
	async send(chatInput: string): Promise<ChatTurn> {
		const response = await fetch(`${this.n8n.baseUrl}/webhook/${this.webhookId}/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId: this.sessionId, chatInput }),
		});
		const text = await response.text();
		if (response.status !== 200) throw new Error(`POST /webhook/${this.webhookId}/chat → ${response.status}: ${text}`);
		const started = JSON.parse(text) as { executionStarted?: boolean; executionId?: string; resumeToken?: string };
		if (!started.executionId) throw new Error(`The chat trigger started no execution: ${text}`);
		const query = new URLSearchParams({
			sessionId: this.sessionId,
			executionId: started.executionId,
			isPublic: 'true',
			...(started.resumeToken ? { token: started.resumeToken } : {}),
		});
		const socket = new this.WebSocket(`${this.n8n.baseUrl.replace(/^http/, 'ws')}/chat?${query.toString()}`);
		const turn = new ChatTurn(started.executionId, socket);
		await new Promise<void>((resolve, reject) => {
			socket.on('open', () => resolve());
			socket.on('error', reject);
		});
		this.turns.push(turn);
		return turn;
	}

	close(): void {
		for (const turn of this.turns) turn.close();
	}
}

/** Opens a review button's link as the chat page does when the reviewer clicks it. */
export async function click(button: { link: string }): Promise<{ status: number; body: string }> {
	const response = await fetch(button.link, { headers: { 'user-agent': BROWSER_UA } });
	return { status: response.status, body: await response.text() };
}
