package study

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/workers"
)

// Problem is something wrong with the input, at a position.
type Problem struct {
	Pos Pos
	Msg string
}

func (p Problem) Error() string { return fmt.Sprintf("%s:%d: %s", p.Pos.File, p.Pos.Line, p.Msg) }

// StudyFile and RunFile are the metadata file names of a study and a run.
const (
	StudyFile = "study.yaml"
	RunFile   = "run.yaml"
	LogSuffix = ".log"
	// JSONSuffix names a result saved as JSON (vLLM, SGLang or TensorRT-LLM
	// --save-result) instead of a console log; its per-request arrays give
	// the latency distributions.
	JSONSuffix = ".json"
	runsDir    = "runs"
)

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// LoadAll loads every study folder of fsys, a results/ tree whose paths are
// shown prefixed with root. Problems in the data are returned, all of them;
// only a failure to read the tree is an error.
func LoadAll(fsys fs.FS, root string) ([]*Study, []Problem, error) {
	names, refused, err := List(fsys, root)
	if err != nil {
		return nil, nil, err
	}
	// Studies are independent: load them on every core, keep their order.
	type loaded struct {
		s     *Study
		probs []Problem
		err   error
	}
	out := make([]loaded, len(names))
	workers.Each(len(names), func(i int) {
		sub, err := fs.Sub(fsys, names[i])
		if err != nil {
			out[i].err = err
			return
		}
		out[i].s, out[i].probs, out[i].err = Load(sub, path.Join(root, names[i]), names[i])
	})
	var studies []*Study
	problems := refused
	for _, l := range out {
		if l.err != nil {
			return nil, nil, l.err
		}
		problems = append(problems, l.probs...)
		if l.s != nil {
			studies = append(studies, l.s)
		}
	}
	probs, err := UseSharedPrices(fsys, root, studies)
	return studies, append(problems, probs...), err
}

// List names the study folders of a results folder, in name order, and
// refuses every entry that is a link, a pipe or a device.
func List(fsys fs.FS, root string) ([]string, []Problem, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var refused []Problem
	for _, e := range entries {
		if err := safefs.Check(path.Join(root, e.Name()), e.Type()); err != nil {
			refused = append(refused, refusal(err))
			continue
		}
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names, refused, nil
}

// Load reads one study folder.
func Load(fsys fs.FS, dir, id string) (*Study, []Problem, error) {
	return load(&loader{fsys: fsys, dir: dir}, id)
}

// LoadMeta is Load without the logs: the study's description, and those
// of its runs that keep a history, with their engine (no other run is
// read), which a build needs of every study (to compare engine versions) before
// it reads any log.
// Its problems are Load's only when it returns no study: without the
// logs, some are wrong (a history folder without a log).
// It also returns the study as study.yaml gives it, from which Head.Load
// goes on without reading and parsing study.yaml again; nil when there
// is no study.
func LoadMeta(fsys fs.FS, dir, id string) (*Study, *Head, []Problem, error) {
	l := &loader{fsys: fsys, dir: dir, noLogs: true}
	s, err := l.head(id)
	if s == nil {
		return nil, nil, l.problems, err
	}
	h := &Head{study: *s, problems: slices.Clone(l.problems), sums: maps.Clone(l.sums), guesses: slices.Clone(l.guesses), studyRead: l.studyRead}
	s, probs, err := l.rest(s)
	return s, h, probs, err
}

// A Head is a study as its study.yaml gives it, with the problems found
// so far, before its runs are read.
type Head struct {
	study     Study
	problems  []Problem
	sums      map[string]string
	guesses   []Guess
	studyRead bool
}

// Load loads the rest of the study, logs included, from fsys as Load
// does: the same study and problems, study.yaml read once.
func (h *Head) Load(fsys fs.FS) (*Study, []Problem, error) {
	l := &loader{fsys: fsys, dir: h.study.Dir, problems: slices.Clone(h.problems), sums: maps.Clone(h.sums), guesses: slices.Clone(h.guesses), studyRead: h.studyRead}
	s := h.study
	return l.rest(&s)
}

func load(l *loader, id string) (*Study, []Problem, error) {
	s, err := l.head(id)
	if s == nil {
		return nil, l.problems, err
	}
	return l.rest(s)
}

// head reads study.yaml; a nil study, with the problems or the error,
// when there is none to read.
func (l *loader) head(id string) (*Study, error) {
	dir := l.dir
	s := &Study{ID: id, Dir: dir, Pos: Pos{File: path.Join(dir, StudyFile), Line: 1}}
	if !idPattern.MatchString(id) {
		l.problem(s.Pos, "study folder name %q is not a valid id: use lower-case letters, digits, '.', '_' and '-'", id)
	} else if msg := idProblem("study", id); msg != "" {
		l.problem(s.Pos, "%s", msg)
	}
	data, err := l.readMeta(StudyFile)
	if errors.Is(err, fs.ErrNotExist) {
		l.problem(Pos{File: dir, Line: 0}, "a study folder needs a %s file (see docs/results-format.md)", StudyFile)
		return nil, nil
	}
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil, nil
	}
	if err != nil {
		l.problems = nil
		return nil, err
	}
	root := l.parseYAML(s.Pos.File, data)
	if root != nil {
		l.study(s, root)
	}
	// Without a readable study.yaml, workload and engine ids are unknown:
	// checking logs and runs against them would only repeat that problem.
	l.studyRead = root != nil
	return s, nil
}

