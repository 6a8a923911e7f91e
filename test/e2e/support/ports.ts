import * as net from 'net';

/**
 * A port that is free right now on 127.0.0.1: bind port 0, read what the kernel gave, release.
 * Each call gets a port of its own, so two runs on one machine (or two n8n in one run: HTTP and
 * task broker) never pick the same fixed port.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.once('error', reject);
		server.listen({ host, port: 0, exclusive: true }, () => {
			const address = server.address();
			if (!address || typeof address === 'string') {
				server.close();
				reject(new Error('Could not read the bound port'));
				return;
			}
			server.close(() => resolve(address.port));
		});
	});
}

/** Several distinct free ports (held together while picking so they cannot repeat). */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
	const servers: net.Server[] = [];
	try {
		const ports: number[] = [];
		for (let i = 0; i < count; i++) {
			const server = net.createServer();
			servers.push(server);
			ports.push(
				await new Promise<number>((resolve, reject) => {
					server.once('error', reject);
					server.listen({ host, port: 0, exclusive: true }, () => {
						const address = server.address();
						if (!address || typeof address === 'string') reject(new Error('Could not read the bound port'));
						else resolve(address.port);
					});
				}),
			);
		}
		return ports;
	} finally {
		await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
	}
}
