/**
 * The code's layout rules (CONTRIBUTING.md): small files, a router that only routes, a ledger
 * that depends on neither node, no import circles anywhere, and the sandbox and the n8n harness
 * in tooling/, which the tests, the bench and the scripts share.
 */
import fs from 'fs';
import path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

function sources(dir: string): string[] {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.posix.join(dir, entry.name);
		if (entry.isDirectory()) return sources(relative);
		return entry.name.endsWith('.ts') ? [relative] : [];
	});
}

const files = [...sources('nodes'), ...sources('credentials')];
const lineCount = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1;

const TOOLING = ['tooling', 'bench', 'scripts'];
const SCRIPT_EXTENSIONS = ['.ts', '.js', '.mjs'];

function scripts(dir: string): string[] {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.posix.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : scripts(relative);
		return SCRIPT_EXTENSIONS.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts') ? [relative] : [];
	});
}

/** Relative imports, dynamic imports and requires of a script, resolved to files. */
function scriptImports(file: string): string[] {
	const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
	return [...text.matchAll(/(?:from\s+|import\(\s*|require\(\s*)'(\.[^']*)'/g)].flatMap(([, spec]) => {
		const target = path.posix.join(path.posix.dirname(file), spec);
		const candidates = [target, ...SCRIPT_EXTENSIONS.map((ext) => `${target}${ext}`), ...SCRIPT_EXTENSIONS.map((ext) => `${target}/index${ext}`)];
		const found = candidates.find((candidate) => fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile());
		return found ? [found] : [];
	});
}

function circlesIn(all: string[]): string[] {
	const circles: string[] = [];
	const state = new Map<string, 'open' | 'done'>();
	const visit = (file: string, trail: string[]) => {
		if (state.get(file) === 'done') return;
		if (state.get(file) === 'open') {
			circles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
			return;
		}
		state.set(file, 'open');
		for (const target of scriptImports(file)) visit(target, [...trail, file]);
		state.set(file, 'done');
	};
	for (const file of all) visit(file, []);
	return circles;
}

test('no file under nodes/ or credentials/ is over 300 lines, the router over 150', () => {
	expect(files.filter((file) => lineCount(file) > 300)).toEqual([]);
	expect(lineCount('nodes/WalletPayments/actions/router.ts')).toBeLessThanOrEqual(150);
});

test('the ledger imports nothing from either node', () => {
	const ledger = files.filter((file) => file.startsWith('nodes/shared/ledger/'));
	expect(ledger.length).toBeGreaterThan(5);
	const outside = ledger.flatMap((file) =>
		scriptImports(file)
			.filter((target) => !target.startsWith('nodes/shared/'))
			.map((target) => `${file} → ${target}`),
	);
	expect(outside).toEqual([]);
});

test('no import circles under nodes/', () => {
	expect(circlesIn(files)).toEqual([]);
});

test('every operation file states its kind with satisfies, and every operation is in the resources table', () => {
	const operationFiles = files.filter((file) => file.endsWith('.operation.ts'));
	expect(operationFiles.length).toBeGreaterThan(20);
	const undeclared = operationFiles.filter(
		(file) => !/^export const operation = \{[^}]*\} satisfies (Read|Write|Guarded)Operation;$/m.test(fs.readFileSync(path.join(ROOT, file), 'utf8')),
	);
	expect(undeclared).toEqual([]);
	const listed = operationFiles.filter((file) => {
		const index = fs.readFileSync(path.join(ROOT, path.posix.dirname(file), 'index.ts'), 'utf8');
		const name = path.posix.basename(file, '.operation.ts');
		return index.includes(`\t${name}: ${name}.operation,`);
	});
	expect(listed).toEqual(operationFiles);
});

test('no two files under nodes/ share a name (index.ts and <operation>.operation.ts aside)', () => {
	const names = files
		.filter((file) => file.startsWith('nodes/'))
		.map((file) => path.posix.basename(file))
		.filter((name) => name !== 'index.ts' && !name.endsWith('.operation.ts'));
	expect(names.filter((name, at) => names.indexOf(name) !== at)).toEqual([]);
});

