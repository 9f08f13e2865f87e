package addrun

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAddStaysInsideRunFolder: a merged study.yaml whose workload id climbs
// out of the run folder makes perflab add refuse, at the id's line, and
// write nothing anywhere.
func TestAddStaysInsideRunFolder(t *testing.T) {
	results := tree(t)
	root := filepath.Dir(results)
	file := filepath.Join(results, "ex", "study.yaml")
	hostile := strings.Replace(studyYAML, "  - id: random-1k\n", "  - id: ../../../../escaped\n", 1)
	writeTest(t, file, hostile)
	log := writeTest(t, filepath.Join(t.TempDir(), "in.log"), random1kBlock)
	before := listTree(t, root)
	_, err := Add(Options{Results: results, Study: "ex", Run: "x", Workload: "../../../../escaped", Logs: []string{log}})
	want := filepath.ToSlash(file) + ":24: workload id \"../../../../escaped\" is not a valid id"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
	if after := listTree(t, root); after != before {
		t.Errorf("perflab add wrote files:\n%s\nwas:\n%s", after, before)
	}
}

// TestWriteRefusesEscapingName: the last guard, for a plan whose file name
// leaves the run folder however it was made.
func TestWriteRefusesEscapingName(t *testing.T) {
	cases := []Log{{Workload: "../x"}, {Workload: "a/../../x"}, {Workload: "/etc/x"}, {Workload: "a\\..\\x"},
		{Workload: strings.Repeat("a", 256)}, {Workload: "w", History: "../../.."}}
	for _, lg := range cases {
		name := lg.FileName()
		results := tree(t)
		root := filepath.Dir(results)
		before := listTree(t, root)
		lg.raw = []byte("data")
		p := &Plan{Dir: filepath.Join(results, "ex", "runs", "x"), RunYAML: []byte("name: x\n"), Logs: []Log{lg}}
		err := write(Options{Results: results, Study: "ex", Run: "x"}, p)
		if err == nil || !strings.Contains(err.Error(), "must stay inside it") {
			t.Errorf("%q: error %v, want a refusal", name, err)
		}
		if after := listTree(t, root); after != before {
			t.Errorf("%q: write left files:\n%s\nwas:\n%s", name, after, before)
		}
	}
}
