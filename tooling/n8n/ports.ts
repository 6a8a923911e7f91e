import * as net from 'net';

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
