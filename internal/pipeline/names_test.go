package pipeline

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/render"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
)

// seedStudy is the repository study the tests below copy and rename.
const seedStudy = "qwen3-32b-a100"

// oneStudyTree copies the repository's locales, templates and one study,
// renamed id, with its prose, into a temporary tree. ok is false when the
// file system cannot hold a folder of that name.
func oneStudyTree(t *testing.T, id string) (d Dirs, ok bool) {
	t.Helper()
	dst := t.TempDir()
	d = Dirs{Results: filepath.Join(dst, "results"), Content: filepath.Join(dst, "content"),
		Locales: filepath.Join(dst, "locales"), Templates: filepath.Join(dst, "templates")}
	cp := func(from, to string) {
		t.Helper()
		if out, err := exec.Command("cp", "-r", from, to).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
	}
	cp("../../locales", d.Locales)
	cp("../../templates", d.Templates)
	if err := os.MkdirAll(d.Results, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(d.Results, id), 0o755); err != nil {
		return d, false
	}
	cp("../../results/"+seedStudy+"/.", filepath.Join(d.Results, id))
	for _, l := range render.Languages {
		if err := os.MkdirAll(filepath.Join(d.Content, l.Code), 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join("../../content", l.Code, seedStudy+".md"))
		if err != nil {
			t.Fatal(err)
		}
		if os.WriteFile(filepath.Join(d.Content, l.Code, id+".md"), data, 0o644) != nil {
			return d, false
		}
	}
	return d, true
}

