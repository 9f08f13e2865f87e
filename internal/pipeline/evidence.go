package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/perflab/perflab/internal/buildinfo"
	"github.com/perflab/perflab/internal/downloads"
	"github.com/perflab/perflab/internal/recipe"
	"github.com/perflab/perflab/internal/render"
	"github.com/perflab/perflab/internal/study"
)

// Evidence is data/<study>.evidence.json: the SHA-256 of every file a
// study's pages were built from and of every download made of it, so
// that a figure cited from the site can be checked offline against the
// raw logs (docs/downloads.md). It holds no time: two builds of the same
// tree by the same perflab give the same bytes.
type Evidence struct {
	Study          string     `json:"study"`
	PerflabVersion *string    `json:"perflab_version"` // null: the binary carries no version
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
func addStudyDownloads(files Output, d Dirs, r *render.Renderer, s *study.Study, content map[string]*study.Content, rows []downloads.Record, made []FileHash) error {
	stem := "data/" + s.ID
	csvData, jsonData, err := downloads.MarshalRecords(stem, rows)
	if err != nil {
		return err
	}
	own := map[string][]byte{stem + ".csv": csvData, stem + ".json": jsonData, stem + ".reproduce.sh": recipe.Script(s, d.RepoPath)}
	ev := Evidence{Study: s.ID}
	if v := buildinfo.Version(); v != "" {
		ev.PerflabVersion = &v
	}
	if ev.Logs, ev.Inputs, err = studyInputs(d, s, content, r.Sources); err != nil {
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

// studyInputs hashes the study's logs as they were read and cites the
// sums its metadata and prose had when read; a file read without one is
// read again, through the same guarded file system as a build. sources
// are the locales and templates the renderer read.
func studyInputs(d Dirs, s *study.Study, content map[string]*study.Content, sources []render.Source) (logs, inputs []FileHash, err error) {
	for _, r := range s.Runs {
		for _, lg := range r.Logs {
			logs = append(logs, hashOf(d.RepoPath(lg.File), lg.Raw))
		}
		for _, h := range r.History {
			for _, lg := range h.Logs {
				logs = append(logs, hashOf(d.RepoPath(lg.File), lg.Raw))
			}
		}
	}
	var files []string // not summed when read
	sum := func(file string) {
		if h, ok := s.Sums[file]; ok {
			inputs = append(inputs, FileHash{d.RepoPath(file), h})
		} else {
			files = append(files, file)
		}
	}
	sum(s.Pos.File)
	for _, r := range s.Runs {
		sum(r.Pos.File)
		if r.Accuracy != nil {
			sum(path.Join(path.Dir(r.Pos.File), study.AccuracyFile))
		}
		for _, h := range r.History {
			if h.Command != "" {
				sum(h.Pos.File)
			}
		}
	}
	for _, c := range content {
		if c != nil && c.SHA256 != "" {
			inputs = append(inputs, FileHash{d.RepoPath(c.Pos.File), c.SHA256})
		} else if c != nil {
			files = append(files, c.Pos.File)
		}
	}
	for _, f := range files {
		h, err := hashProjectFile(d, f)
		if err != nil {
			return nil, nil, err
		}
		inputs = append(inputs, h)
	}
	for _, src := range sources {
		inputs = append(inputs, FileHash{src.Path, src.SHA256})
	}
	sort.Slice(logs, func(i, j int) bool { return logs[i].Path < logs[j].Path })
	sort.Slice(inputs, func(i, j int) bool { return inputs[i].Path < inputs[j].Path })
	return logs, inputs, nil
}

// hashProjectFile reads a file of results/ or content/ named as the
// loader shows it.
func hashProjectFile(d Dirs, file string) (FileHash, error) {
	for _, dir := range []string{d.Results, d.Content} {
		if dir == "" {
			continue
		}
		root := strings.TrimSuffix(filepath.ToSlash(dir), "/")
		if rest, ok := strings.CutPrefix(file, root+"/"); ok {
			return hashStream(projectFS(dir), rest, d.RepoPath(file))
		}
	}
	return FileHash{}, &fs.PathError{Op: "hash", Path: file, Err: fs.ErrNotExist}
}

// readRecorder is a folder of the project that remembers the SHA-256 of
// every file read through ReadFile: the renderer reads its templates and
// locales once per build, and each study's evidence lists them.
type readRecorder struct {
	fs.FS
	dir   string
	d     Dirs
	mu    sync.Mutex
	reads map[string]string // repository path -> SHA-256
}

func recordReads(fsys fs.FS, dir string, d Dirs) *readRecorder {
	return &readRecorder{FS: fsys, dir: dir, d: d, reads: map[string]string{}}
}

func (r *readRecorder) ReadFile(name string) ([]byte, error) {
	data, err := fs.ReadFile(r.FS, name)
	if err == nil {
		h := hashOf(r.d.RepoPath(path.Join(strings.TrimSuffix(filepath.ToSlash(r.dir), "/"), name)), data)
		r.mu.Lock()
		r.reads[h.Path] = h.SHA256
		r.mu.Unlock()
	}
	return data, err
}

// sortedSources lists what the recorders saw, by path.
func sortedSources(recs ...*readRecorder) []render.Source {
	var out []render.Source
	for _, r := range recs {
		for p, h := range r.reads {
			out = append(out, render.Source{Path: p, SHA256: h})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// copyBuffers keep the reads of hashStream from allocating per file: every
// study hashes the locales and templates again.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// hashStream hashes a file of fsys without holding it in memory.
func hashStream(fsys fs.FS, name, shown string) (FileHash, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return FileHash{}, err
	}
	defer f.Close()
	h := sha256.New()
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	if _, err := io.CopyBuffer(struct{ io.Writer }{h}, struct{ io.Reader }{f}, *buf); err != nil {
		return FileHash{}, err
	}
	return FileHash{Path: shown, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
