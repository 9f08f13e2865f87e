package pipeline

import (
	"fmt"
	"sort"

	"github.com/perflab/perflab/internal/buildinfo"
	"github.com/perflab/perflab/internal/downloads"
	"github.com/perflab/perflab/internal/recipe"
	"github.com/perflab/perflab/internal/study"
)

// Evidence is data/<study>.evidence.json: the SHA-256 of every file a
// study's pages were built from and of every download made of it, so
// that a figure cited from the site can be checked offline against the
// raw logs (docs/downloads.md). It holds no time: two builds of the same
// tree by the same perflab give the same bytes.
type Evidence struct {
	Study          string     `json:"study"`
	PerflabVersion *string    `json:"perflab_version"` // (devel) under go run; null: no build information
	Logs           []FileHash `json:"logs"`            // every raw log, history included
	Inputs         []FileHash `json:"inputs"`          // metadata, prose, locales and templates
	Downloads      []FileHash `json:"downloads"`       // data/<study>.* and data/<study>/reports/** made by this build
}

// FileHash is one file and its SHA-256, in hex.
type FileHash struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

func hashOf(p string, data []byte) FileHash {
	return FileHash{Path: p, SHA256: study.FileSum(data)}
}

// hashedFiles adds files to out and keeps their hashes, in the order
// they came, for the evidence of downloads made elsewhere.
type hashedFiles struct {
	out    Output
	hashes []FileHash
}

func (h *hashedFiles) Add(name string, data []byte) error {
	if err := h.out.Add(name, data); err != nil {
		return err
	}
	h.hashes = append(h.hashes, hashOf(name, data))
	return nil
}

// addStudyDownloads adds a study's rows (data/<study>.csv and .json), its
// recipes (data/<study>.reproduce.sh) and, last, their evidence, which
// also lists the hashes of the study's other downloads (made).
func addStudyDownloads(files Output, d Dirs, s *study.Study, recipes []recipe.Recipe, rows []downloads.Record, made []FileHash) error {
	stem := "data/" + s.ID
	csvData, jsonData, err := downloads.MarshalRecords(stem, rows)
	if err != nil {
		return err
	}
	own := map[string][]byte{stem + ".csv": csvData, stem + ".json": jsonData, stem + ".reproduce.sh": recipe.Script(s, recipes, d.RepoPath)}
	ev := Evidence{Study: s.ID}
	if v := buildinfo.Version(); v != "" {
		ev.PerflabVersion = &v
	}
	if ev.Logs, ev.Inputs, err = studyInputs(d, s); err != nil {
		return err
	}
	for _, name := range []string{stem + ".csv", stem + ".json", stem + ".reproduce.sh"} {
		ev.Downloads = append(ev.Downloads, hashOf(name, own[name]))
		if err := files.Add(name, own[name]); err != nil {
			return err
		}
	}
	ev.Downloads = append(ev.Downloads, made...)
	sort.SliceStable(ev.Downloads, func(i, j int) bool { return ev.Downloads[i].Path < ev.Downloads[j].Path })
	out, err := downloads.MarshalIndent(ev)
	if err != nil {
		return err
	}
	return files.Add(stem+".evidence.json", out)
}

// studyInputs lists what the build read for the study (readLedger): its
// raw logs, as logs, and every other file, its own and the shared ones,
// as inputs.
func studyInputs(d Dirs, s *study.Study) (logs, inputs []FileHash, err error) {
	if d.reads == nil {
		return nil, nil, fmt.Errorf("evidence of %s: the build noted no reads", s.ID)
	}
	read, err := d.reads.take(s.ID)
	if err != nil {
		return nil, nil, err
	}
	isLog := map[string]bool{}
	for _, r := range s.Runs {
		for _, lg := range r.Logs {
			isLog[d.RepoPath(lg.File)] = true
		}
		for _, h := range r.History {
			for _, lg := range h.Logs {
				isLog[d.RepoPath(lg.File)] = true
			}
		}
	}
	for _, f := range read {
		if isLog[f.Path] {
			logs = append(logs, f)
		} else {
			inputs = append(inputs, f)
		}
	}
	return logs, inputs, nil
}
