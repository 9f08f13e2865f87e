// Package e2e holds the browser test of the built site: it builds the
// repository's own results/, content/, locales/ and templates/, serves the
// site on localhost under a project sub-path (as GitHub Pages serves
// https://ORG.github.io/REPO/), and drives headless Chromium over every page.
//
// The test is skipped when no Chromium or Chrome is installed; .ci/run
// installs Debian's chromium. PERFLAB_CHROMIUM names another binary, and
// PERFLAB_SCREENSHOTS=DIR saves a full-page screenshot of every page.
//
// It has no code besides the test.
package e2e