test('the credential type is named once under nodes/ (shared/credential.ts), and read only there', () => {
	const naming = files.filter((file) => file.startsWith('nodes/')).filter((file) => fs.readFileSync(path.join(ROOT, file), 'utf8').includes("'walletPaymentsApi'"));
	expect(naming).toEqual(['nodes/shared/credential.ts']);
	const reading = files.filter((file) => fs.readFileSync(path.join(ROOT, file), 'utf8').includes('.getCredentials('));
	expect(reading).toEqual(['nodes/shared/credential.ts']);
});

test('the engine, payment controls, descriptions, input and output each have a folder of at most 6 files; no helpers/ grab bag', () => {
	const folders = fs.readdirSync(path.join(ROOT, 'nodes/WalletPayments'), { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => entry.name)
		.sort();
	expect(folders).toEqual(['actions', 'controls', 'descriptions', 'engine', 'input', 'methods', 'output', 'transport']);
	const crowded = folders.filter(
		(folder) =>
			fs.readdirSync(path.join(ROOT, 'nodes/WalletPayments', folder)).filter((name) => name.endsWith('.ts')).length > 6,
	);
	expect(crowded).toEqual([]);
});

test('no import circles anywhere: nodes/, credentials/, the tooling and the tests', () => {
	const all = ['nodes', 'credentials', ...TOOLING, 'test'].flatMap(scripts);
	expect(all.length).toBeGreaterThan(300);
	expect(circlesIn(all)).toEqual([]);
});

test('no file over 300 lines outside test/ (nodes/, credentials/, tooling/, bench/, scripts/)', () => {
	const all = ['nodes', 'credentials', ...TOOLING].flatMap(scripts);
	expect(all.filter((file) => lineCount(file) > 300)).toEqual([]);
});

test('bench/ and scripts/ use the sandbox and the n8n harness from tooling/, not from test/', () => {
	const reaching = ['bench', 'scripts', 'tooling']
		.flatMap(scripts)
		.flatMap((file) => scriptImports(file).filter((target) => target.startsWith('test/')).map((target) => `${file} → ${target}`));
	expect(reaching).toEqual([]);
});

test('the root: at most 22 entries in git, no jest config (they are in test/jest/)', () => {
	const ignored = new Set(['.git', 'node_modules', 'dist', 'coverage', '.e2e']);
	const entries = fs.readdirSync(ROOT).filter((name) => !ignored.has(name) && !name.endsWith('.tgz'));
	expect(entries.length).toBeLessThanOrEqual(22);
	expect(entries.filter((name) => /^jest\..*config|^jest\.config/.test(name))).toEqual([]);
	expect(fs.readdirSync(path.join(ROOT, 'test/jest')).filter((name) => name.endsWith('.config.js')).length).toBeGreaterThan(0);
});

/**
 * Source files tested under another name, with the test that covers them (no logic of their own:
 * `null`). Every other file under nodes/ has its test at the mirrored path: test/<path>.test.ts,
 * test/<path>.<aspect>.test.ts, or, for a file of a resource (actions/<resource>/), its resource's
 * test (test/nodes/WalletPayments/actions/<resource>.test.ts).
 */
const TESTED_ELSEWHERE: Record<string, string | null> = {
	'nodes/WalletPayments/actions/operation.ts': null,
	'nodes/WalletPayments/actions/resources.ts': 'test/project/layout.test.ts',
	'nodes/WalletPayments/descriptions/displayOptions.ts': 'test/nodes/WalletPayments/WalletPayments.node.test.ts',
	'nodes/WalletPayments/descriptions/fields.ts': 'test/nodes/WalletPayments/WalletPayments.node.test.ts',
	'nodes/WalletPayments/descriptions/locators.ts': 'test/nodes/WalletPayments/methods/listSearch.test.ts',
	'nodes/WalletPayments/descriptions/toolDescriptions.ts': 'test/nodes/WalletPayments/WalletPayments.node.test.ts',
	'nodes/WalletPayments/engine/exactlyOnce/output.ts': 'test/nodes/WalletPayments/engine/settlement.test.ts',
	'nodes/WalletPayments/engine/exactlyOnce/prepare.ts': 'test/nodes/WalletPayments/engine/exactlyOnce/pipeline.test.ts',
	'nodes/WalletPayments/engine/exactlyOnce/preview.ts': 'test/nodes/WalletPayments/controls/approval.test.ts',
	'nodes/WalletPayments/engine/exactlyOnce/run.ts': 'test/nodes/WalletPayments/engine/exactlyOnce/pipeline.test.ts',
	'nodes/WalletPayments/engine/itemLoop.ts': 'test/matrix/failures.test.ts',
	'nodes/WalletPayments/input/lists.ts': 'test/nodes/WalletPayments/actions/beneficiary.test.ts',
	'nodes/WalletPayments/methods/loadOptions.ts': 'test/nodes/WalletPayments/input/destination.test.ts',
	'nodes/WalletPayments/methods/resourceMapping.ts': 'test/nodes/WalletPayments/input/destination.test.ts',
	'nodes/WalletPayments/transport/request.ts': 'test/matrix/failures.test.ts',
	'nodes/WalletPaymentsTrigger/answers.ts': 'test/nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node.test.ts',
	'nodes/shared/credential.ts': 'test/matrix/secrets.test.ts',
	'nodes/shared/ledger/book.ts': 'test/nodes/shared/ledger/ledger.test.ts',
	'nodes/shared/ledger/earlierRun.ts': 'test/nodes/shared/ledger/takeover.test.ts',
	'nodes/shared/ledger/forgotten.ts': 'test/nodes/WalletPayments/engine/exactlyOnce/forgotten.test.ts',
	'nodes/shared/ledger/eventNotices.ts': 'test/nodes/shared/ledger/eventClaims.test.ts',
	'nodes/shared/ledger/index.ts': null,
	'nodes/shared/ledger/peek.ts': 'test/nodes/shared/ledger/ledger.test.ts',
	'nodes/shared/ledger/pool.ts': 'test/nodes/shared/ledger/ledger.test.ts',
	'nodes/shared/ledger/verify.ts': 'test/nodes/shared/ledger/ledger.test.ts',
};

test('every source file under nodes/ has a test a newcomer can find: at its mirrored path, or listed here', () => {
	const exists = (file: string) => fs.existsSync(path.join(ROOT, file));
	const mirrored = (file: string) => {
		const base = `test/${file.replace(/\.ts$/, '')}`;
		const folder = path.posix.dirname(base);
		const aspects = exists(folder) && fs.readdirSync(path.join(ROOT, folder)).some((name) => name.startsWith(`${path.posix.basename(base)}.`) && name.endsWith('.test.ts'));
		return exists(`${base}.test.ts`) || aspects || (file.startsWith('nodes/WalletPayments/actions/') && exists(`${folder}.test.ts`));
	};
	const sourceFiles = files.filter((file) => file.startsWith('nodes/') && (!file.endsWith('/index.ts') || file === 'nodes/shared/ledger/index.ts'));
	expect(sourceFiles.filter((file) => !mirrored(file) && !(file in TESTED_ELSEWHERE))).toEqual([]);
	expect(Object.keys(TESTED_ELSEWHERE).filter((file) => !exists(file) || mirrored(file))).toEqual([]);
	expect(Object.values(TESTED_ELSEWHERE).filter((test): test is string => test !== null && !exists(test))).toEqual([]);
});

test('test helpers by concern: test/helpers/ holds folders (n8n, sandbox, trigger) of at most 6 files', () => {
	const entries = fs.readdirSync(path.join(ROOT, 'test/helpers'), { withFileTypes: true });
	expect(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
	const crowded = entries.filter((entry) => fs.readdirSync(path.join(ROOT, 'test/helpers', entry.name)).length > 6);
	expect(crowded.map((entry) => entry.name)).toEqual([]);
});