// renameIn replaces old by new in a study's study.yaml and prose, and in
// the names of its logs: a workload or step renamed everywhere. ok is
// false when the file system cannot hold a log of that name.
func renameIn(t *testing.T, d Dirs, id, old, new string) (ok bool) {
	t.Helper()
	files := []string{filepath.Join(d.Results, id, study.StudyFile)}
	for _, l := range render.Languages {
		files = append(files, filepath.Join(d.Content, l.Code, id+".md"))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(strings.ReplaceAll(string(data), old, new)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(d.Results, id, "runs", "*", old+".log"))
	for _, lg := range logs {
		if os.Rename(lg, filepath.Join(filepath.Dir(lg), new+".log")) != nil {
			return false
		}
	}
	return true
}

// buildToDisk builds d into a new folder as perflab build does, sitemaps
// included, so that what only a real file system refuses (a file where a
// folder must go, a name too long) fails here too.
func buildToDisk(t *testing.T, d Dirs) error {
	t.Helper()
	d.BaseURL = "https://example.org/perflab/"
	w, err := site.Create(filepath.Join(t.TempDir(), "site"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(d, w); err != nil {
		w.Abort()
		return err
	}
	return w.Commit()
}

// schemaErrors lists check's unacknowledged errors as "file:line: message".
func schemaErrors(p *Project) []string {
	var out []string
	for _, diag := range p.Diagnostics() {
		if diag.Severity == check.Error && !diag.Acknowledged() {
			out = append(out, diag.String())
		}
	}
	return out
}

// TestReservedStudyIDsMatchLayout derives the names a study cannot take
// from a built site: every file or folder the build puts beside the
// studies' own, in a language folder or in data/, must be refused as a
// study id, and every reserved id must be such a name.
func TestReservedStudyIDsMatchLayout(t *testing.T) {
	t.Parallel()
	d, _ := oneStudyTree(t, seedStudy)
	d.BaseURL = "https://example.org/"
	_, files := buildRepo(t, d)
	derived := map[string]bool{}
	for _, name := range files.Names() {
		dir, rest, ok := strings.Cut(name, "/")
		if !ok || rest == seedStudy+".md" || strings.HasPrefix(rest, seedStudy+"/") || strings.HasPrefix(rest, seedStudy+".") {
			continue
		}
		first, _, _ := strings.Cut(rest, "/")
		if dir == "data" {
			first = strings.TrimSuffix(strings.TrimSuffix(first, ".csv"), ".json")
		} else if !isLanguage(dir) {
			continue
		}
		derived[first] = true
		if study.ValidID("study", first) == nil {
			t.Errorf("the site holds %s, yet %q is accepted as a study id", name, first)
		}
	}
	for _, r := range study.ReservedStudyIDs {
		if !derived[r] {
			t.Errorf("reserved study id %q is no file of the site (derived: %v)", r, derived)
		}
	}
	if len(derived) < 3 {
		t.Fatalf("only %v derived from the site", derived)
	}
}

// TestHostileNamesFailCheck: every name the build cannot build, or that
// would collide with another file of the site, fails perflab check on the
// file and line that gives it.
func TestHostileNamesFailCheck(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 250)
	cases := []struct {
		name            string
		study, old, new string // the study's id, and an id renamed in it
		at, msg         string // where check says what
	}{
		{"study all", "all", "", "", "results/all/study.yaml:1", `study id "all" is reserved`},
		{"study index.html", "index.html", "", "", "results/index.html/study.yaml:1", "is reserved"},
		{"study sitemap.xml", "sitemap.xml", "", "", "results/sitemap.xml/study.yaml:1", "is reserved"},
		{"study named as a Markdown report", "x.md", "", "", "results/x.md/study.yaml:1", `ends in ".md"`},
		{"long study id", strings.Repeat("s", 120), "", "", "study.yaml:1", "bytes long; the limit is 64"},
		{"upper-case study id", "Qwen3", "", "", "results/Qwen3/study.yaml:1", "is not a valid id"},
		{"long step id", seedStudy, "max-batched-tokens", long, "study.yaml:62", "bytes long; the limit is 64"},
		{"step id with ../", seedStudy, "max-batched-tokens", "../../x", "study.yaml:62", `step id "../../x" is not a valid id`},
		{"step id with markup", seedStudy, "max-batched-tokens", "x)-[a](//evil.example)", "study.yaml:62", "is not a valid id"},
		{"upper-case workload id", seedStudy, "random-32k", "Random-32K", "study.yaml:49", `workload id "Random-32K" is not a valid id`},
		{"decomposed workload id", seedStudy, "random-32k", "cafe\u0301", "study.yaml:49", "is not a valid id"},
		{"long workload id", seedStudy, "random-32k", strings.Repeat("w", 65), "study.yaml:49", "bytes long; the limit is 64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, ok := oneStudyTree(t, c.study)
			if !ok {
				t.Fatalf("cannot make a study folder %q", c.study)
			}
			if c.old != "" && !renameIn(t, d, c.study, c.old, c.new) {
				t.Fatalf("cannot rename %s to %q", c.old, c.new)
			}
			p, err := loadHeld(d)
			if err != nil {
				t.Fatal(err)
			}
			errs := schemaErrors(p)
			for _, e := range errs {
				if strings.Contains(e, c.at+": ") && strings.Contains(e, c.msg) {
					return
				}
			}
			t.Errorf("no error at %s saying %q among:\n%s", c.at, c.msg, strings.Join(errs, "\n"))
		})
	}
}

// hostileID draws an id: a name the site layout uses, a long one of the
// characters ids may hold, or one with pieces that file systems, URLs and
// Markdown treat specially.
func hostileID(r *rand.Rand) string {
	special := []string{"all", "index.html", "sitemap.xml", "en", "data", "x.md", "assets", "404.html", "style.css", ".", "..", "-a", "_a"}
	pieces := []string{"a", "z", "q", "0", "7", ".", "-", "_", "A", "\u00e9", "e\u0301", "..", "/", "%2e", "~"}
	var b strings.Builder
	switch r.IntN(3) {
	case 0:
		return special[r.IntN(len(special))]
	case 1:
		pieces = pieces[:8] // what the grammar allows
		b.WriteString("a")
	}
	n := 1 + r.IntN(12)
	if r.IntN(2) == 0 {
		n = 40 + r.IntN(220)
	}
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestWhatCheckAcceptsBuilds is a property: for hostile study, step and
// workload ids, whatever perflab check accepts, perflab build builds
// (with --base-url, on a real file system).
func TestWhatCheckAcceptsBuilds(t *testing.T) {
	t.Parallel()
	type draw struct{ kind, id string }
	var draws []draw
	// The names the layout uses, and ids either side of the length limit
	// and past the file system's, then random ones.
	for _, id := range []string{"all", "index.html", "sitemap.xml", "en", "data", "x.md", "assets", "404.html", ".."} {
		draws = append(draws, draw{"study", id})
	}
	for _, kind := range []string{"study", "step", "workload"} {
		for _, n := range []int{study.MaxIDLength, study.MaxIDLength + 1, 251} {
			draws = append(draws, draw{kind, strings.Repeat("a", n)})
		}
	}
	rounds := 12
	if testing.Short() {
		rounds = 3
	}
	r := rand.New(rand.NewPCG(26, 2))
	for i := range rounds {
		draws = append(draws, draw{[]string{"study", "step", "workload"}[i%3], hostileID(r)})
	}
	accepted, refused := 0, 0
	for _, dr := range draws {
		kind, id := dr.kind, dr.id
		studyID, old := seedStudy, map[string]string{"step": "max-batched-tokens", "workload": "random-32k"}[kind]
		if kind == "study" {
			studyID = id
		}
		d, ok := oneStudyTree(t, studyID)
		if !ok {
			continue // no such folder can exist
		}
		if old != "" && !renameIn(t, d, studyID, old, id) {
			continue // no such log can exist
		}
		p, err := loadHeld(d)
		if err != nil {
			t.Fatalf("%s id %q: %v", kind, id, err)
		}
		if p.Failed() {
			refused++
			continue
		}
		accepted++
		if err := buildToDisk(t, d); err != nil {
			t.Errorf("check accepts %s id %q, but the build fails: %v", kind, id, err)
		}
	}
	t.Logf("%d accepted and built, %d refused by check", accepted, refused)
	if accepted == 0 || refused == 0 {
		t.Fatalf("%d accepted, %d refused: the ids drawn test nothing", accepted, refused)
	}
}
