const { src, dest, parallel } = require('gulp');

// n8n loads node and credential icons from the built package: copy the SVGs next to dist/.
function copyIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

// The codex file (<Node>.node.json) sits beside each built node file.
function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports['build:icons'] = parallel(copyIcons, copyCodex);
