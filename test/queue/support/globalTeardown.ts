/**
 * jest globalTeardown of the queue-mode suite: PostgreSQL and Redis stopped by their PIDs and
 * their folders removed, then the e2e suite's teardown (no process left inside the run folder,
 * the folder removed).
 */
import e2eGlobalTeardown from '../../e2e/support/globalTeardown';
import type { Service } from './services';

const SERVICES_KEY = '__walletQueueServices';

export default async function globalTeardown(): Promise<void> {
	const services = ((globalThis as Record<string, unknown>)[SERVICES_KEY] as Service[] | undefined) ?? [];
	for (const service of [...services].reverse()) {
		await service.stop();
		process.stderr.write(`[queue] ${service.name} (pid ${service.pid}) stopped, ${service.dataDir} removed\n`);
	}
	services.length = 0;
	await e2eGlobalTeardown();
}
