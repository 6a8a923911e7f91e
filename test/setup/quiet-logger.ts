/**
 * n8n-core logs every node error through its Logger, which prints to the console. The tests
 * assert errors themselves, so the logger is silenced here; suites that inspect log lines (the
 * secret-hygiene suite) install their own capturing logger.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { LoggerProxy } from 'n8n-workflow';

const silent = {
	error: () => {},
	warn: () => {},
	info: () => {},
	debug: () => {},
	verbose: () => {},
	scoped: () => silent,
};

Container.set(Logger, silent as unknown as Logger);
LoggerProxy.init(silent as unknown as Logger);
