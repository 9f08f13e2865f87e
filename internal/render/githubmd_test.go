package render

import "testing"

// TestForGitHubLogLinks: a link to a log line lands on an anchor before the
// log's block, or on the repository's page of the log with --repo-url;
// the text of a fenced block (a log, hostile) is copied untouched.
func TestForGitHubLogLinks(t *testing.T) {
	in := "[1](#Lf430bec9-10 \"a.log:10 · x\") [2](#Lf430bec9-12) [3](#Lf430bec9-99)\n\n" +
		"```log @Lf430bec9:1:20 Raw\n## inside {#x}\n[y](#Lf430bec9-3 \"a · b\")\n```\n"
	want := "[1](#Lf430bec9-10 \"a.log:10\") [2](#Lf430bec9-12) [3](#Lf430bec9-99)\n\n" +
		"<a id=\"Lf430bec9-10\"></a><a id=\"Lf430bec9-12\"></a>\n\n" +
		"```log @Lf430bec9:1:20 Raw\n## inside {#x}\n[y](#Lf430bec9-3 \"a · b\")\n```\n"
	if got := string(forGitHub([]byte(in), logLinks{})); got != want {
		t.Errorf("without --repo-url:\n%s\nwant\n%s", got, want)
	}
	links := logLinks{repoURL: "https://github.com/o/r", paths: map[string]string{"Lf430bec9": "results/s/runs/a b/x.log"}}
	want = "[1](https://github.com/o/r/blob/HEAD/results/s/runs/a%20b/x.log#L10 \"a.log:10\") " +
		"[2](https://github.com/o/r/blob/HEAD/results/s/runs/a%20b/x.log#L12) " +
		"[3](https://github.com/o/r/blob/HEAD/results/s/runs/a%20b/x.log#L99)\n\n" +
		"```log @Lf430bec9:1:20 Raw\n## inside {#x}\n[y](#Lf430bec9-3 \"a · b\")\n```\n"
	if got := string(forGitHub([]byte(in), links)); got != want {
		t.Errorf("with --repo-url:\n%s\nwant\n%s", got, want)
	}
}
