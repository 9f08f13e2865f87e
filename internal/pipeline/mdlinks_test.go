package pipeline

import (
	"regexp"
	"strings"
	"testing"
)

var (
	inPageLink = regexp.MustCompile(`\]\(#([^ )]+)`)
	anchor     = regexp.MustCompile(`<a id="([^"]+)"></a>`)
	blobLink   = regexp.MustCompile(`\]\((https://github\.com/o/r/blob/HEAD/(results/[^ )#]+)#L(\d+)) "([^"]*)"\)`)
)

// TestMarkdownLinksResolve: every in-page link of every built Markdown
// file (what GitHub shows of a report) has its anchor in the file; with
// --repo-url a figure links to its log line in the repository instead, in
// the log its title names.
func TestMarkdownLinksResolve(t *testing.T) {
	t.Parallel()
	for _, repoURL := range []string{"", "https://github.com/o/r"} {
		d := repoDirs
		d.RepoURL = repoURL
		_, files := buildRepo(t, d)
		checked := 0
		for _, name := range files.Names() {
			if !strings.HasSuffix(name, ".md") {
				continue
			}
			md := string(files[name])
			ids := map[string]bool{}
			for _, m := range anchor.FindAllStringSubmatch(md, -1) {
				ids[m[1]] = true
			}
			for _, m := range inPageLink.FindAllStringSubmatch(md, -1) {
				checked++
				if !ids[m[1]] {
					t.Errorf("%s (--repo-url %q): a link to #%s, which the file does not contain", name, repoURL, m[1])
				}
				if repoURL != "" && regexp.MustCompile(`^L[0-9a-f]{8}-\d+$`).MatchString(m[1]) {
					t.Errorf("%s: a figure links to #%s in the file although --repo-url is given", name, m[1])
				}
			}
			if repoURL == "" {
				continue
			}
			blobs := blobLink.FindAllStringSubmatch(md, -1)
			if len(blobs) == 0 {
				t.Errorf("%s: no figure links to its log in the repository", name)
			}
			for _, m := range blobs {
				if !strings.Contains(m[4], m[2]+":") {
					t.Errorf("%s: %s, titled %q, is not the log its title names", name, m[1], m[4])
				}
			}
		}
		if checked == 0 {
			t.Errorf("--repo-url %q: no in-page link checked", repoURL)
		}
	}
}
