/**
 * A network link with a round trip, for the benchmark: a TCP relay in front of a sandbox that
 * delays every byte by `oneWayMs` in each direction, and the first bytes of a new connection by
 * one round trip more (what the TCP handshake costs before a client can send anything). Loopback
 * has no round trips, so it cannot show what a new connection costs on a real network; through
 * this relay, a request on a kept-alive connection takes one round trip and a new HTTPS
 * connection (TCP, then TLS 1.3) three.
 */
import net from 'net';

export interface Link {
	/** The relay's own address: use `${protocol}://127.0.0.1:${port}` in place of the sandbox's. */
	port: number;
	roundTripMs: number;
	close(): Promise<void>;
}

/** Delivers chunks to `socket` `delayMs` after they arrived, in arrival order. */
function delayedWriter(socket: net.Socket, timers: Set<NodeJS.Timeout>) {
	const queue: Array<{ due: number; chunk: Buffer | null }> = [];
	let timer: NodeJS.Timeout | undefined;
	const drain = () => {
		timer = undefined;
		const now = performance.now();
		while (queue.length > 0 && queue[0].due <= now) {
			const { chunk } = queue.shift()!;
			if (chunk === null) socket.end();
			else if (!socket.destroyed) socket.write(chunk);
		}
		if (queue.length > 0) schedule();
	};
	const schedule = () => {
		if (timer) return;
		const fire: NodeJS.Timeout = setTimeout(() => {
			timers.delete(fire);
			drain();
		}, Math.max(0, queue[0].due - performance.now()));
		timer = fire;
		timers.add(fire);
	};
	return {
		/** `chunk` null ends the socket (after everything queued before it). */
		push(chunk: Buffer | null, delayMs: number) {
			const due = Math.max(performance.now() + delayMs, queue.length ? queue[queue.length - 1].due : 0);
			queue.push({ due, chunk });
			schedule();
		},
	};
}

export async function startLink(target: { host: string; port: number }, oneWayMs: number): Promise<Link> {
	const sockets = new Set<net.Socket>();
	const timers = new Set<NodeJS.Timeout>();
	const server = net.createServer((client) => {
		const upstream = net.connect(target.port, target.host);
		for (const socket of [client, upstream]) {
			socket.setNoDelay(true);
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
			socket.on('error', () => {
				client.destroy();
				upstream.destroy();
			});
		}
		const toUpstream = delayedWriter(upstream, timers);
		const toClient = delayedWriter(client, timers);
		let first = true;
		client.on('data', (chunk: Buffer) => {
			// The handshake's round trip comes before the first bytes can leave the client.
			toUpstream.push(chunk, first ? 3 * oneWayMs : oneWayMs);
			first = false;
		});
		upstream.on('data', (chunk: Buffer) => toClient.push(chunk, oneWayMs));
		// An end (or close) travels the link too: after everything sent before it.
		client.on('close', () => toUpstream.push(null, oneWayMs));
		upstream.on('close', () => toClient.push(null, oneWayMs));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as net.AddressInfo).port,
		roundTripMs: 2 * oneWayMs,
		close: () =>
			new Promise<void>((resolve) => {
				for (const timer of timers) clearTimeout(timer);
				server.close(() => resolve());
				for (const socket of sockets) socket.destroy();
			}),
	};
}
