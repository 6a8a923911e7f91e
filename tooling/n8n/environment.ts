/** What an n8n process may see of this process's environment (nothing else leaks in). */
import * as path from 'path';

import type { InstallPaths } from './install';

/** Variables passed through from the environment (nothing else leaks in, e.g. jest's NODE_ENV). */
const PASS_THROUGH = ['HOME', 'USER', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'SHELL', 'TERM'];
/** What programs need on Windows (absent elsewhere). */
const PASS_THROUGH_WINDOWS = ['USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'SystemRoot', 'ComSpec', 'PATHEXT', 'TEMP', 'TMP'];
/**
 * How this machine reaches the npm registry (a proxy, its certificate authority): n8n runs npm for
 * its Community Nodes page (`npm outdated`), which otherwise waits about 70 s for a registry it
 * cannot verify.
 */
const PASS_THROUGH_NETWORK = [
	'NODE_EXTRA_CA_CERTS',
	'SSL_CERT_FILE',
	'SSL_CERT_DIR',
	'HTTP_PROXY',
	'HTTPS_PROXY',
	'NO_PROXY',
	'http_proxy',
	'https_proxy',
	'no_proxy',
];

/** The passed-through variables, with the installed Node first on PATH. */
export function baseEnv(install: InstallPaths): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const name of [...PASS_THROUGH, ...PASS_THROUGH_WINDOWS, ...PASS_THROUGH_NETWORK]) if (process.env[name] !== undefined) env[name] = process.env[name];
	env.PATH = `${install.nodeBinDir}${path.delimiter}${process.env.PATH ?? ''}`;
	return env;
}
