/**
 * The pictures under docs/screenshots/ match the product: each one was taken (`npm run
 * screenshots`) from the node descriptions and the example workflow it shows as they are now,
 * and is the file that run recorded (docs/screenshots/manifest.json). A change to a node's
 * description (a field, an option, a hint) or to an example fails this test until the pictures
 * are taken again.
 */
import * as fs from 'fs';
import * as path from 'path';

import { pngHash, readManifest, shows, SHOT_EXAMPLES } from '../../tooling/demo/screenshotManifest';

const DIR = path.join(__dirname, '..', '..', 'docs', 'screenshots');
const manifest = readManifest(DIR);
const pictures = fs.readdirSync(DIR).filter((file) => file.endsWith('.png')).sort();

describe('screenshots (docs/screenshots)', () => {
	test('every picture is one `npm run screenshots` takes, and every one it takes is there', () => {
		expect(pictures).toEqual(Object.keys(SHOT_EXAMPLES).map((name) => `${name}.png`).sort());
		expect(Object.keys(manifest).sort()).toEqual(pictures);
	});

	test.each(pictures)('%s shows the node descriptions and the example as they are now', (file) => {
		const name = file.replace(/\.png$/, '');
		const entry = manifest[file];
		expect(entry).toBeDefined();
		expect([file, pngHash(path.join(DIR, file))]).toEqual([file, entry.png]);
		if (entry.shows !== shows(name)) {
			throw new Error(`${file} shows a node description or example that has changed since it was taken: run \`npm run screenshots\``);
		}
	});
});
