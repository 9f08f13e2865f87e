package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/downloads"
)

// TestEvidence: every hash in a study's evidence.json is that of the file
// it names, on disk or among the downloads, and every raw log is listed.
func TestEvidence(t *testing.T) {
	t.Parallel()
	p, files := buildRepo(t, repoDirs)
	for _, res := range p.Results {
		s := res.Study
		var ev Evidence
		if err := json.Unmarshal(files["data/"+s.ID+".evidence.json"], &ev); err != nil {
			t.Fatalf("%s: %v", s.ID, err)
		}
		reports := 0
		for name := range files {
			if strings.HasPrefix(name, "data/"+s.ID+"/reports/") || name == downloads.AnalysisFile(s.ID) {
				reports++
			}
		}
		if ev.Study != s.ID || len(ev.Downloads) != 3+reports || reports == 0 || len(ev.Inputs) == 0 {
			t.Errorf("%s: evidence lists %d downloads and %d inputs, want 3 + %d reports", s.ID, len(ev.Downloads), len(ev.Inputs), reports)
		}
		sum := func(data []byte) string { h := sha256.Sum256(data); return hex.EncodeToString(h[:]) }
		for _, d := range ev.Downloads {
			if got := sum(files[d.Path]); got != d.SHA256 || files[d.Path] == nil {
				t.Errorf("%s: %s has SHA-256 %s, evidence says %s", s.ID, d.Path, got, d.SHA256)
			}
		}
		logs := 0
		for _, r := range s.Runs {
			logs += len(r.Logs)
			for _, h := range r.History {
				logs += len(h.Logs)
			}
		}
		if len(ev.Logs) != logs {
			t.Errorf("%s: %d logs in evidence, %d in the study", s.ID, len(ev.Logs), logs)
		}
		for _, f := range append(ev.Logs, ev.Inputs...) {
			data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(f.Path)))
			if err != nil {
				t.Errorf("%s: %s: %v", s.ID, f.Path, err)
				continue
			}
			if sum(data) != f.SHA256 {
				t.Errorf("%s: %s: hash differs from the file's", s.ID, f.Path)
			}
		}
		if !strings.Contains(string(files["data/"+s.ID+".evidence.json"]), `"path": "results/`+s.ID+`/study.yaml"`) {
			t.Errorf("%s: study.yaml is not among the inputs", s.ID)
		}
	}
}
