/**
 * A mail server on this machine for the demo and the tests: takes every message n8n's Send Email
 * node sends over plain SMTP (no TLS, no login) and keeps it, so that nothing leaves the machine
 * and a test (or the demo's console) can read what the customer or the approver would get.
 */
import * as net from 'net';
import type { AddressInfo } from 'net';

import type { WorkflowJson } from '../n8n/n8n';

export interface SmtpSink {
	port: number;
	/** The messages received, each as its raw text (headers and body). */
	messages: string[];
	close(): Promise<void>;
}

/** An n8n SMTP credential (`type: 'smtp'`) that sends to the sink. */
export const smtpCredential = (credential: { id: string; name: string }, sink: SmtpSink) => ({
	...credential,
	type: 'smtp',
	data: { host: '127.0.0.1', port: sink.port, secure: false, disableStartTls: true, user: '', password: '' },
});

/** n8n's Send Email node. */
export const SEND_EMAIL_TYPE = 'n8n-nodes-base.emailSend';

/** An example's Send Email node (off in the examples) turned on, with that credential. */
export function withMail(node: WorkflowJson['nodes'][number], credential: { id: string; name: string }): WorkflowJson['nodes'][number] {
	if (node.type !== SEND_EMAIL_TYPE) return node;
	return { ...node, disabled: false, credentials: { smtp: { id: credential.id, name: credential.name } } };
}

/** Starts the sink; `onMessage` hears of each message as it arrives. */
export async function startSmtpSink(onMessage: (raw: string) => void = () => undefined): Promise<SmtpSink> {
	const messages: string[] = [];
	const server = net.createServer((socket) => {
		let buffer = '';
		let data: string[] | undefined;
		const say = (line: string) => socket.write(`${line}\r\n`);
		say('220 sink ESMTP');
		socket.on('data', (chunk) => {
			buffer += chunk.toString('utf8');
			let end: number;
			while ((end = buffer.indexOf('\r\n')) !== -1) {
				const line = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				if (data) {
					if (line === '.') {
						const message = data.join('\r\n');
						messages.push(message);
						onMessage(message);
						data = undefined;
						say('250 OK: queued');
					} else data.push(line.startsWith('..') ? line.slice(1) : line);
					continue;
				}
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO') say('250 sink');
				else if (verb === 'DATA') {
					data = [];
					say('354 End data with <CR><LF>.<CR><LF>');
				} else if (verb === 'QUIT') {
					say('221 Bye');
					socket.end();
				} else say('250 OK');
			}
		});
		socket.on('error', () => undefined);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		messages,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** A plain-text message's recipient, subject and body, its transfer encoding undone. */
export function readMail(raw: string): { to: string; subject: string; body: string } {
	const [head, ...rest] = raw.split('\r\n\r\n');
	const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
	const body = rest.join('\r\n\r\n');
	const encoding = header('Content-Transfer-Encoding').toLowerCase();
	const decoded =
		encoding === 'base64'
			? Buffer.from(body, 'base64').toString('utf8')
			: encoding === 'quoted-printable'
				? Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8')
				: body;
	return { to: header('To'), subject: header('Subject'), body: decoded.replace(/\r\n/g, '\n') };
}

/** A message's attached file, by name, decoded (nodemailer sends it as a base64 MIME part); undefined when absent. */
export function attachmentOf(raw: string, fileName: string): string | undefined {
	const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
	if (boundary === undefined) return undefined;
	for (const part of raw.split(`--${boundary}`)) {
		const [head, ...rest] = part.split('\r\n\r\n');
		if (!new RegExp(`filename="?${fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?`, 'i').test(head)) continue;
		const body = rest.join('\r\n\r\n').trim();
		return /Content-Transfer-Encoding:\s*base64/i.test(head) ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body;
	}
	return undefined;
}