// rest reads the runs of a study whose study.yaml was read.
func (l *loader) rest(s *Study) (*Study, []Problem, error) {
	if err := l.runs(s); err != nil {
		return nil, nil, err
	}
	s.Sums, s.Guesses = l.sums, l.guesses
	if l.studyRead {
		l.crossRefs(s)
		l.historyRefs(s)
		l.reproducesRefs(s)
	}
	return s, l.problems, nil
}

type loader struct {
	fsys      fs.FS
	dir       string
	problems  []Problem
	studyRead bool            // study.yaml was valid YAML
	folders   map[string]bool // run folders, loaded or not
	noLogs    bool            // LoadMeta: logs are passed over
	sums      map[string]string
	guesses   []Guess
}

// FileSum is the SHA-256 of a file's bytes in hex, as a study's evidence
// cites the files it was built from.
func FileSum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// readMeta reads a metadata file of the study folder (name is relative to
// it) and keeps its SHA-256 for Study.Sums.
func (l *loader) readMeta(name string) ([]byte, error) {
	data, err := fs.ReadFile(l.fsys, name)
	if err == nil {
		if l.sums == nil {
			l.sums = map[string]string{}
		}
		l.sums[path.Join(l.dir, name)] = FileSum(data)
	}
	return data, err
}

// refusal is the problem of a path package safefs would not read: a
// symbolic link, a named pipe, a device or a socket.
func refusal(err error) Problem {
	r, file := safefs.Refused(err)
	return Problem{Pos{file, 0}, r.Error()}
}

func (l *loader) problem(p Pos, format string, args ...any) {
	l.problems = append(l.problems, Problem{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// Limits on what a study may hold. A pull request is hostile until checked:
// a 20 MB model name, repeated on every page, made a 4 GB site.
const (
	// MaxFileSize bounds study.yaml, run.yaml and a content file.
	MaxFileSize = 1 << 20
	// MaxLogSize bounds a log, which is kept whole to show its blocks: a
	// build holds at most this much of each.
	MaxLogSize = 64 << 20
	// maxName bounds an id, a name, a model, an engine and other labels.
	maxName = 256
	// maxText bounds any other value: a command, an error, a reason.
	maxText = 16 << 10
)

// nameFields hold a label and at most maxName bytes; other string fields
// (commands, errors, reasons) up to maxText.
var nameFields = map[string]bool{"id": true, "name": true, "model": true, "gpu": true, "engine": true, "version": true,
	"dataset": true, "kind": true, "objective": true, "tool": true, "workload": true, "run": true, "step": true,
	"subject": true, "rule": true}

// tooLarge is the problem of a file over MaxFileSize.
func tooLarge(file string, size int) Problem {
	return Problem{Pos{file, 1}, fmt.Sprintf("the file is %d bytes; the limit is %d (1 MiB): split it or keep raw output in the logs", size, MaxFileSize)}
}

// readDir lists a folder of the study in name order, whatever the file
// system lists (of a <workload>.json and a <workload>.log, the .log is the
// second one). ok is false when the folder is not read: a folder safefs
// refuses (a problem is recorded) or an I/O error, returned.
func (l *loader) readDir(dir string) (entries []fs.DirEntry, ok bool, err error) {
	entries, err = fs.ReadDir(l.fsys, dir)
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, true, nil
}

// crossRefs checks that every id the study names exists.
func (l *loader) crossRefs(s *Study) {
	runRef := func(p Pos, what, id string) {
		// A folder without a readable run.yaml has its own problem.
		if s.Run(id) == nil && !l.folders[id] {
			l.problem(p, "%s names run %q, which has no folder %s/%s/%s", what, id, s.Dir, runsDir, id)
		}
	}
	seen := map[string]bool{}
	mains := 0
	for _, w := range s.Workloads {
		if seen[w.ID] {
			l.problem(w.Pos, "workload id %q is used twice", w.ID)
		}
		seen[w.ID] = true
		if w.Main {
			mains++
		}
	}
	if len(s.Workloads) > 0 && mains != 1 {
		l.problem(s.Pos, "exactly one workload must be marked main: true (the one steps are compared on); found %d", mains)
	}
	for _, id := range s.Baseline.Runs {
		runRef(s.Baseline.Pos, "baseline", id)
	}
	for _, id := range s.Recommended.Runs {
		runRef(s.Recommended.Pos, "recommended", id)
	}
	steps := map[string]bool{}
	for _, st := range s.Steps {
		if steps[st.ID] {
			l.problem(st.Pos, "step id %q is used twice", st.ID)
		}
		steps[st.ID] = true
		for _, id := range st.Runs {
			runRef(st.Pos, "step "+st.ID, id)
		}
		if st.Reference != "" {
			runRef(st.Pos, "step "+st.ID+" reference", st.Reference)
		}
	}
	for _, c := range s.Claims {
		if c.Workload != "" && s.Workload(c.Workload) == nil {
			l.problem(c.Pos, "claim names workload %q, which the study does not define", c.Workload)
		}
		if c.Step != "" && !steps[c.Step] {
			l.problem(c.Pos, "claim names step %q, which the study does not define", c.Step)
		}
		if c.Run != "" && s.Run(c.Run) == nil {
			l.problem(c.Pos, "claim names run %q, which has no folder %s/%s/%s", c.Run, s.Dir, runsDir, c.Run)
		}
	}
	for _, r := range s.Runs {
		if r.Engine != "" && s.Engine(r.Engine) == nil {
			l.problem(Pos{r.Pos.File, r.EngineLine}, "run %s: engine %q is not one of the study's engines in %s", r.ID, r.Engine, s.Pos.File)
		}
	}
}
