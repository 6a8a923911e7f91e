/**
 * A throw-away self-signed certificate for serving the sandbox over HTTPS (`tls` option), made at
 * run time with the `openssl` command (Node cannot make certificates). Nothing is kept in the
 * repository: the caller chooses the folder and removes it.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

export interface SelfSignedCertificate {
	/** PEM, for `startSandbox({ tls: { key, cert } })`. */
	key: string;
	cert: string;
	/** The certificate's file: give it to a client as a trusted CA (e.g. NODE_EXTRA_CA_CERTS). */
	certFile: string;
	keyFile: string;
}

/**
 * An RSA 2048 key and a certificate for 127.0.0.1 and localhost, valid for a day, written to
 * `dir` as key.pem and cert.pem. Throws when `openssl` is not on the PATH.
 */
export function selfSignedCertificate(dir: string): SelfSignedCertificate {
	fs.mkdirSync(dir, { recursive: true });
	const keyFile = path.join(dir, 'key.pem');
	const certFile = path.join(dir, 'cert.pem');
	const result = spawnSync(
		'openssl',
		[
			'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '1',
			'-subj', '/CN=localhost',
			'-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
			'-keyout', keyFile, '-out', certFile,
		],
		{ encoding: 'utf8' },
	);
	if (result.error || result.status !== 0) {
		const why = result.error ? result.error.message : result.stderr;
		throw new Error(`openssl could not make a self-signed certificate: ${why}`);
	}
	return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8'), certFile, keyFile };
}
