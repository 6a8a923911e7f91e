/**
 * A scripted chat model: a local OpenAI-compatible server (`POST <url>/chat/completions`) that an
 * n8n OpenAI credential's Base URL points at. The test says what the model answers, turn by turn,
 * as a function of what n8n sent it (the messages so far and the tools offered); every request is
 * recorded so the test can check what the agent was told (tool descriptions, tool results,
 * refusals, errors). No outside service is called.
 */
import { randomUUID } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool';
	content: string | null | Array<{ type: string; text?: string }>;
	tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface ChatTool {
	type: 'function';
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: ChatTool[];
	stream?: boolean;
	[key: string]: unknown;
}

/** What the model answers: text, or one or more tool calls. */
export type Reply = { text: string } | { toolCalls: Array<{ name: string; args: Record<string, unknown> }> };

/** A turn of the script: the answer, made from the request (e.g. after reading a tool result). */
export type Turn = Reply | ((request: ChatRequest) => Reply);

/** The text of a message's content. */
export function textOf(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	if (Array.isArray(message.content)) return message.content.map((part) => part.text ?? '').join('');
	return '';
}

export class ScriptedModel {
	readonly requests: ChatRequest[] = [];
	private readonly turns: Turn[] = [];
	private server?: http.Server;
	url = '';

	/** `fallback`: the answer when no scripted turn is left (the demo's rule-based model). */
	constructor(private readonly fallback?: (request: ChatRequest) => Reply) {}

	/** Starts the server on 127.0.0.1 (a free port); `url` is the Base URL for the credential. */
	async start(): Promise<this> {
		this.server = http.createServer((req, res) => void this.handle(req, res));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
		return this;
	}

	async close(): Promise<void> {
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
		this.server = undefined;
	}

	/** Queues answers for the next requests, in order. */
	script(...turns: Turn[]): void {
		this.turns.push(...turns);
	}

	/** Answers queued but not yet asked for. */
	get pending(): number {
		return this.turns.length;
	}

	/** The requests from `index` on (e.g. those of one conversation turn). */
	since(index: number): ChatRequest[] {
		return this.requests.slice(index);
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: `The scripted model serves POST /v1/chat/completions, not ${req.method} ${req.url}` } }));
			return;
		}
		const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
		this.requests.push(request);
		const turn = this.turns.shift() ?? this.fallback;
		if (!turn) {
			res.writeHead(500, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: 'The scripted model has no answer left for this request' } }));
			return;
		}
		let reply: Reply;
		try {
			reply = typeof turn === 'function' ? turn(request) : turn;
		} catch (error) {
			res.writeHead(500, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: `Script error: ${(error as Error).message}` } }));
			return;
		}
		const message =
			'text' in reply
				? { role: 'assistant', content: reply.text }
				: {
						role: 'assistant',
						content: null,
						tool_calls: reply.toolCalls.map((call) => ({
							id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
							type: 'function',
							function: { name: call.name, arguments: JSON.stringify(call.args) },
						})),
					};
		const finish = 'text' in reply ? 'stop' : 'tool_calls';
		const id = `chatcmpl-${randomUUID()}`;
		const created = Math.floor(Date.now() / 1000);
		const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
		if (request.stream) {
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			const delta =
				'text' in reply
					? { role: 'assistant', content: reply.text }
					: {
							role: 'assistant',
							content: null,
							tool_calls: (message.tool_calls ?? []).map((call, index) => ({ index, ...call })),
						};
			const chunk = (body: unknown) => res.write(`data: ${JSON.stringify(body)}\n\n`);
			chunk({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta, finish_reason: null }] });
			chunk({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage });
			res.end('data: [DONE]\n\n');
			return;
		}
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				id,
				object: 'chat.completion',
				created,
				model: request.model,
				choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
				usage,
			}),
		);
	}
}

/** The last message of a request, and whether it is a tool's result. */
export function lastMessage(request: ChatRequest): ChatMessage {
	return request.messages[request.messages.length - 1];
}

/** Every tool result the model has been given in a request, as text. */
export function toolResults(request: ChatRequest): string[] {
	return request.messages.filter((m) => m.role === 'tool').map(textOf);
}
